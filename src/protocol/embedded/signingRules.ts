// What the wallet's key may sign for each approval method: the checks the service and the frame both run.
import { type Address, decodeAbiParameters, type Hex, isAddress, isAddressEqual, slice } from 'viem'
import { entryPoint06Address, entryPoint07Address, entryPoint08Address } from 'viem/account-abstraction'
import { BaseError } from '../../errors/base.ts'
import type { ApprovalMethod } from './methods.ts'
import type { SignRequest, SignRequestKind } from './signing.ts'
import { isSolanaTransactionShaped, readSolanaTransactionMessage } from './solanaWire.ts'

/** The refusal of typed data for the wallet's own account domains. */
export const reservedDomainMessage =
  "This typed data is for the wallet's own account or the EntryPoint; it can only be signed through eth_sendUserOperation"

/**
 * `solana_signMessage` of bytes a Solana transaction could carry as its message: the signature would be
 * the transaction's, so it is refused (the wallet signs messages as raw ed25519, as Wallet Standard's
 * `solana:signMessage` verifiers and sign-in with Solana expect).
 */
export const transactionAsMessageMessage =
  'These bytes are a Solana transaction, not a message: use solana_signTransaction'

/** A `solana-transaction` request whose bytes are not a transaction message. */
export const notATransactionMessage = 'These bytes are not a Solana transaction message'

/** A request of a kind its method never signs (a message is never a transaction, …). */
export const kindNotAllowedMessage = (kind: string, method: string) => `${method} does not sign ${kind}`

/** A smart-account request for an account that is not the person's own (or another EntryPoint than v0.8). */
export const foreignSmartAccountMessage =
  "This signature is for a smart account or EntryPoint that is not this wallet's"

/**
 * A call to the wallet's own smart account (its `execute`, `grantSession`, …) asked by a site: it could
 * grant a key or run anything as the account while the preview shows one call. Only the wallet's own
 * permission requests make such a call.
 */
export const ownAccountCallMessage =
  "This request calls the wallet's own smart account, which a site cannot ask for"

/** Why the signer refused a request. */
export type SigningRefusal =
  | 'own-account-call'
  | 'kind'
  | 'reserved-domain'
  | 'foreign-account'
  | 'transaction-as-message'
  | 'not-a-transaction'
  | 'bitcoin-psbt'

/**
 * The signer refused a request of a plan: nothing of the plan was signed. `reason` says which rule.
 *
 * @example
 * if (error.name === 'SigningRefusedError') show(error.shortMessage)
 */
export class SigningRefusedError extends BaseError {
  override name = 'SigningRefusedError'
  readonly reason: SigningRefusal
  constructor(reason: SigningRefusal, message: string) {
    super(message, { messageId: null })
    this.reason = reason
  }
}

/** The kinds each approval method may sign: the EOA's and the smart account's. */
export const allowedSignKinds: Readonly<Record<ApprovalMethod, readonly SignRequestKind[]>> = {
  personal_sign: ['evm-message', 'evm-account-message'],
  eth_signTypedData_v4: ['evm-typed-data', 'evm-account-typed-data'],
  eth_sendTransaction: ['evm-transaction', 'evm-user-operation'],
  wallet_sendCalls: ['evm-transaction', 'evm-user-operation'],
  eth_sendUserOperation: ['evm-user-operation'],
  wallet_grantPermissions: ['evm-user-operation'],
  wallet_requestExecutionPermissions: ['evm-user-operation'],
  wallet_revokePermissions: ['evm-user-operation'],
  solana_signMessage: ['solana-message'],
  solana_signTransaction: ['solana-transaction'],
  solana_signAndSendTransaction: ['solana-transaction'],
  signMessage: ['bip122-message'],
  signPsbt: ['bip122-psbt'],
  sendTransfer: ['bip122-psbt'],
}

