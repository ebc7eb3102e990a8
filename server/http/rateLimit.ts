import { lt, sql } from 'drizzle-orm'
import type { Db, ServiceDatabase } from '../db/database.ts'
import { rateLimits } from '../db/schema.ts'
import { ServiceError } from '../errors.ts'
import type { RateLimitSettings } from './config.ts'

/** One limit: `amount` per `periodMs` for each client address and project, in bursts of up to `amount`. */
export interface RateLimitRule {
  /** Names the counter, for example `rpc` or `sign-in:nonce`. */
  name: string
  /** 0 turns the limit off. */
  amount: number
  periodMs: number
  /** The 429 message, given the seconds to wait. */
  message: (seconds: number) => string
}

/** `429 TOO_MANY_REQUESTS` with the seconds to wait (sent as `Retry-After`). */
export class TooManyRequestsError extends ServiceError {
  readonly retryAfterSeconds: number
  constructor(message: string, retryAfterSeconds: number) {
    super(429, 'TOO_MANY_REQUESTS', message)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

export interface RateLimiter {
  /**
   * Takes `cost` from each rule's bucket for this client and project, in order; throws
   * {@link TooManyRequestsError} at the first bucket that has not enough left (that one is not charged).
   */
  take(
    client: { projectId: string; address: string },
    charges: ReadonlyArray<[RateLimitRule, number]>,
  ): Promise<void>
  /** Deletes buckets idle long enough to be full again. */
  sweep(): Promise<number>
  /** How many buckets exist and the characters of their keys, together (bounded memory is tested). */
  size(): Promise<{ buckets: number; keyChars: number }>
}

/** One bucket to take from: `cost` tokens of `capacity`, refilled `perMs` a millisecond. */
interface Charge {
  key: string
  capacity: number
  perMs: number
  cost: number
}

/** Where buckets live; `take` answers, per charge in order, 0 when taken or the ms to wait (and stops there). */
interface BucketStore {
  take(charges: readonly Charge[], now: number): Promise<number[]>
  /** Deletes buckets idle long enough to be full again; resolves to how many. */
  sweep(now: number): Promise<number>
  size(): Promise<{ buckets: number; keyChars: number }>
}

/** Buckets untouched this long are full whatever their rule (the longest period is a minute). */
const idleMs = 60 * 60_000

/**
 * Buckets in the unlogged `rate_limits` table, taken from by `rate_limit_take` (migration 0002) under a
 * row lock, so every instance on one PostgreSQL shares them: one round trip whatever the number of rules.
 */
function databaseBuckets(db: Db): BucketStore {
  return {
    async take(charges, now) {
      const takeFrom = (charge: Charge) =>
        sql`"rate_limit_take"(${charge.key}, ${charge.capacity}::float8, ${charge.perMs}::float8, ${charge.cost}::float8, ${now}::bigint)`
      // Each bucket is asked only when every one before it gave its tokens: a refusal charges nothing after it.
      let query = sql`select ${takeFrom(charges[0] as Charge)} as "w0"`
      for (let index = 1; index < charges.length; index++) {
        const earlier = sql.join(
          charges.slice(0, index).map((_charge, before) => sql`${sql.identifier(`w${before}`)} = 0`),
          sql` and `,
        )
        query = sql`select s.*, case when ${earlier} then ${takeFrom(charges[index] as Charge)} else 0 end as ${sql.identifier(`w${index}`)} from (${query}) s`
      }
      const result = await db.execute(query)
      const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {}
      return charges.map((_charge, index) => Number(row[`w${index}`] ?? 0))
    },
    async sweep(now) {
      const deleted = await db
        .delete(rateLimits)
        .where(lt(rateLimits.updatedAt, now - idleMs))
        .returning({ key: rateLimits.key })
      return deleted.length
    },
    async size() {
      const result = await db.execute(
        sql`select count(*)::int as "buckets", coalesce(sum(length("key")), 0)::int as "keyChars" from ${rateLimits}`,
      )
      const row = (result as unknown as { rows: { buckets: number; keyChars: number }[] }).rows[0]
      return { buckets: Number(row?.buckets ?? 0), keyChars: Number(row?.keyChars ?? 0) }
    },
  }
}

/**
 * The same buckets in memory, for PGlite: its database belongs to one process, so there is nothing to
 * share, and a query per request would queue behind every other query of the single PGlite connection.
 */
function memoryBuckets(): BucketStore {
  const buckets = new Map<string, { tokens: number; updatedAt: number }>()
  const sweep = async (now: number) => {
    let deleted = 0
    for (const [key, bucket] of buckets) {
      if (now - bucket.updatedAt > 60_000) {
        buckets.delete(key)
        deleted++
      }
    }
    return deleted
  }
  return {
    async take(charges, now) {
      const waits: number[] = []
      for (const charge of charges) {
        const bucket = buckets.get(charge.key) ?? { tokens: charge.capacity, updatedAt: now }
        const available = Math.min(
          charge.capacity,
          bucket.tokens + Math.max(0, now - bucket.updatedAt) * charge.perMs,
        )
        if (available < charge.cost) {
          waits.push(Math.ceil((charge.cost - available) / charge.perMs))
          break
        }
        buckets.set(charge.key, {
          tokens: available - charge.cost,
          updatedAt: Math.max(bucket.updatedAt, now),
        })
        waits.push(0)
      }
      // Bounded: a flood from many addresses sweeps early.
      if (buckets.size > 100_000) await sweep(now)
      return waits
    },
    sweep,
    async size() {
      let keyChars = 0
      for (const key of buckets.keys()) keyChars += key.length
      return { buckets: buckets.size, keyChars }
    },
  }
}

/** One memory store per PGlite database, so instances built on the same one (tests) share it. */
const memoryStores = new WeakMap<object, BucketStore>()

/**
 * Rate limits as token buckets per rule, client address and project: in the database on PostgreSQL (so
 * every instance on it shares them; their clocks must agree, NTP), in memory on PGlite (one process).
 *
 * @example
 * const limiter = createRateLimiter(database)
 * await limiter.take({ projectId: 'dev-project', address: request.ip }, [[rules.rpc, 1], [rules.rpcEntries, 20]])
 */
export function createRateLimiter(
  database: Pick<ServiceDatabase, 'db' | 'kind'>,
  options: { now?: () => number } = {},
): RateLimiter {
  const now = options.now ?? Date.now
  let store = database.kind === 'pglite' ? memoryStores.get(database.db) : databaseBuckets(database.db)
  if (!store) {
    store = memoryBuckets()
    memoryStores.set(database.db, store)
  }
  const buckets = store
  return {
    async take(client, charges) {
      const active = charges.filter(([rule]) => rule.amount > 0)
      if (active.length === 0) return
      const waits = await buckets.take(
        active.map(([rule, cost]) => ({
          key: `${rule.name}:${client.projectId}:${client.address}`,
          capacity: rule.amount,
          perMs: rule.amount / rule.periodMs,
          cost,
        })),
        Math.floor(now()),
      )
      for (const [index, [rule]] of active.entries()) {
        const waitMs = waits[index] ?? 0
        if (waitMs > 0) {
          const seconds = Math.max(1, Math.ceil(waitMs / 1000))
          throw new TooManyRequestsError(rule.message(seconds), seconds)
        }
      }
    },
    sweep: () => buckets.sweep(Math.floor(now())),
    size: () => buckets.size(),
  }
}

/** The service's limits, from the configuration. */
export interface RateLimitRules {
  rpc: RateLimitRule
  rpcEntries: RateLimitRule
  analytics: RateLimitRule
  /** Blockchain data API requests per second. */
  data: RateLimitRule
  signIn: (route: 'nonce' | 'authenticate' | 'sign-out') => RateLimitRule
  /** The embedded wallet's routes that write, each its own counter. */
  wallet: (route: string) => RateLimitRule
  /** Name registrations, profile images and on-ramp checkouts (`RATE_LIMIT_SIGN_IN` a minute), each its own counter. */
  writes: (route: 'names:register' | 'names:avatar' | 'onramp:url') => RateLimitRule
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/**
 * The rules for {@link RateLimiter.take}, from the configuration's amounts.
 *
 * @example
 * const rules = rateLimitRules(config.rateLimits)
 */
export function rateLimitRules(settings: RateLimitSettings): RateLimitRules {
  const second = 1000
  const minute = 60_000
  const signIn = (route: 'nonce' | 'authenticate' | 'sign-out'): RateLimitRule => ({
    name: `sign-in:${route}`,
    amount: settings.signInPerMinute,
    periodMs: minute,
    message: (seconds) => `Too many sign-in attempts: try again in ${plural(seconds, 'second')}`,
  })
  const routes = {
    nonce: signIn('nonce'),
    authenticate: signIn('authenticate'),
    'sign-out': signIn('sign-out'),
  }
  return {
    rpc: {
      name: 'rpc',
      amount: settings.rpcPerSecond,
      periodMs: second,
      message: (seconds) =>
        `Too many RPC requests: over ${settings.rpcPerSecond} a second; try again in ${plural(seconds, 'second')}`,
    },
    rpcEntries: {
      name: 'rpc-entries',
      amount: settings.rpcEntriesPerSecond,
      periodMs: second,
      message: (seconds) =>
        `Too many RPC calls: over ${settings.rpcEntriesPerSecond} a second counting each one of a batch; try again in ${plural(seconds, 'second')}`,
    },
    analytics: {
      name: 'analytics',
      amount: settings.analyticsEventsPerMinute,
      periodMs: minute,
      message: (seconds) =>
        `Too many analytics events: over ${settings.analyticsEventsPerMinute} a minute; try again in ${plural(seconds, 'second')}`,
    },
    data: {
      name: 'data',
      amount: settings.dataPerSecond,
      periodMs: second,
      message: (seconds) =>
        `Too many blockchain data requests: over ${settings.dataPerSecond} a second; try again in ${plural(seconds, 'second')}`,
    },
    signIn: (route) => routes[route],
    writes: (route) => ({
      name: route,
      amount: settings.signInPerMinute,
      periodMs: minute,
      message: (seconds) => `Too many requests: try again in ${plural(seconds, 'second')}`,
    }),
    wallet: (route) => ({
      name: `wallet:${route}`,
      amount: settings.walletPerMinute,
      periodMs: minute,
      message: (seconds) => `Too many requests: try again in ${plural(seconds, 'second')}`,
    }),
  }
}
