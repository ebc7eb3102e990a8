// No imports: the API's list of error codes takes these without the embedded wallet's schemas.

/**
 * Error codes of the embedded-wallet API (in the API's usual `{ error: { code, message } }` body).
 * `EMAIL_COOLDOWN` carries `Please try again after N seconds`; `REQUEST_REFUSED` carries
 * `Requested RPC call is not allowed` (SPEC 8).
 */
export const embeddedErrorCodes = [
  'EMAIL_COOLDOWN',
  'INVALID_CODE',
  'CODE_EXPIRED',
  'EMAIL_IN_USE',
  'MAIL_FAILED',
  'REQUEST_REFUSED',
  'NOT_AVAILABLE',
  'FORBIDDEN',
] as const
export type EmbeddedErrorCode = (typeof embeddedErrorCodes)[number]
