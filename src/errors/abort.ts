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
  /** The frame's (or the service's) code for what failed, such as `DEVICE_PENDING` or `MAIL_FAILED`. */
  readonly reason: string | number | undefined
  constructor({
    message,
    reason,
    ...rest
  }: ErrorParameters & { message?: string | undefined; reason?: string | number | undefined } = {}) {
    // The frame's own words (from the service) show as they are, unless a catalogue id names them.
    super(message || 'An error occurred', {
      ...rest,
      messageId: rest.messageId ?? (message ? null : 'UnknownError'),
    })
    this.reason = reason
  }
}
