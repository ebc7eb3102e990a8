import type { AuthErrorCode } from '../../src/protocol/api/index.ts'
import { authErrorMessages, notYetValidHint } from '../../src/protocol/api/index.ts'
import { ServiceError } from '../errors.ts'

/**
 * An error of the sign-in endpoints: a {@link ServiceError} (same body, same handling) whose code is one
 * of `authErrorCodes`, with an optional `hint` that the auth routes add to the body.
 *
 * @example
 * throw new AuthError(401, 'INVALID_SIGNATURE', 'The signature does not match the message', { field: 'signature' })
 */
export class AuthError extends ServiceError {
  readonly hint: string | undefined

  constructor(
    statusCode: number,
    code: AuthErrorCode,
    message: string,
    options: { field?: string; hint?: string; cause?: unknown } = {},
  ) {
    // The sign-in codes extend the API's list (src/protocol/api/auth.ts); the body's `code` is a string.
    super(statusCode, code, message, {
      ...(options.field === undefined ? {} : { field: options.field }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    })
    this.hint = options.hint
  }
}

/**
 * Whether an error is an {@link AuthError} with a hint (by shape, like `isServiceError`).
 *
 * @example
 * if (hasHint(error)) body.error.hint = error.hint
 */
export function hasHint(error: unknown): error is AuthError & { hint: string } {
  return error instanceof Error && typeof (error as Partial<AuthError>).hint === 'string'
}

/** `401 Session Expired`; with `notYet`, the hint `JWT not yet valid: check time settings`. */
export function sessionExpired(
  options: { notYet?: boolean; field?: string; cause?: unknown } = {},
): AuthError {
  return new AuthError(401, 'SESSION_EXPIRED', authErrorMessages.SESSION_EXPIRED, {
    ...(options.notYet ? { hint: notYetValidHint } : {}),
    ...(options.field === undefined ? {} : { field: options.field }),
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  })
}

/** `401 This application might not support Smart Accounts`. */
export function smartAccountNotSupported(cause?: unknown): AuthError {
  return new AuthError(401, 'SMART_ACCOUNT_NOT_SUPPORTED', authErrorMessages.SMART_ACCOUNT_NOT_SUPPORTED, {
    field: 'signature',
    ...(cause === undefined ? {} : { cause }),
  })
}

/** `500 A problem occurred while trying initialize authentication` (the nonce could not be made). */
export function authenticationInitFailed(cause: unknown): AuthError {
  return new AuthError(500, 'AUTHENTICATION_INIT_FAILED', authErrorMessages.AUTHENTICATION_INIT_FAILED, {
    cause,
  })
}

/** `401` for a missing, malformed, foreign or signed-out session token. */
export function unauthorized(message: string): AuthError {
  return new AuthError(401, 'UNAUTHORIZED', message)
}
