/** Options every error of the catalogue accepts. */
export type BaseErrorParameters = {
  /** What was thrown underneath, kept as is. */
  cause?: unknown
  /** A longer, technical explanation. Taken from `cause` when omitted. */
  details?: string | undefined
  /** Path of the page in docs/ that explains the error. */
  docsPath?: string | undefined
  /** Extra lines shown under the short message. */
  metaMessages?: string[] | undefined
  /** Numeric code; 5000 when omitted. */
  code?: number | undefined
}

/**
 * The one error type of wallet-elements. Subclasses carry the exact messages of the spec's
 * error catalogue; tell them apart by `name`, which survives two copies of the library on one page
 * where `instanceof` does not.
 *
 * @example
 * throw new BaseError('Something broke', { details: 'socket closed', cause: err })
 */
export class BaseError extends Error {
  override name = 'BaseError'
  /** The message shown to people, without meta lines. */
  shortMessage: string
  details: string | undefined
  docsPath: string | undefined
  metaMessages: string[] | undefined
  code: number

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const { cause, docsPath, metaMessages, code = 5000 } = parameters
    const details = parameters.details ?? detailsOf(cause)
    const message = [
      shortMessage,
      ...(metaMessages?.length ? ['', ...metaMessages] : []),
      ...(details && details !== shortMessage ? ['', `Details: ${details}`] : []),
    ].join('\n')
    super(message, cause === undefined ? undefined : { cause })
    this.shortMessage = shortMessage
    this.details = details
    this.docsPath = docsPath
    this.metaMessages = metaMessages
    this.code = code
  }

  /**
   * Follows the `cause` chain. Without `fn`, returns the innermost cause; with `fn`, the first
   * error (this one included) for which `fn` is true, or `null`.
   *
   * @example
   * const rejected = error.walk((e) => (e as Error).name === 'UserRejectedRequestError')
   */
  walk(): unknown
  walk(fn: (error: unknown) => boolean): unknown
  walk(fn?: (error: unknown) => boolean): unknown {
    return walk(this, fn)
  }
}

function walk(error: unknown, fn?: (error: unknown) => boolean): unknown {
  if (fn?.(error)) return error
  if (error && typeof error === 'object' && 'cause' in error && error.cause !== undefined)
    return walk(error.cause, fn)
  return fn ? null : error
}

/**
 * True for any error of this library, even one thrown by another copy of it on the same page.
 *
 * @example
 * if (isBaseError(error)) console.log(error.shortMessage)
 */
export function isBaseError(error: unknown): error is BaseError {
  return (
    typeof error === 'object' &&
    error !== null &&
    'shortMessage' in error &&
    typeof error.shortMessage === 'string' &&
    'walk' in error
  )
}

function detailsOf(cause: unknown): string | undefined {
  if (isBaseError(cause)) return cause.details ?? cause.shortMessage
  if (cause && typeof cause === 'object' && 'message' in cause && typeof cause.message === 'string')
    return cause.message || undefined
  if (typeof cause === 'string') return cause || undefined
  return undefined
}

/** Parameters of a catalogue error: everything but the code, which the error fixes. */
export type ErrorParameters = Omit<BaseErrorParameters, 'code'>
