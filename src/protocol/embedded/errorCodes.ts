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
  /** The person cancelled at the social provider (`access_denied`). */
  'SOCIAL_DENIED',
  /** The provider's answer did not verify (state, code, PKCE, id_token) or the provider failed. */
  'SOCIAL_FAILED',
  /** No credentials for this provider on the service, or the project does not offer it. */
  'SOCIAL_UNAVAILABLE',
  /** The provider's callback has not come yet. */
  'SOCIAL_PENDING',
  /** The visitor has not approved in their Farcaster app yet. */
  'FARCASTER_PENDING',
  /** The Farcaster sign-in channel expired: a fresh code is needed. */
  'FARCASTER_EXPIRED',
  /** The visitor declined the request in their Farcaster app. */
  'FARCASTER_DECLINED',
  /** The approval was signed for another sign-in request (nonce). */
  'FARCASTER_WRONG_NONCE',
  /** The approval was signed for another site (domain). */
  'FARCASTER_WRONG_DOMAIN',
  /** The approval was not signed by the fid's custody or auth address. */
  'FARCASTER_WRONG_SIGNER',
  /** The approval did not verify otherwise, or the relay or registry failed. */
  'FARCASTER_FAILED',
  /** The passkey's answer did not verify (challenge, origin, RP ID, user verification, signature, counter). */
  'PASSKEY_FAILED',
  /** The passkey ceremony is over (used, or past its 5 minutes): start again. */
  'PASSKEY_EXPIRED',
  /** The passkey belongs to no user of this project. */
  'PASSKEY_UNKNOWN',
  /** The passkey is already a way into another user (or already this one's). */
  'PASSKEY_TAKEN',
  /** Removing this passkey would leave the person no way in. */
  'PASSKEY_LAST_WAY',
  /** Deleting a wallet whose keys were never exported: they would be lost. */
  'EXPORT_FIRST',
] as const
export type EmbeddedErrorCode = (typeof embeddedErrorCodes)[number]
