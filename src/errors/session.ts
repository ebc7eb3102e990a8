import { BaseError, type ErrorParameters } from './base.ts'

/**
 * The sign-in session is no longer valid. A token that is "not yet valid" usually means the
 * device clock is wrong, hence the default hint.
 *
 * @example
 * throw new SessionExpiredError()
 */
export class SessionExpiredError extends BaseError {
  override name = 'SessionExpiredError' as const
  constructor({ details = 'JWT not yet valid: check time settings', ...rest }: ErrorParameters = {}) {
    super('Session Expired', { details, ...rest })
  }
}
