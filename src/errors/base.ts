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
  /**
   * Id of the message in the views' locale catalogues (`error.<id>`); the class name when omitted,
   * `null` when the words came from elsewhere (a wallet's own message), which are shown as they are.
   */
  messageId?: string | null | undefined
  /** Values the catalogue message needs (`{seconds}`), formatted in the page's language. */
  messageValues?: Readonly<Record<string, string | number>> | undefined
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
  messageValues: Readonly<Record<string, string | number>> | undefined
  #messageId: string | null | undefined

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const { cause, docsPath, metaMessages, code = 5000, messageId, messageValues } = parameters
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
    this.#messageId = messageId
    this.messageValues = messageValues
  }

  /**
   * Id of `shortMessage` in the views' locale catalogues (`error.<id>`): the class name unless the
   * error gave one, undefined when the words came from elsewhere and are shown as they are.
   */
  get messageId(): string | undefined {
    return this.#messageId === null ? undefined : (this.#messageId ?? this.name)
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

/**
 * What the stores keep of an error for the views: the code and English message (as sent in
 * `wallet-error`), the catalogue id and values that show it in the page's language, and the form
 * fields it is about.
 */
export interface ErrorSummary {
  code: number
  message: string
  messageId: string | undefined
  messageValues: Readonly<Record<string, string | number>> | undefined
  /** Input fields the message is about (`amount`, `receiver`, `token`), first one first. */
  fields: readonly string[]
}

/**
 * The summary of an error that a store keeps for the views.
 *
 * @example
 * config.$send.setKey('error', summarizeError(toBaseError(thrown)))
 */
export function summarizeError(error: BaseError): ErrorSummary {
  const fields = (error as { fields?: unknown }).fields
  return {
    code: error.code,
    message: error.shortMessage,
    messageId: error.messageId,
    messageValues: error.messageValues,
    fields: Array.isArray(fields) ? fields : [],
  }
}

/** Parameters of a catalogue error: everything but the code, which the error fixes. */
export type ErrorParameters = Omit<BaseErrorParameters, 'code'>
