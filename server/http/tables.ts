import { bigint, doublePrecision, index, pgTable, text } from 'drizzle-orm/pg-core'

// The rate limits' counters.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/**
 * Rate-limit counters shared by every instance on the database: a token bucket per limit, client and
 * project (server/http/rateLimit.ts). An unlogged table (migration 0002).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    tokens: doublePrecision('tokens').notNull(),
    /** Milliseconds since the epoch, the instance's clock. */
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('rate_limits_updated_idx').on(table.updatedAt)],
)
