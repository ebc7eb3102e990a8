/**
 * Limits of the companion service API (SPEC section 9), shared by the modal and the service so both
 * sides agree on them.
 *
 * @example
 * import { apiLimits } from '../protocol/api/index.ts'
 * const entries = Math.min(wanted, apiLimits.maxEntries)
 */
export const apiLimits = {
  /** Wallets per `/getWallets` page when `entries` is not given (SPEC 9: paging 40 per page). */
  defaultEntries: 40,
  /** Largest `entries` value `/getWallets` accepts (SPEC 9: search up to 100 entries). */
  maxEntries: 100,
  /** Most ids in `include` or `exclude`, and most networks in `chains`. */
  maxListItems: 500,
  /** Longest `search` string. */
  maxSearchLength: 100,
  /** Most requests in one JSON-RPC batch (SPEC 9: batch 1000). */
  maxRpcBatch: 1000,
  /** Most events in one `POST /e` body (the modal batches and flushes on `pagehide`). */
  maxAnalyticsBatch: 100,
  /** Largest `POST /e` body, in bytes. */
  maxAnalyticsBodyBytes: 64 * 1024,
  /** What one analytics event's `props.properties` may hold: nesting levels, names (all levels), JSON bytes. */
  analyticsProperties: { maxDepth: 4, maxNames: 64, maxBytes: 4096 },
  /** Largest `POST /v1/` body, in bytes. */
  maxRpcBodyBytes: 5 * 1024 * 1024,
  /** Default upstream timeout of the RPC proxy, in milliseconds (SPEC 9: RPC default timeout 10 s). */
  rpcTimeoutMs: 10_000,
} as const
