import * as z from 'zod/mini'

// Sessions bound to the browser that earned them, so a stolen token alone signs nothing. The frame keeps an
// ECDSA P-256 key pair made with WebCrypto as non-extractable, in IndexedDB on the frame's origin; the
// public key travels with the request that opens a session, and every request of that session is signed. A
// bearer token copied out of the browser is useless without the key, and a signed request is good once.

/** The frame's public key (SPKI, URL-safe base64), sent with every request; kept when a session opens. */
export const SESSION_KEY_HEADER = 'x-wallet-key'
/** When the request was signed: milliseconds since 1970 (the service's clock, as the frame estimates it). */
export const SESSION_TIME_HEADER = 'x-wallet-time'
/** 128 random bits: the service accepts each nonce of a session once. */
export const SESSION_NONCE_HEADER = 'x-wallet-nonce'
/** The ECDSA P-256 / SHA-256 signature (r ‖ s, 64 bytes) of {@link sessionProofPayload}, URL-safe base64. */
export const SESSION_SIGNATURE_HEADER = 'x-wallet-signature'

/** How far a signed request's time may be from the service's clock (either way). */
export const SESSION_PROOF_WINDOW_MS = 5 * 60_000

/** An SPKI P-256 public key is 91 bytes: 122 characters of URL-safe base64. */
export const sessionPublicKey = z.string().check(z.regex(/^[A-Za-z0-9_-]{120,124}$/, 'Invalid key'))

/** The proof headers as the service reads them. */
export const sessionProofHeaders = z.object({
  time: z.string().check(z.regex(/^\d{13}$/, 'Invalid time')),
  nonce: z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/, 'Invalid nonce')),
  signature: z.string().check(z.regex(/^[A-Za-z0-9_-]{86}$/, 'Invalid signature')),
})

/**
 * What the frame signs for one request: the method, the path with its query (as sent), the SHA-256 of
 * the body's text (hex; of the empty text when there is none), the time and the nonce, one per line.
 *
 * @example
 * sessionProofPayload({ method: 'POST', url: '/embedded/v1/rpc?projectId=p', bodySha256: 'e3b0…', time: '1767225600000', nonce })
 */
export function sessionProofPayload(parts: {
  method: string
  url: string
  bodySha256: string
  time: string
  nonce: string
}): string {
  return [
    'wallet-elements/session/v1',
    parts.method.toUpperCase(),
    parts.url,
    parts.bodySha256,
    parts.time,
    parts.nonce,
  ].join('\n')
}
