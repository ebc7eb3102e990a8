// The embedded wallet's timings of SPEC 9. They live here rather than in `constants.ts` because only
// the lazily loaded e-mail path, the frame and the service read them (`constants.ts` is in the first paint).

/** A second sign-in e-mail to one address waits this long (SPEC 5, 9). */
export const EMAIL_LOGIN_COOLDOWN_MS = 30_000
/** Wait for the frame's ready event before `iframe_load_failed` (SPEC 9). */
export const FRAME_LOAD_TIMEOUT_MS = 20_000
/** Delay between the frame's ready event and its first use (SPEC 4, 9). */
export const FRAME_READY_DELAY_MS = 500
/** How often the page offers the handshake again until the frame answers (its load event may never come). */
export const FRAME_HANDSHAKE_RETRY_MS = 250
/** Timeout of connect e-mail, device, one-time code, social and redirect-uri requests (SPEC 9). */
export const EMBEDDED_REQUEST_TIMEOUT_MS = 30_000
/** Version of the embedded-wallet SDK, sent to the frame as `version` (SPEC 7, 9). */
export const EMBEDDED_SDK_VERSION = 4

/** The characters of a device approval's compare code: 32 (no 0/O, 1/I), so each is 5 unbiased bits. */
export const compareCodeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/**
 * Limits of the embedded wallet, shared by the modal, the frame and the service so all three agree
 * (docs/EMBEDDED-WALLET.md lists them). Durations are milliseconds.
 *
 * @example
 * if (code.length !== embeddedLimits.otpLength) return
 */
export const embeddedLimits = {
  /** One-time codes are this many digits. */
  otpLength: 6,
  /** A code is valid this long after it was mailed. */
  otpTtlMs: 10 * 60_000,
  /** Wrong tries that void a code. */
  otpMaxAttempts: 5,
  /** A second sign-in e-mail to one address waits this long (SPEC 5, 9). */
  emailCooldownMs: EMAIL_LOGIN_COOLDOWN_MS,
  /** Sign-in e-mails one address may receive per hour (codes and device links together). */
  emailsPerHour: 10,
  /** Characters of the code a device approval shows in the browser signing in (typed on the link's page). */
  compareCodeLength: 6,
  /** A device-approval link is valid this long. */
  deviceApprovalTtlMs: 15 * 60_000,
  /** How long the service holds a device-wait request open before answering "still pending". */
  deviceWaitMs: 25_000,
  /** A wallet session (the frame's) lasts at most this long unless signed out. */
  sessionTtlMs: 30 * 24 * 60 * 60_000,
  /** A session not used for this long has ended, whatever its absolute lifetime. */
  sessionIdleMs: 7 * 24 * 60 * 60_000,
  /** A request waiting for approval is forgotten after this long. */
  approvalTtlMs: 10 * 60_000,
  /** Largest body of an embedded-wallet API request, in bytes. */
  maxBodyBytes: 256 * 1024,
  /** Calls in one `wallet_sendCalls` at most. */
  maxCalls: 10,
  /** Longest e-mail address accepted (RFC 5321 path limit). */
  maxEmailLength: 254,
  /** Version of the embedded-wallet SDK the frame speaks (SPEC 7, 9). */
  sdkVersion: EMBEDDED_SDK_VERSION,
} as const
