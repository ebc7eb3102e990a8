import { lt, sql } from 'drizzle-orm'
import type { RateLimitSettings } from '../config.ts'
import type { Db } from '../db/database.ts'
import { rateLimits } from '../db/schema.ts'
import { ServiceError } from '../errors.ts'

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
  /** Deletes buckets untouched for an hour (full again long since). */
  sweep(): Promise<number>
}

const idleMs = 60 * 60_000

/**
 * Rate limits on the database: a token bucket per rule, client address and project in the unlogged
 * `rate_limits` table, taken from atomically by `rate_limit_take` (migration 0002), so every instance on
 * one PostgreSQL shares them. One round trip whatever the number of rules. Clocks of instances must agree
 * (NTP); `now` is the instance's.
 *
 * @example
 * const limiter = createRateLimiter(db)
 * await limiter.take({ projectId: 'dev-project', address: request.ip }, [[rules.rpc, 1], [rules.rpcEntries, 20]])
 */
export function createRateLimiter(db: Db, options: { now?: () => number } = {}): RateLimiter {
  const now = options.now ?? Date.now
  return {
    async take(client, charges) {
      const active = charges.filter(([rule]) => rule.amount > 0)
      if (active.length === 0) return
      const time = Math.floor(now())
      const takeFrom = ([rule, cost]: [RateLimitRule, number]) => {
        const key = `${rule.name}:${client.projectId}:${client.address}`
        const perMs = rule.amount / rule.periodMs
        return sql`"rate_limit_take"(${key}, ${rule.amount}::float8, ${perMs}::float8, ${cost}::float8, ${time}::bigint)`
      }
      // Each bucket is asked only when every one before it gave its tokens: a refusal charges nothing after it.
      let query = sql`select ${takeFrom(active[0] as [RateLimitRule, number])} as "w0"`
      for (let index = 1; index < active.length; index++) {
        const earlier = sql.join(
          active.slice(0, index).map((_charge, before) => sql`${sql.identifier(`w${before}`)} = 0`),
          sql` and `,
        )
        query = sql`select s.*, case when ${earlier} then ${takeFrom(active[index] as [RateLimitRule, number])} else 0 end as ${sql.identifier(`w${index}`)} from (${query}) s`
      }
      const result = await db.execute(query)
      const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0] ?? {}
      for (const [index, [rule]] of active.entries()) {
        const waitMs = Number(row[`w${index}`] ?? 0)
        if (waitMs > 0) {
          const seconds = Math.max(1, Math.ceil(waitMs / 1000))
          throw new TooManyRequestsError(rule.message(seconds), seconds)
        }
      }
    },
    async sweep() {
      const deleted = await db
        .delete(rateLimits)
        .where(lt(rateLimits.updatedAt, Math.floor(now()) - idleMs))
        .returning({ key: rateLimits.key })
      return deleted.length
    },
  }
}

/** The service's limits, from the configuration. */
export interface RateLimitRules {
  rpc: RateLimitRule
  rpcEntries: RateLimitRule
  analytics: RateLimitRule
  signIn: (route: 'nonce' | 'authenticate' | 'sign-out') => RateLimitRule
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
    signIn: (route) => routes[route],
  }
}
