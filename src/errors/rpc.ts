import { BaseError, type ErrorParameters } from './base.ts'
import { InvalidChainIdError, UnrecognizedChainError } from './chain.ts'

type NodeErrorParameters = ErrorParameters & { code?: number | undefined }

/**
 * The transaction or call reverted.
 *
 * @example
 * throw new ExecutionRevertedError({ reason: 'ERC20: transfer amount exceeds balance' })
 */
export class ExecutionRevertedError extends BaseError {
  override name = 'ExecutionRevertedError' as const
  static nodeMessage =
    /execution reverted|reverted with|transaction reverted|vm exception while processing transaction|gas required exceeds allowance/i
  /** The revert reason, when the node gave one. */
  readonly reason: string | undefined
  constructor({ reason, ...rest }: NodeErrorParameters & { reason?: string | undefined } = {}) {
    super('Execution reverted', {
      ...(reason ? { metaMessages: [`Reason: ${reason}`] } : {}),
      ...rest,
    })
    this.reason = reason
  }
}

/**
 * `maxFeePerGas` is above 2^256-1.
 *
 * @example
 * throw new FeeCapTooHighError()
 */
export class FeeCapTooHighError extends BaseError {
  override name = 'FeeCapTooHighError' as const
  static nodeMessage = /max fee per gas higher than 2\^256-1|fee cap higher than 2\^256-1/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Max fee per gas is too high', parameters)
  }
}

/**
 * `maxFeePerGas` is below the block's base fee.
 *
 * @example
 * throw new FeeCapTooLowError()
 */
export class FeeCapTooLowError extends BaseError {
  override name = 'FeeCapTooLowError' as const
  static nodeMessage =
    /max fee per gas less than block base fee|fee cap less than block base fee|transaction is outdated|maxFeePerGas \S+ is too low/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Max fee per gas is below the block base fee', parameters)
  }
}

/**
 * The nonce is ahead of the account's next nonce.
 *
 * @example
 * throw new NonceTooHighError()
 */
export class NonceTooHighError extends BaseError {
  override name = 'NonceTooHighError' as const
  static nodeMessage = /nonce too high/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Nonce is too high', parameters)
  }
}

/**
 * The nonce was already used.
 *
 * @example
 * throw new NonceTooLowError()
 */
export class NonceTooLowError extends BaseError {
  override name = 'NonceTooLowError' as const
  static nodeMessage = /nonce too low|transaction already imported|already known/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Nonce is too low', parameters)
  }
}

/**
 * The account's nonce cannot grow any further.
 *
 * @example
 * throw new NonceMaxValueError()
 */
export class NonceMaxValueError extends BaseError {
  override name = 'NonceMaxValueError' as const
  static nodeMessage = /nonce has max value/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Nonce has reached its maximum value', parameters)
  }
}

/**
 * The account cannot pay for gas plus value.
 *
 * @example
 * throw new InsufficientFundsError()
 */
export class InsufficientFundsError extends BaseError {
  override name = 'InsufficientFundsError' as const
  static nodeMessage =
    /insufficient funds|exceeds transaction sender account balance|doesn't have enough funds/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Insufficient funds for gas and value', parameters)
  }
}

/**
 * The gas limit is above the block gas limit.
 *
 * @example
 * throw new IntrinsicGasTooHighError()
 */
export class IntrinsicGasTooHighError extends BaseError {
  override name = 'IntrinsicGasTooHighError' as const
  static nodeMessage = /intrinsic gas too high|gas limit reached|exceeds block gas limit/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Gas limit is too high', parameters)
  }
}

/**
 * The gas limit is below what the transaction needs before running any code.
 *
 * @example
 * throw new IntrinsicGasTooLowError()
 */
export class IntrinsicGasTooLowError extends BaseError {
  override name = 'IntrinsicGasTooLowError' as const
  static nodeMessage = /intrinsic gas too low|requires at least \d+ gas/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Gas limit is too low', parameters)
  }
}