/** The EntryPoints whose UserOperation hashes are EIP-712 (v0.8 and later) or that accounts trust. */
const entryPoints: readonly Address[] = [entryPoint06Address, entryPoint07Address, entryPoint08Address]

/** Domain names of account and EntryPoint signatures the owner key makes for the wallet itself. */
const reservedNames = new Set(['ERC4337', 'WalletAccount'])

/**
 * Whether an EIP-712 domain is one the owner key must never sign for a page: the EntryPoint's (a
 * UserOperation), the WalletAccount's (an account's ERC-1271 message), and any domain whose verifying
 * contract is one of `ownAccounts` (the person's smart account) or an EntryPoint.
 *
 * @example
 * isReservedDomain({ name: 'WalletAccount' }, []) // true
 */
export function isReservedDomain(
  domain: Record<string, unknown> | undefined,
  ownAccounts: readonly Address[],
): boolean {
  if (!domain) return false
  if (typeof domain.name === 'string' && reservedNames.has(domain.name.trim())) return true
  const contract = domain.verifyingContract
  if (typeof contract !== 'string' || !isAddress(contract, { strict: false })) return false
  return [...entryPoints, ...ownAccounts].some((reserved) => isAddressEqual(reserved, contract))
}

/** WalletAccount's `execute(address,uint256,bytes)` and `executeBatch((address,uint256,bytes)[])`. */
const EXECUTE = '0xb61d27f6'
const EXECUTE_BATCH = '0x34fcd5be'
/** One call's fields: `execute`'s arguments, and each element of `executeBatch`'s array. */
const CALL_FIELDS = [{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }] as const

/**
 * The calls of a WalletAccount `callData` (`execute` or `executeBatch`), or undefined for another
 * function or bytes that do not decode.
 *
 * @example
 * walletAccountCalls(op.callData) // [{ to: bob, value: 1n, data: '0x' }]
 */
export function walletAccountCalls(callData: Hex): { to: Address; value: bigint; data: Hex }[] | undefined {
  try {
    const selector = callData.slice(0, 10).toLowerCase()
    if (selector === EXECUTE) {
      const [to, value, data] = decodeAbiParameters(CALL_FIELDS, slice(callData, 4))
      return [{ to, value, data }]
    }
    if (selector === EXECUTE_BATCH) {
      const [calls] = decodeAbiParameters([{ type: 'tuple[]', components: CALL_FIELDS }], slice(callData, 4))
      return calls.map(([to, value, data]) => ({ to, value, data }))
    }
  } catch {
    // Not a WalletAccount call: its other rules (and the account) decide.
  }
  return undefined
}

/** The targets of a WalletAccount `callData` (none for another function, or bytes that do not decode). */
const callTargets = (callData: Hex): readonly string[] =>
  walletAccountCalls(callData)?.map((call) => call.to) ?? []

/**
 * Whether a request makes the person's smart account call itself: a UserOperation one of whose calls is
 * to its sender, or an EOA transaction with data to one of `ownAccounts` (the owner may call `execute`).
 * A transfer of value alone to the person's own account stays allowed.
 *
 * @example
 * callsOwnAccount({ kind: 'evm-transaction', transaction }, [smartAccount])
 */
export function callsOwnAccount(request: SignRequest, ownAccounts: readonly Address[]): boolean {
  const own = (address: string | undefined) =>
    address !== undefined && ownAccounts.some((mine) => isAddressEqual(mine, address as Address))
  if (request.kind === 'evm-transaction') {
    const { to, data } = request.transaction
    return own(to) && data !== undefined && data !== '0x'
  }
  if (request.kind === 'evm-user-operation') {
    const { sender, callData } = request.userOperation
    return callTargets(callData as Hex).some(
      (target) => isAddressEqual(target as Address, sender as Address) || own(target),
    )
  }
  return false
}

