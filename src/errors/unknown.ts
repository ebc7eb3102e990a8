import { RequestAbortedError } from './abort.ts'
import { BaseError, type ErrorParameters, isBaseError } from './base.ts'
import { collect, matchRpcError, parseRpcError, RequestTimeoutError } from './rpc.ts'

/**
 * Something was thrown that the catalogue has no entry for; keeps its message.
 *
 * @example
 * throw new UnknownError({ message: String(thrown), cause: thrown })
 */
export class UnknownError extends BaseError {
  override name = 'UnknownError' as const
  constructor({ message, ...rest }: ErrorParameters & { message?: string | undefined } = {}) {
    // Words from elsewhere are shown as they are; the default has its catalogue entry.
    super(message || 'An error occurred', { ...rest, messageId: message ? null : 'UnknownError' })
  }
}

/**
 * Turns anything thrown into an error of the catalogue, keeping the original as `cause`:
 * errors of this library pass through, aborts and timeouts get their own errors, EIP-1193
 * `{ code, message }` objects go through {@link parseRpcError}, and the rest become
 * {@link UnknownError} with their message.
 *
 * @example
 * try {
 *   await provider.request({ method: 'eth_requestAccounts' })
 * } catch (error) {
 *   throw toBaseError(error) // UserRejectedRequestError for { code: 4001 }
 * }
 */
export function toBaseError(error: unknown, parameters: { method?: string | undefined } = {}): BaseError {
  if (isBaseError(error)) return error
  const name = isObject(error) ? (error as { name?: unknown }).name : undefined
  if (name === 'AbortError') return new RequestAbortedError({ cause: error })
  if (name === 'TimeoutError') return new RequestTimeoutError({ cause: error, method: parameters.method })
  const { codes, messages } = collect(error)
  if (codes.length > 0) return parseRpcError(error, parameters)
  return (
    matchRpcError(error, codes, messages, parameters) ??
    new UnknownError({ message: messages[0], cause: error })
  )
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null
