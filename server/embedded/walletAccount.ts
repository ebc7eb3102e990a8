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
 * Sessions (issue 27): the account grants a session key a policy it enforces in its own validation
 * ({@link walletAccountSessionAbi}, {@link sessionPolicy}, {@link sessionSignature}; docs/EMBEDDED-WALLET.md,
 * "Smart sessions: the contract").
 */
import {
  type Abi,
  type Address,
  BaseError,
  type Chain,
  type Client,
  concat,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  hashMessage,
  hashTypedData,
  isAddress,
  isHex,
  parseAbi,
  type Transport,
  type TypedDataDefinition,
  toHex,
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
import * as z from 'zod/mini'
import { replaySafeTypedData } from '../../src/protocol/embedded/signer.ts'

/**
 * WalletAccountFactory's address on every network that has it: CREATE2 through Arachnid's deployer with
 * salt zero, so it follows from the compiled contract (server/dev/chain/erc4337.ts checks it at start).
 */
export const WALLET_ACCOUNT_FACTORY: Address = '0xCBE9bE0B4fa67fE472Bc0Dc82acbe67Fc8aC8b3D'

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

/** The account's sessions: grant, revoke, the views, their events and the reasons validation refuses. */
export const walletAccountSessionAbi = parseAbi([
  'struct Permission { address target; bytes4 selector; }',
  'struct Allowance { address token; uint256 amount; uint48 period; }',
  'struct Policy { uint48 validAfter; uint48 validUntil; uint32 callLimit; uint256 valueCap; uint256 maxGasCost; Permission[] permissions; Allowance[] allowances; }',
  'function grantSession(address key, Policy policy)',
  'function revokeSession(address key)',
  'function session(address key) view returns (Policy policy, uint256 grant, uint32 callsMade, bool revoked)',
  'function sessionSpent(address key, address token, uint48 period) view returns (uint256)',
  'function sessionUse(address key) view returns (uint32 callsMade, uint48[] periods, uint256[] spent)',
  'function isSessionRevoked(address key) view returns (bool)',
  'event SessionGranted(address indexed key, uint256 indexed grant, Policy policy)',
  'event SessionRevoked(address indexed key, uint256 indexed grant)',
  'error NotAllowed(address caller)',
  'error InvalidPolicy(address key)',
  'error SessionUnknown(address key)',
  'error SessionIsRevoked(address key)',
  'error SessionCallLimitReached(address key, uint32 callLimit)',
  'error SessionNotACall(bytes4 selector)',
  'error SessionCallNotAllowed(uint256 index, address target, bytes4 selector)',
  'error SessionSelfCall(uint256 index)',
  'error SessionValueOverCap(uint256 index, uint256 value, uint256 cap)',
  'error SessionAllowanceExceeded(address token, uint48 period, uint256 spent, uint256 allowance)',
  'error SessionGasCostOverCap(uint256 cost, uint256 cap)',
  'error SessionPeriodOutOfRange(address token, uint48 period)',
])

const UINT48_MAX = 2n ** 48n - 1n
const address = z.string().check(z.refine((value) => isAddress(value, { strict: false }), 'an address'))
const uint = (max: bigint) => z.bigint().check(z.gte(0n), z.lte(max))
const selector = z
  .string()
  .check(z.refine((value) => isHex(value) && value.length === 10, 'a 4-byte selector'))

/** A session's policy as the account stores it (see `Policy` in WalletAccount.sol). */
const sessionPolicySchema = z
  .object({
    /** The first second the key may act (unix seconds). */
    validAfter: uint(UINT48_MAX),
    /** The first second it may no longer act. */
    validUntil: uint(UINT48_MAX),
    /** At most this many calls in all (0: no limit). */
    callLimit: z._default(z.number().check(z.int(), z.gte(0), z.lte(2 ** 32 - 1)), 0),
    /** At most this much wei per call. */
    valueCap: z._default(uint(2n ** 256n - 1n), 0n),
    /** At most this much wei of gas per op (gas limits × maxFeePerGas) when the account pays. */
    maxGasCost: uint(2n ** 256n - 1n),
    /** The (target, selector) pairs it may call; selector `0x00000000` is a call with no data. */
    permissions: z.array(z.object({ target: address, selector })),
    /** What it may move of each ERC-20 per period of `period` seconds. */
    allowances: z._default(
      z.array(z.object({ token: address, amount: uint(2n ** 256n - 1n), period: uint(UINT48_MAX) })),
      [],
    ),
  })
  .check(
    z.refine((policy) => policy.validUntil > policy.validAfter, 'validUntil must come after validAfter'),
    z.refine((policy) => policy.allowances.every((allowance) => allowance.period > 0n), 'a period of zero'),
  )

export type SessionPolicy = z.input<typeof sessionPolicySchema>

/** A policy in the ABI's shape, for `grantSession`. */
export type EncodedSessionPolicy = {
  validAfter: number
  validUntil: number
  callLimit: number
  valueCap: bigint
  maxGasCost: bigint
  permissions: { target: Address; selector: Hex }[]
  allowances: { token: Address; amount: bigint; period: number }[]
}

/**
 * Checks a session policy and shapes it for `grantSession` (throws a zod error when it is malformed).
 *
 * @example
 * const policy = sessionPolicy({
 *   validAfter: 0n, validUntil: 1_900_000_000n, maxGasCost: parseEther('0.01'),
 *   permissions: [{ target: usdc, selector: toFunctionSelector('transfer(address,uint256)') }],
 *   allowances: [{ token: usdc, amount: 10_000_000n, period: 86_400n }],
 * })
 */
export function sessionPolicy(input: SessionPolicy): EncodedSessionPolicy {
  const policy = sessionPolicySchema.parse(input)
  return {
    validAfter: Number(policy.validAfter),
    validUntil: Number(policy.validUntil),
    callLimit: policy.callLimit,
    valueCap: policy.valueCap,
    maxGasCost: policy.maxGasCost,
    permissions: policy.permissions.map(({ target, selector }) => ({
      target: target as Address,
      selector: selector as Hex,
    })),
    allowances: policy.allowances.map(({ token, amount, period }) => ({
      token: token as Address,
      amount,
      period: Number(period),
    })),
  }
}

/**
 * The account's call that grants `key` a session under `policy`: send it through the account's own
 * `execute` (target: the account, value 0), signed by the owner.
 *
 * @example
 * await bundlerClient.sendUserOperation({ account, calls: [{ to: account.address, data: grantSessionData({ key, policy }) }] })
 */
export function grantSessionData({ key, policy }: { key: Address; policy: SessionPolicy }): Hex {
  return encodeFunctionData({
    abi: walletAccountSessionAbi,
    functionName: 'grantSession',
    args: [address.parse(key) as Address, sessionPolicy(policy)],
  })
}

const sessionSignatureSchema = z.object({
  key: address,
  period: uint(UINT48_MAX),
  signature: z
    .string()
    .check(z.refine((value) => isHex(value) && value.length === 132, 'a 65-byte signature')),
})

/**
 * A UserOperation signature by a session key: `0x01 ‖ key (20 bytes) ‖ period index (uint48) ‖ the key's
 * 65-byte ECDSA signature of the userOpHash`. `period` is the index of the allowance period the op
 * spends in (`floor(now / period length)`; any value when the op spends no allowance).
 *
 * @example
 * const signature = sessionSignature({ key: sessionKey.address, period: 0n, signature: await sessionKey.sign({ hash: userOpHash }) })
 */
export function sessionSignature(input: { key: Address; period: bigint; signature: Hex }): Hex {
  const { key, period, signature } = sessionSignatureSchema.parse(input)
  return concat(['0x01', key as Address, toHex(period, { size: 6 }), signature as Hex])
}

// The ERC-1271 wrapping lives with the one signer, which the frame runs too.
export { replaySafeTypedData }

/**
 * A WalletAccount's `callData` for `calls`: `execute` for one, `executeBatch` for more (the inverse of
 * {@link decodeWalletAccountCalls}).
 *
 * @example
 * encodeWalletAccountCalls([{ to: bob, value: 1n }]) // execute(bob, 1, 0x)
 */
export function encodeWalletAccountCalls(
  calls: readonly { to: Address; value?: bigint | undefined; data?: Hex | undefined }[],
): Hex {
  const [only] = calls
  if (calls.length === 1 && only)
    return encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'execute',
      args: [only.to, only.value ?? 0n, only.data ?? '0x'],
    })
  return encodeFunctionData({
    abi: walletAccountAbi,
    functionName: 'executeBatch',
    args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))],
  })
}

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