/**
 * The network does not accept this transaction type.
 *
 * @example
 * throw new TransactionTypeNotSupportedError()
 */
export class TransactionTypeNotSupportedError extends BaseError {
  override name = 'TransactionTypeNotSupportedError' as const
  static nodeMessage = /transaction type not (valid|supported)/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Transaction type is not supported', parameters)
  }
}

/**
 * `maxPriorityFeePerGas` is above `maxFeePerGas`.
 *
 * @example
 * throw new TipAboveFeeCapError()
 */
export class TipAboveFeeCapError extends BaseError {
  override name = 'TipAboveFeeCapError' as const
  static nodeMessage =
    /max priority fee per gas higher than max fee per gas|tip higher than fee cap|maxPriorityFeePerGas \S+ is bigger than maxFeePerGas/i
  constructor(parameters: NodeErrorParameters = {}) {
    super('Max priority fee is above max fee per gas', parameters)
  }
}

/**
 * The person rejected the request in their wallet (EIP-1193 code 4001).
 *
 * @example
 * throw new UserRejectedRequestError({ cause })
 */
export class UserRejectedRequestError extends BaseError {
  override name = 'UserRejectedRequestError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('User rejected the request.', { ...parameters, code: 4001 })
  }
}

/**
 * The wallet or RPC did not answer within the timeout.
 *
 * @example
 * throw new RequestTimeoutError({ method: 'eth_chainId', timeoutMs: 10_000 })
 */
export class RequestTimeoutError extends BaseError {
  override name = 'RequestTimeoutError' as const
  readonly method: string | undefined
  readonly timeoutMs: number | undefined
  constructor({
    method,
    timeoutMs,
    ...rest
  }: ErrorParameters & { method?: string | undefined; timeoutMs?: number | undefined } = {}) {
    const within = timeoutMs === undefined ? '' : ` within ${timeoutMs / 1000} seconds`
    super('Request timed out', { details: `No answer to ${method ?? 'the request'}${within}`, ...rest })
    this.method = method
    this.timeoutMs = timeoutMs
  }
}

/**
 * The wallet or RPC answered with something malformed.
 *
 * @example
 * throw new InvalidResponseError({ method: 'eth_accounts', details: 'Expected an array of addresses' })
 */
export class InvalidResponseError extends BaseError {
  override name = 'InvalidResponseError' as const
  readonly method: string | undefined
  /** What came back, for debugging; never shown. */
  readonly received: unknown
  constructor({
    method,
    received,
    ...rest
  }: ErrorParameters & { method?: string | undefined; received?: unknown } = {}) {
    super('Invalid response', { ...(method ? { metaMessages: [`Method: ${method}`] } : {}), ...rest })
    this.method = method
    this.received = received
  }
}

/**
 * The provider lost its connection to every chain (EIP-1193 code 4900).
 *
 * @example
 * if (status === 'disconnected') throw new ProviderDisconnectedError()
 */
export class ProviderDisconnectedError extends BaseError {
  override name = 'ProviderDisconnectedError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('The provider is disconnected', { ...parameters, code: 4900 })
  }
}

/**
 * Any other error a wallet or node answered with; keeps its code and message.
 *
 * @example
 * throw new RpcRequestError({ code: -32000, message: 'header not found' })
 */
export class RpcRequestError extends BaseError {
  override name = 'RpcRequestError' as const
  constructor({ message, ...rest }: NodeErrorParameters & { message?: string | undefined } = {}) {
    super(message || 'An error occurred', { ...rest, messageId: message ? null : 'UnknownError' })
  }
}

/** The errors a wallet or node answer can become. */
export type RpcErrorType =
  | UserRejectedRequestError
  | ProviderDisconnectedError
  | UnrecognizedChainError
  | InvalidChainIdError
  | ExecutionRevertedError
  | FeeCapTooHighError
  | FeeCapTooLowError
  | NonceTooHighError
  | NonceTooLowError
  | NonceMaxValueError
  | InsufficientFundsError
  | IntrinsicGasTooHighError
  | IntrinsicGasTooLowError
  | TransactionTypeNotSupportedError
  | TipAboveFeeCapError
  | RpcRequestError

