import { BaseError, type ErrorParameters } from './base.ts'

/**
 * The request was aborted on purpose (an `AbortSignal` fired).
 *
 * @example
 * signal.addEventListener('abort', () => reject(new RequestAbortedError()))
 */
export class RequestAbortedError extends BaseError {
  override name = 'RequestAbortedError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Request was aborted', parameters)
  }
}

/**
 * A request stopped for any other reason than an abort.
 *
 * @example
 * throw new SomethingWentWrongError({ cause })
 */
export class SomethingWentWrongError extends BaseError {
  override name = 'SomethingWentWrongError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Something went wrong', parameters)
  }
}

/**
 * The embedded-wallet frame answered with an error; its own message when it gave one,
 * `An error occurred` otherwise.
 *
 * @example
 * throw new FrameError({ message: payload.message })
 */
export class FrameError extends BaseError {
  override name = 'FrameError' as const
  constructor({ message, ...rest }: ErrorParameters & { message?: string | undefined } = {}) {
    super(message || 'An error occurred', { ...rest, messageId: message ? null : 'UnknownError' })
  }
}
