import { BaseError, type ErrorParameters } from './base.ts'

/** Why the embedded-wallet frame gave up; reported to the page's callback before aborting. */
export type EmbeddedFailureReason = 'iframe_load_failed' | 'iframe_request_timeout'

/**
 * The embedded-wallet frame did not load in time.
 *
 * @example
 * throw new EmbeddedWalletLoadError({ details: `No ready event from ${frameUrl}` })
 */
export class EmbeddedWalletLoadError extends BaseError {
  override name = 'EmbeddedWalletLoadError' as const
  readonly reason: EmbeddedFailureReason = 'iframe_load_failed'
  constructor(parameters: ErrorParameters = {}) {
    super('Network Error - could not load embedded wallet', parameters)
  }
}

/**
 * The frame page is not the build the site pinned (`frame-integrity`), or could not be checked: the
 * frame is not loaded. `details` says which (the hash found, or why there was none).
 *
 * @example
 * throw new FrameIntegrityError({ details: `${frameUrl} is sha384-… (pinned: sha384-…)` })
 */
export class FrameIntegrityError extends BaseError {
  override name = 'FrameIntegrityError' as const
  readonly reason: EmbeddedFailureReason = 'iframe_load_failed'
  constructor(parameters: ErrorParameters = {}) {
    super('The wallet did not load: its code is not the version this site approved', parameters)
  }
}

/**
 * The embedded-wallet frame did not answer a request in time.
 *
 * @example
 * throw new EmbeddedRequestTimeoutError({ type: 'CONNECT_EMAIL' })
 */
export class EmbeddedRequestTimeoutError extends BaseError {
  override name = 'EmbeddedRequestTimeoutError' as const
  readonly reason: EmbeddedFailureReason = 'iframe_request_timeout'
  constructor({ type, ...rest }: ErrorParameters & { type?: string } = {}) {
    super('Embedded Wallet Request Timed Out', {
      ...(type ? { details: `No answer to ${type}` } : {}),
      ...rest,
    })
  }
}

/**
 * The chunk with the e-mail login code could not be loaded.
 *
 * @example
 * const mod = await import('./email.js').catch((cause) => { throw new EmailLoginDependencyError({ cause }) })
 */
export class EmailLoginDependencyError extends BaseError {
  override name = 'EmailLoginDependencyError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Unable to load email login dependency', parameters)
  }
}

/**
 * The embedded wallet refused an RPC method outside its allowed classes.
 *
 * @example
 * throw new RpcMethodNotAllowedError({ method: 'debug_traceTransaction' })
 */
export class RpcMethodNotAllowedError extends BaseError {
  override name = 'RpcMethodNotAllowedError' as const
  constructor({ method, ...rest }: ErrorParameters & { method?: string } = {}) {
    super('Requested RPC call is not allowed', {
      ...(method ? { details: `Method: ${method}` } : {}),
      ...rest,
    })
  }
}

/**
 * The embedded wallet refused an action the page is not allowed to ask for.
 *
 * @example
 * throw new ActionNotAllowedError()
 */
export class ActionNotAllowedError extends BaseError {
  override name = 'ActionNotAllowedError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Action not allowed', parameters)
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
