/**
 * WalletAccount's sessions (ERC-7715 permissions, server/dev/chain/contracts/WalletAccount.sol): the ABI of
 * grant, revoke, the views, the events and the reasons validation refuses; a policy as `grantSession` takes
 * it; a session key's UserOperation signature. The service builds grants with these and the frame checks
 * what it signs against them, so both read one definition.
 */
import { type Address, concat, encodeFunctionData, type Hex, isAddress, isHex, parseAbi, toHex } from 'viem'
import * as z from 'zod/mini'

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
  'error SessionNativeOverCap(uint256 sent, uint256 cap)',
  'error NotASessionOp()',
  'error SessionReentered()',
  'error ExecuteError(uint256 index, bytes result)',
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
    /** At most this much wei per call, and leaving the account in one op (measured as the op runs). */
    valueCap: z._default(uint(2n ** 256n - 1n), 0n),
    /** At most this much wei of gas per op (gas limits × maxFeePerGas) when the account pays. */
    maxGasCost: uint(2n ** 256n - 1n),
    /** The (target, selector) pairs it may call; selector `0x00000000` is a call with no data. */
    permissions: z.array(z.object({ target: address, selector })),
    /**
     * What may leave the account of each ERC-20 per period of `period` seconds, whichever contract moves
     * it (measured as each op runs), approvals the session gives included.
     */
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

/** Whether a UserOperation signature is a session's (92 bytes: `0x01 ‖ key ‖ period ‖ signature`). */
export const isSessionSignature = (signature: Hex): boolean =>
  signature.length === 2 + 92 * 2 && signature.startsWith('0x01')

/**
 * A 65-byte signature that recovers to no key: estimates run with it (the account's validation answers
 * "signature failed" rather than reverting), alone or as a session's inner signature.
 */
export const SESSION_KEY_STUB: Hex = `0x${'ff'.repeat(32)}${'7a'.repeat(32)}1c`

/** WalletAccount's `execute` and `executeBatch`, as a session's (and any) op calls them. */
const walletAccountCallAbi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch(Call[] calls)',
])

/**
 * A WalletAccount's `callData` for `calls`: `execute` for one, `executeBatch` for more (an owner's op;
 * a session's op wraps it: {@link encodeSessionCalls}).
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
      abi: walletAccountCallAbi,
      functionName: 'execute',
      args: [only.to, only.value ?? 0n, only.data ?? '0x'],
    })
  return encodeFunctionData({
    abi: walletAccountCallAbi,
    functionName: 'executeBatch',
    args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))],
  })
}

/** `executeUserOp(PackedUserOperation,bytes32)` (ERC-4337's IAccountExecute): the EntryPoint hands it the whole op. */
export const EXECUTE_USER_OP_SELECTOR: Hex = '0x8dd7712f'

/**
 * A session op's `callData` for `calls`: `executeUserOp`'s selector, then {@link encodeWalletAccountCalls}.
 * The EntryPoint then runs the op through the account's `executeUserOp`, which measures what leaves the
 * account against the session's limits; the account refuses a session op in any other form. The frame
 * compares a session op's callData with this of the calls the page asked for.
 *
 * @example
 * encodeSessionCalls([{ to: router, data: swap }]) // 0x8dd7712f ‖ execute(router, 0, swap)
 */
export function encodeSessionCalls(
  calls: readonly { to: Address; value?: bigint | undefined; data?: Hex | undefined }[],
): Hex {
  return concat([EXECUTE_USER_OP_SELECTOR, encodeWalletAccountCalls(calls)])
}
