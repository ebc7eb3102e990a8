import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt, updatedAt } from '../db/columns.ts'

// The name registry.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/**
 * Wallet-side names: one label per registry suffix, one name per address and suffix; the
 * latest registration's `Issued At`, so an older signed message cannot be replayed over a newer one.
 */
export const names = pgTable(
  'names',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    suffix: text('suffix').notNull(),
    /** Lower-cased. */
    label: text('label').notNull(),
    /** As signed; EVM addresses lower-cased. */
    address: text('address').notNull(),
    chainId: text('chain_id').notNull(),
    avatar: text('avatar'),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('names_suffix_label_unique').on(table.suffix, table.label),
    uniqueIndex('names_suffix_address_unique').on(table.suffix, table.address),
  ],
)