// Specific before general: "execution reverted" can appear inside other node messages.
const nodeErrors = [
  FeeCapTooHighError,
  FeeCapTooLowError,
  NonceTooHighError,
  NonceTooLowError,
  NonceMaxValueError,
  InsufficientFundsError,
  IntrinsicGasTooHighError,
  IntrinsicGasTooLowError,
  TransactionTypeNotSupportedError,
  TipAboveFeeCapError,
  ExecutionRevertedError,
] as const

/** Parameters of {@link parseRpcError}. */
export type ParseRpcErrorParameters = {
  /** The method that failed; `wallet_switchEthereumChain` turns -32603 into an invalid chain id. */
  method?: string | undefined
}

/**
 * Maps what a wallet or node threw (an EIP-1193 `{ code, message, data }` error, possibly wrapped
 * in `data.originalError` or `cause`) to the catalogue, by code first and then by message text.
 * Answers it cannot place become an {@link RpcRequestError} with the same code and message.
 *
 * @example
 * parseRpcError({ code: 4001, message: 'User denied' }).name // 'UserRejectedRequestError'
 * parseRpcError({ code: -32000, message: 'nonce too low' }).name // 'NonceTooLowError'
 */
export function parseRpcError(error: unknown, parameters: ParseRpcErrorParameters = {}): RpcErrorType {
  const { codes, messages } = collect(error)
  const code = codes[0]
  return (
    matchRpcError(error, codes, messages, parameters) ??
    new RpcRequestError({ cause: error, code, message: messages[0] })
  )
}

/** @internal Like {@link parseRpcError} but `undefined` when nothing in the catalogue fits. */
export function matchRpcError(
  error: unknown,
  codes: number[],
  messages: string[],
  { method }: ParseRpcErrorParameters = {},
): Exclude<RpcErrorType, RpcRequestError> | undefined {
  const code = codes[0]
  const text = messages.join('\n')
  if (codes.includes(4001) || /user (rejected|denied|cancell?ed)/i.test(text))
    return new UserRejectedRequestError({ cause: error })
  if (code === 4900) return new ProviderDisconnectedError({ cause: error })
  if (codes.includes(4902) || /unrecognized chain/i.test(text))
    return new UnrecognizedChainError({ cause: error })
  if (code === 32603 || (code === -32603 && method === 'wallet_switchEthereumChain'))
    return new InvalidChainIdError({ cause: error })
  const NodeError = nodeErrors.find((e) => e.nodeMessage.test(text))
  if (NodeError === ExecutionRevertedError || (!NodeError && codes.includes(3)))
    return new ExecutionRevertedError({ cause: error, code, reason: revertReason(text) })
  if (NodeError) return new NodeError({ cause: error, code })
  return undefined
}

/** @internal Codes and messages of an error and the errors it wraps, outermost first. */
export function collect(error: unknown, depth = 0): { codes: number[]; messages: string[] } {
  const codes: number[] = []
  const messages: string[] = []
  // Nested strings are usually revert data, not words.
  if (typeof error === 'string' && depth === 0) messages.push(error)
  if (!error || typeof error !== 'object' || depth > 4) return { codes, messages }
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'number') codes.push(code)
  if (typeof message === 'string' && message) messages.push(message)
  for (const key of ['data', 'originalError', 'error', 'cause'] as const) {
    const inner = collect((error as Record<string, unknown>)[key], depth + 1)
    codes.push(...inner.codes)
    messages.push(...inner.messages)
  }
  return { codes, messages }
}

function revertReason(text: string): string | undefined {
  const match =
    /reverted with reason string '([^']*)'/i.exec(text) ?? /execution reverted:\s*([^\n]+)/i.exec(text)
  return match?.[1]?.trim() || undefined
}
