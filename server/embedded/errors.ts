import type { EmbeddedErrorCode } from '../../src/protocol/embedded/index.ts'
import { embeddedMessages } from '../../src/protocol/embedded/index.ts'
import { emailCooldownMessage } from '../../src/protocol/rules.ts'
import { ServiceError } from '../errors.ts'

/** What an embedded-wallet error adds to the API's error body. */
export interface EmbeddedErrorExtra {
  secondsLeft?: number
  attemptsLeft?: number
  rpcCode?: number
  rpcData?: unknown
}

/**
 * An error of the embedded-wallet API: a {@link ServiceError} (same body, same handling) with the
 * extra fields of `embeddedErrorBody`.
 *
 * @example
 * throw new EmbeddedError(429, 'EMAIL_COOLDOWN', 'Please try again after 12 seconds', { secondsLeft: 12 })
 */
export class EmbeddedError extends ServiceError {
  readonly extra: EmbeddedErrorExtra
  constructor(
    statusCode: number,
    code: EmbeddedErrorCode | 'BAD_REQUEST' | 'UNAUTHORIZED' | 'TOO_MANY_REQUESTS' | 'UPSTREAM_ERROR',
    message: string,
    extra: EmbeddedErrorExtra & { field?: string; cause?: unknown } = {},
  ) {
    const { field, cause, ...rest } = extra
    super(statusCode, code, message, {
      ...(field === undefined ? {} : { field }),
      ...(cause === undefined ? {} : { cause }),
    })
    this.extra = rest
  }
}

/** Whether an error carries embedded-wallet extras (by shape, so copies from another bundle count). */
export function isEmbeddedError(error: unknown): error is EmbeddedError {
  return error instanceof Error && typeof (error as Partial<EmbeddedError>).extra === 'object'
}

/** `429 Please try again after N seconds` (SPEC 5, 8): a sign-in e-mail within the cooldown. */
export function emailCooldown(secondsLeft: number): EmbeddedError {
  const seconds = Math.max(1, Math.ceil(secondsLeft))
  return new EmbeddedError(429, 'EMAIL_COOLDOWN', emailCooldownMessage(seconds), { secondsLeft: seconds })
}

/** `401`: no session, or one that ended. */
export function notSignedIn(): EmbeddedError {
  return new EmbeddedError(401, 'UNAUTHORIZED', 'Sign in to the wallet first')
}

/** `403 Requested RPC call is not allowed` (SPEC 6, 8), EIP-1193 4200. */
export function requestRefused(method: string): EmbeddedError {
  return new EmbeddedError(403, 'REQUEST_REFUSED', embeddedMessages.rpcNotAllowed, {
    rpcCode: 4200,
    rpcData: { method },
  })
}

/** `501 Not available`: farcaster and smart accounts are not there yet. */
export function notAvailable(): EmbeddedError {
  return new EmbeddedError(501, 'NOT_AVAILABLE', embeddedMessages.notAvailable, { rpcCode: 4200 })
}

/** `403 Action not allowed`: a step out of order, or an origin the project does not allow. */
export function actionNotAllowed(): EmbeddedError {
  return new EmbeddedError(403, 'FORBIDDEN', embeddedMessages.actionNotAllowed)
}

/** A social sign-in that did not go through (the provider's answer, or saving its identity). */
export function socialFailed(message: string): EmbeddedError {
  return new EmbeddedError(400, 'SOCIAL_FAILED', message)
}
