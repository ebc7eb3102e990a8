import { z } from 'zod'
import { integer } from '../config/env.ts'

/** Rate limits per client address and project; 0 turns one off. Each allows bursts of its whole amount. */
export interface RateLimitSettings {
  /** `POST /v1/` requests per second (`RATE_LIMIT_RPC`). */
  rpcPerSecond: number
  /** JSON-RPC requests per second, batch entries counted one by one (`RATE_LIMIT_RPC_ENTRIES`). */
  rpcEntriesPerSecond: number
  /** Analytics events per minute on `POST /e` (`RATE_LIMIT_ANALYTICS`). */
  analyticsEventsPerMinute: number
  /** Calls per minute of each sign-in route that writes: nonce, authenticate, sign-out (`RATE_LIMIT_SIGN_IN`). */
  signInPerMinute: number
  /**
   * Calls per minute of each embedded-wallet route that writes: sign-in mail, codes, device approval,
   * e-mail update, signing requests (`RATE_LIMIT_WALLET`).
   */
  walletPerMinute: number
  /** Blockchain data API requests (`/blockchain/v1/*`) per second (`RATE_LIMIT_DATA`). */
  dataPerSecond: number
}

/** The defaults of {@link RateLimitSettings}. */
export const defaultRateLimits: RateLimitSettings = {
  rpcPerSecond: 100,
  rpcEntriesPerSecond: 1000,
  analyticsEventsPerMinute: 600,
  signInPerMinute: 60,
  walletPerMinute: 20,
  dataPerSecond: 50,
}

/** The HTTP front's slice of the service configuration: proxies in front and rate limits. */
export interface HttpConfig {
  /** Trust `X-Forwarded-*` from this many proxies in front (0: none). */
  trustProxyHops: number
  rateLimits: RateLimitSettings
}

/** The HTTP front's variables: `TRUST_PROXY_HOPS` and the `RATE_LIMIT_*` ones. */
export const httpEnv = z.object({
  TRUST_PROXY_HOPS: integer('TRUST_PROXY_HOPS', 0, 100, 0),
  RATE_LIMIT_RPC: integer('RATE_LIMIT_RPC', 0, 1_000_000, defaultRateLimits.rpcPerSecond),
  RATE_LIMIT_RPC_ENTRIES: integer(
    'RATE_LIMIT_RPC_ENTRIES',
    0,
    10_000_000,
    defaultRateLimits.rpcEntriesPerSecond,
  ),
  RATE_LIMIT_ANALYTICS: integer(
    'RATE_LIMIT_ANALYTICS',
    0,
    10_000_000,
    defaultRateLimits.analyticsEventsPerMinute,
  ),
  RATE_LIMIT_SIGN_IN: integer('RATE_LIMIT_SIGN_IN', 0, 1_000_000, defaultRateLimits.signInPerMinute),
  RATE_LIMIT_WALLET: integer('RATE_LIMIT_WALLET', 0, 1_000_000, defaultRateLimits.walletPerMinute),
  RATE_LIMIT_DATA: integer('RATE_LIMIT_DATA', 0, 1_000_000, defaultRateLimits.dataPerSecond),
})

/**
 * The HTTP front's slice.
 *
 * @example
 * const http = httpConfig(httpEnv.parse({ RATE_LIMIT_RPC: '0' })) // rpcPerSecond 0: off
 */
export function httpConfig(values: z.output<typeof httpEnv>): HttpConfig {
  return {
    trustProxyHops: values.TRUST_PROXY_HOPS,
    rateLimits: {
      rpcPerSecond: values.RATE_LIMIT_RPC,
      rpcEntriesPerSecond: values.RATE_LIMIT_RPC_ENTRIES,
      analyticsEventsPerMinute: values.RATE_LIMIT_ANALYTICS,
      signInPerMinute: values.RATE_LIMIT_SIGN_IN,
      walletPerMinute: values.RATE_LIMIT_WALLET,
      dataPerSecond: values.RATE_LIMIT_DATA,
    },
  }
}
