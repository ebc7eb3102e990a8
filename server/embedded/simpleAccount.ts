/**
 * The embedded wallet's smart account: eth-infinitism's SimpleAccount (ERC-4337 v0.8), created by its
 * SimpleAccountFactory at the factory's canonical address, owned by the person's key, as a viem
 * `SmartAccount` for a bundler client.
 *
 * One account per owner (salt 0). It batches with `executeBatch`, which reverts as a whole when one call
 * reverts: a batch is atomic.
 */
import {
  type Abi,
  type Address,
  BaseError,
  type Chain,
  type Client,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  type Transport,
} from 'viem'
import {
  entryPoint08Abi,
  entryPoint08Address,
  getUserOperationTypedData,
  type SmartAccount,
  type SmartAccountImplementation,
  toSmartAccount,
} from 'viem/account-abstraction'
import type { JsonRpcAccount, LocalAccount } from 'viem/accounts'
import { readContract } from 'viem/actions'

/** SimpleAccountFactory v0.8's address on every network that has it (CREATE2 through Arachnid's deployer). */
export const SIMPLE_ACCOUNT_FACTORY_08: Address = '0x13E9ed32155810FDbd067D4522C492D6f68E5944'

/** The factory's and the account's functions used here (their names and types are ERC-4337 facts). */
export const simpleAccountAbi = [
  {
    type: 'function',
    name: 'createAccount',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: 'ret', type: 'address' }],
  },
  {
    type: 'function',
    name: 'getAddress',
    stateMutability: 'view',
    inputs: [
      { name: 'owner', type: 'address' },
      { name: 'salt', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'address' }],
  },
  {
    type: 'function',
    name: 'execute',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'target', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'executeBatch',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
      },
    ],
    outputs: [],
  },
] as const satisfies Abi

/**
 * A well-formed 65-byte signature that recovers to no owner, for gas estimation: the account answers
 * "signature failed" instead of reverting, as ERC-4337 asks.
 */
const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

export type SimpleAccount = SmartAccount<SmartAccountImplementation<typeof entryPoint08Abi, '0.8'>>

/**
 * The owner's SimpleAccount (v0.8, salt 0): its address is known before it is deployed; the first
 * UserOperation deploys it.
 *
 * @example
 * const account = await toSimpleAccount({ client: publicClient, owner: privateKeyToAccount(key) })
 * await bundlerClient.sendUserOperation({ account, calls: [{ to, value }] })
 */
export async function toSimpleAccount({
  client,
  owner,
  factory = SIMPLE_ACCOUNT_FACTORY_08,
}: {
  client: Client<Transport, Chain | undefined, JsonRpcAccount | LocalAccount | undefined>
  owner: LocalAccount
  factory?: Address
}): Promise<SimpleAccount> {
  const factoryData = encodeFunctionData({
    abi: simpleAccountAbi,
    functionName: 'createAccount',
    args: [owner.address, 0n],
  })
  let address: Address | undefined
  return toSmartAccount({
    client,
    entryPoint: { abi: entryPoint08Abi, address: entryPoint08Address, version: '0.8' },
    async getAddress() {
      address ??= await readContract(client, {
        address: factory,
        abi: simpleAccountAbi,
        functionName: 'getAddress',
        args: [owner.address, 0n],
      })
      return address
    },
    async getFactoryArgs() {
      return { factory, factoryData }
    },
    async encodeCalls(calls) {
      const [only] = calls
      if (calls.length === 1 && only)
        return encodeFunctionData({
          abi: simpleAccountAbi,
          functionName: 'execute',
          args: [only.to, only.value ?? 0n, only.data ?? '0x'],
        })
      return encodeFunctionData({
        abi: simpleAccountAbi,
        functionName: 'executeBatch',
        args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))],
      })
    },
    async decodeCalls(data) {
      const decoded = decodeFunctionData({ abi: simpleAccountAbi, data })
      if (decoded.functionName === 'execute') {
        const [to, value, callData] = decoded.args
        return [{ to, value, data: callData }]
      }
      if (decoded.functionName === 'executeBatch')
        return decoded.args[0].map((call) => ({ to: call.target, value: call.value, data: call.data }))
      throw new BaseError(`SimpleAccount: ${decoded.functionName} is not a call`)
    },
    async getStubSignature() {
      return STUB_SIGNATURE
    },
    async signMessage({ message }) {
      return owner.signMessage({ message })
    },
    async signTypedData(typedData) {
      return owner.signTypedData(typedData as Parameters<LocalAccount['signTypedData']>[0])
    },
    async signUserOperation({ chainId = client.chain?.id, ...userOperation }) {
      if (chainId === undefined) throw new BaseError('SimpleAccount: the client has no chain')
      const sender = await this.getAddress()
      // v0.8's UserOperation hash is EIP-712 typed data, which the account checks with ECDSA.recover.
      return owner.signTypedData(
        getUserOperationTypedData({
          chainId,
          entryPointAddress: entryPoint08Address,
          userOperation: { ...userOperation, sender },
        }),
      )
    },
  }) as Promise<SimpleAccount>
}
