import { PAIRING_EXPIRY_MARGIN_MS, PAIRING_LIFETIME_MS, PAIRING_RETRY_MS } from '../../protocol/constants.ts'

/**
 * A pairing lasts 4 minutes and counts as expired when 10 s or less remain (SPEC section 4), so a
 * URI is never shown that the wallet could not finish with.
 *
 * @example
 * isPairingExpired(createdAt, createdAt + 231_000) // true
 */
export const isPairingExpired = (createdAt: number, now: number) =>
  createdAt + PAIRING_LIFETIME_MS - now <= PAIRING_EXPIRY_MARGIN_MS

/** When a fresh URI must replace the current one. */
export const pairingRefreshAt = (createdAt: number) =>
  createdAt + PAIRING_LIFETIME_MS - PAIRING_EXPIRY_MARGIN_MS

/** A retry is allowed 1 s after the previous attempt. */
export const canRetryPairing = (lastAttemptAt: number, now: number) => now - lastAttemptAt >= PAIRING_RETRY_MS
