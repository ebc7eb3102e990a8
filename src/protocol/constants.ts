/**
 * Business constants and limits of SPEC section 9 (plus the default chain of section 3).
 * Units are in the names; durations are milliseconds.
 */

/**
 * Network the modal starts on when nothing else is known (SPEC 3).
 *
 * @example
 * const network = stored ?? DEFAULT_NETWORK_ID
 */
export const DEFAULT_NETWORK_ID = 'eip155:1'

// The embedded wallet's timings (SPEC 9: cooldown, frame load, ready delay, request timeout, SDK
// version) are in `embedded/limits.ts`, read only by its lazily loaded code.

/** Sign-out waits at most this long before the local session is dropped anyway (SPEC 9). */
export const SIGN_OUT_TIMEOUT_MS = 3_000

/**
 * Origins that may frame the wallet besides the project's allow-list (SPEC 9). Preview hosts come
 * from each project's own wildcard entries rather than a built-in list.
 *
 * @example
 * const ancestors = [...FRAME_ANCESTORS_DEFAULT, ...project.allowedOrigins]
 */
export const FRAME_ANCESTORS_DEFAULT = ['http://localhost:*', 'http://127.0.0.1:*'] as const

/**
 * Caches (SPEC 9).
 *
 * @example
 * if (entry && Date.now() - entry.timestamp < BALANCE_CACHE_MS) return entry.balance
 */
export const BALANCE_CACHE_MS = 30_000
/** Portfolio (token list) cache lifetime (SPEC 9). */
export const PORTFOLIO_CACHE_MS = 30_000
/** Name-service cache lifetime (SPEC 9). */
export const NAME_CACHE_MS = 300_000
/** Identity (profile name and image) cache lifetime (SPEC 9). */
export const IDENTITY_CACHE_MS = 300_000
/** After a failed balance fetch, no retry for this long (SPEC 9). */
export const BALANCE_RETRY_BLOCK_MS = 30_000
/** Default time after which unused query cache entries are collected (SPEC 9). */
export const CACHE_GC_MS = 300_000

/**
 * Wallet lists (SPEC 9).
 *
 * @example
 * const recent = [wallet, ...recent].slice(0, RECENT_WALLETS_MAX)
 */
export const RECENT_WALLETS_MAX = 2
/** Featured wallets shown by default (SPEC 9). */
export const FEATURED_WALLETS_DEFAULT = 4
/** Recommended wallets shown (SPEC 9). */
export const RECOMMENDED_WALLETS = 4
/** Catalogue entries per page of AllWallets (SPEC 9). */
export const WALLETS_PAGE_SIZE = 40
/** Images preloaded for the first entries of a page (SPEC 9). */
export const WALLETS_PAGE_IMAGES = 20
/** Search results asked for at most (SPEC 9). */
export const WALLET_SEARCH_MAX = 100
/** Debounce of the wallet search input (SPEC 9). */
export const WALLET_SEARCH_DEBOUNCE_MS = 300

/**
 * Account display and sending (SPEC 9).
 *
 * @example
 * const label = formatUnits(value, decimals).slice(0, dot + 1 + BALANCE_DECIMALS)
 */
export const BALANCE_DECIMALS = 3
/** Pending transactions kept at most (SPEC 9). */
export const MAX_PENDING_TRANSACTIONS = 99
/** Swap slippage tolerance, in percent (SPEC 9). */
export const SLIPPAGE_PERCENT = 1
/** A swap quote is good for this long; the Swap view asks for a new one after it. */
export const SWAP_QUOTE_TTL_MS = 30_000

/**
 * On-ramp payment limits used when the provider gives none, per fiat currency (SPEC 3, 9).
 * Amounts are decimal strings, as in the payment-currency entity.
 *
 * @example
 * const limits = ONRAMP_DEFAULT_PAYMENT_CURRENCIES.find((c) => c.id === 'USD')?.payment_method_limits
 */
export const ONRAMP_DEFAULT_PAYMENT_CURRENCIES = [
  {
    id: 'USD',
    payment_method_limits: [
      { id: 'card', min: '10.00', max: '7500.00' },
      { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
    ],
  },
  {
    id: 'EUR',
    payment_method_limits: [
      { id: 'card', min: '10.00', max: '7500.00' },
      { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
    ],
  },
] as const

/**
 * Blockchain RPC (SPEC 7, 9).
 *
 * @example
 * const timer = setTimeout(() => controller.abort(), RPC_TIMEOUT_MS)
 */
export const RPC_TIMEOUT_MS = 10_000
/** JSON-RPC requests per batch at most (SPEC 7, 9). */
export const RPC_BATCH_MAX = 1000
/** Interval at which a fallback transport pings its upstreams (SPEC 9). */
export const RPC_FALLBACK_PING_MS = 4_000

/**
 * HTTP client retries (SPEC 9): up to {@link HTTP_RETRY_COUNT} times on these statuses.
 *
 * @example
 * if (HTTP_RETRY_STATUSES.includes(response.status)) await sleep(HTTP_RETRY_BASE_DELAY_MS * 2 ** attempt)
 */
export const HTTP_RETRY_STATUSES: readonly number[] = [403, 408, 413, 429, 500, 502, 503, 504]
/** Retries after the first attempt (SPEC 9). */
export const HTTP_RETRY_COUNT = 3
/** Delay before the first retry (SPEC 9). */
export const HTTP_RETRY_BASE_DELAY_MS = 150

/**
 * Query retry back-off (SPEC 9): starts at 1 s, doubles each attempt, capped at 30 s.
 *
 * @example
 * const delay = Math.min(QUERY_RETRY_BASE_DELAY_MS * QUERY_RETRY_FACTOR ** attempt, QUERY_RETRY_MAX_DELAY_MS)
 */
export const QUERY_RETRY_BASE_DELAY_MS = 1_000
/** Growth of the query retry delay per attempt (SPEC 9). */
export const QUERY_RETRY_FACTOR = 2
/** Longest query retry delay (SPEC 9). */
export const QUERY_RETRY_MAX_DELAY_MS = 30_000

/**
 * Images and motion (SPEC 2, 9).
 *
 * @example
 * await Promise.race([preload(url), sleep(IMAGE_PRELOAD_RACE_MS)])
 */
export const IMAGE_PRELOAD_RACE_MS = 2_000
/** Length of the shake that signals a blocked close (SPEC 2, 9). */
export const SHAKE_MS = 500

/**
 * Wallet pairing (SPEC 4, 9): a pairing lasts 4 minutes and counts as expired when 10 s or less
 * remain; a new one may be asked for 1 s after the last.
 *
 * @example
 * const expired = expiresAt - Date.now() <= PAIRING_EXPIRY_MARGIN_MS
 */
export const PAIRING_LIFETIME_MS = 240_000
/** Remaining lifetime at or under which a pairing counts as expired (SPEC 4). */
export const PAIRING_EXPIRY_MARGIN_MS = 10_000
/** Wait before a pairing retry is allowed (SPEC 4). */
export const PAIRING_RETRY_MS = 1_000

/**
 * Logging and error telemetry (SPEC 9).
 *
 * @example
 * if (sentInWindow < ERROR_TELEMETRY_MAX_EVENTS) send(event)
 */
export const LOGGER_BUFFER_BYTES = 1_024_000
/** Error telemetry events sent at most per window (SPEC 9). */
export const ERROR_TELEMETRY_MAX_EVENTS = 5
/** Window of the error telemetry limit (SPEC 9). */
export const ERROR_TELEMETRY_WINDOW_MS = 60_000