/** WalletAccount's `grantSession(address,(…))` and `revokeSession(address)`: what the permission methods sign. */
const SESSION_SELECTORS: Readonly<Partial<Record<ApprovalMethod, string>>> = {
  wallet_grantPermissions: '0x78449243',
  wallet_requestExecutionPermissions: '0x78449243',
  wallet_revokePermissions: '0x1fa5d6a4',
}

/** A permission method's op that is not exactly its session's grant or revocation. */
export const notASessionCallMessage = (method: string) =>
  `${method} signs only the grant or revocation of the wallet's own session`

/**
 * Whether a permission method's UserOperation is exactly one call of the account to itself, with no
 * value, to `grantSession` (or `revokeSession` for a revocation): the one way a site's request may
 * make the account call itself. Its arguments are checked by the frame against the page's request.
 *
 * @example
 * isOwnSessionCall('wallet_revokePermissions', request) // true for execute(self, 0, revokeSession(key))
 */
export function isOwnSessionCall(method: ApprovalMethod, request: SignRequest): boolean {
  const selector = SESSION_SELECTORS[method]
  if (!selector || request.kind !== 'evm-user-operation') return false
  const { sender, callData } = request.userOperation
  try {
    if (callData.slice(0, 10).toLowerCase() !== EXECUTE) return false
    const [target, value, data] = decodeAbiParameters(CALL_FIELDS, slice(callData as Hex, 4))
    return (
      isAddressEqual(target, sender as Address) &&
      value === 0n &&
      data.slice(0, 10).toLowerCase() === selector
    )
  } catch {
    return false
  }
}

/** Base64 to bytes, in the browser and in Node alike. */
export function base64Bytes(encoded: string): Uint8Array {
  const text = atob(encoded)
  return Uint8Array.from(text, (character) => character.charCodeAt(0))
}

/**
 * Refuses a request its method may not sign, or whose content breaks a rule, before any key is used.
 *
 * @example
 * checkSignRequest('personal_sign', { kind: 'evm-message', message: '0x68656c6c6f' }, { ownAccounts: [] })
 */
export function checkSignRequest(
  method: ApprovalMethod,
  request: SignRequest,
  { ownAccounts }: { ownAccounts: readonly Address[] },
): void {
  if (!allowedSignKinds[method].includes(request.kind))
    throw new SigningRefusedError('kind', kindNotAllowedMessage(request.kind, method))
  if (
    (request.kind === 'evm-typed-data' || request.kind === 'evm-account-typed-data') &&
    isReservedDomain(request.typedData.domain, ownAccounts)
  )
    throw new SigningRefusedError('reserved-domain', reservedDomainMessage)
  const account =
    request.kind === 'evm-user-operation'
      ? request.userOperation.sender
      : request.kind === 'evm-account-message' || request.kind === 'evm-account-typed-data'
        ? request.account
        : undefined
  const own = (address: string) => ownAccounts.some((mine) => isAddressEqual(mine, address as Address))
  if (
    (account !== undefined && !own(account)) ||
    (request.kind === 'evm-user-operation' &&
      !isAddressEqual(request.entryPoint as Address, entryPoint08Address))
  )
    throw new SigningRefusedError('foreign-account', foreignSmartAccountMessage)
  if (SESSION_SELECTORS[method] !== undefined) {
    if (!isOwnSessionCall(method, request))
      throw new SigningRefusedError('own-account-call', notASessionCallMessage(method))
  } else if (callsOwnAccount(request, ownAccounts))
    throw new SigningRefusedError('own-account-call', ownAccountCallMessage)
  if (request.kind === 'solana-message' && isSolanaTransactionShaped(base64Bytes(request.message)))
    throw new SigningRefusedError('transaction-as-message', transactionAsMessageMessage)
  if (request.kind === 'solana-transaction') {
    try {
      readSolanaTransactionMessage(base64Bytes(request.message))
    } catch {
      throw new SigningRefusedError('not-a-transaction', notATransactionMessage)
    }
  }
}
