/**
 * The embedded wallet's smart account: our WalletAccount (ERC-4337 v0.8 with ERC-1271,
 * server/dev/chain/contracts/WalletAccount.sol), created by WalletAccountFactory, owned by the person's
 * key, as a viem `SmartAccount` for a bundler client.
 *
 * Not eth-infinitism's SimpleAccount v0.8: that one has no `isValidSignature` and its factory serves only
 * the EntryPoint, so its signatures verify neither by EIP-1271 nor by EIP-6492 (docs/ARCHITECTURE.md).
 *
 * One account per owner (salt 0). It batches with `executeBatch`, which reverts as a whole when one call
 * reverts: a batch is atomic. Its ERC-1271 signatures sign the hash wrapped in an EIP-712 domain bound to
 * the account and the chain ({@link replaySafeTypedData}); viem wraps them in EIP-6492 while the account
 * is not deployed.
 *
 * Sessions (ERC-7715 permissions): the account grants a session key a policy it enforces in its own
 * validation ({@link walletAccountSessionAbi}, {@link sessionPolicy}, {@link sessionSignature};
 * docs/EMBEDDED-WALLET.md, "Smart sessions: the contract").
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
  hashMessage,
  hashTypedData,
  type Transport,
  type TypedDataDefinition,
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
import { replaySafeTypedData } from '../../src/protocol/embedded/signer.ts'
import { encodeWalletAccountCalls } from '../../src/protocol/embedded/walletAccountSessions.ts'

/**
 * WalletAccountFactory's address on every network that has it: CREATE2 through Arachnid's deployer with
 * salt zero, so it follows from the compiled contract (server/dev/chain/erc4337.ts checks it at start).
 */
export const WALLET_ACCOUNT_FACTORY: Address = '0xeA947AD6EFf40173b735640Bd3e4a8DCb5DC0704'

/** The factory's and the account's functions used here. */
export const walletAccountAbi = [
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

// The sessions' ABI, policy and signature live in the protocol: the frame checks grants against them.
export {
  type EncodedSessionPolicy,
  EXECUTE_USER_OP_SELECTOR,
  encodeSessionCalls,
  encodeWalletAccountCalls,
  grantSessionData,
  isSessionSignature,
  SESSION_KEY_STUB,
  type SessionPolicy,
  sessionPolicy,
  sessionSignature,
  walletAccountSessionAbi,
} from '../../src/protocol/embedded/walletAccountSessions.ts'

// The ERC-1271 wrapping lives with the one signer, which the frame runs too.
export { replaySafeTypedData }

/**
 * The calls of a WalletAccount's `callData` (`execute` or `executeBatch`); anything else throws.
 *
 * @example
 * decodeWalletAccountCalls(callData) // [{ to: '0x…', value: 1n, data: '0x' }]
 */
export function decodeWalletAccountCalls(data: Hex): { to: Address; value: bigint; data: Hex }[] {
  const decoded = decodeFunctionData({ abi: walletAccountAbi, data })
  if (decoded.functionName === 'execute') {
    const [to, value, callData] = decoded.args
    return [{ to, value, data: callData }]
  }
  if (decoded.functionName === 'executeBatch')
    return decoded.args[0].map((call) => ({ to: call.target, value: call.value, data: call.data }))
  throw new BaseError(`WalletAccount: ${decoded.functionName} is not a call`)
}

/**
 * A well-formed 65-byte signature that recovers to no owner, for gas estimation: the account answers
 * "signature failed" instead of reverting, as ERC-4337 asks.
 */
const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

export type WalletAccount = SmartAccount<SmartAccountImplementation<typeof entryPoint08Abi, '0.8'>>

/**
 * The owner's WalletAccount (v0.8, salt 0): its address is known before it is deployed; the first
 * UserOperation deploys it.
 *
 * @example
 * const account = await toWalletAccount({ client: publicClient, owner: privateKeyToAccount(key) })
 * await bundlerClient.sendUserOperation({ account, calls: [{ to, value }] })
 */
export async function toWalletAccount({
  client,
  owner,
  factory = WALLET_ACCOUNT_FACTORY,
}: {
  client: Client<Transport, Chain | undefined, JsonRpcAccount | LocalAccount | undefined>
  owner: LocalAccount
  factory?: Address
}): Promise<WalletAccount> {
  const chainId = client.chain?.id
  if (chainId === undefined) throw new BaseError('WalletAccount: the client has no chain')
  const factoryData = encodeFunctionData({
    abi: walletAccountAbi,
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
        abi: walletAccountAbi,
        functionName: 'getAddress',
        args: [owner.address, 0n],
      })
      return address
    },
    async getFactoryArgs() {
      return { factory, factoryData }
    },
    async encodeCalls(calls) {
      return encodeWalletAccountCalls(calls)
    },
    async decodeCalls(data) {
      return decodeWalletAccountCalls(data)
    },
    async getStubSignature() {
      return STUB_SIGNATURE
    },
    // ERC-1271 signatures (viem's toSmartAccount wraps them in EIP-6492 while the account has no code).
    async signMessage({ message }) {
      return owner.signTypedData(replaySafeTypedData(await this.getAddress(), chainId, hashMessage(message)))
    },
    async signTypedData(typedData) {
      const hash = hashTypedData(typedData as TypedDataDefinition)
      return owner.signTypedData(replaySafeTypedData(await this.getAddress(), chainId, hash))
    },
    async signUserOperation({ chainId: operationChainId = chainId, ...userOperation }) {
      const sender = await this.getAddress()
      // v0.8's UserOperation hash is EIP-712 typed data, which the account checks with ECDSA.recover.
      return owner.signTypedData(
        getUserOperationTypedData({
          chainId: operationChainId,
          entryPointAddress: entryPoint08Address,
          userOperation: { ...userOperation, sender },
        }),
      )
    },
  }) as Promise<WalletAccount>
}
