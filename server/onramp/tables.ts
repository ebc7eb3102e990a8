import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core'
import { createdAt, updatedAt } from '../db/columns.ts'
import { projects } from '../projects/tables.ts'

// On-ramp purchases.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/** On-ramp purchases: recorded when the checkout URL is made, completed by the provider's signed webhook. */
export const onrampPurchases = pgTable(
  'onramp_purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    address: text('address').notNull(),
    network: text('network').notNull(),
    purchaseCurrency: text('purchase_currency').notNull(),
    paymentCurrency: text('payment_currency').notNull(),
    paymentMethod: text('payment_method').notNull(),
    /** Fiat, decimal string. */
    paymentAmount: text('payment_amount').notNull(),
    /** Tokens, decimal string, as quoted. */
    purchaseAmount: text('purchase_amount').notNull(),
    status: text('status', { enum: ['pending', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    txHash: text('tx_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('onramp_purchases_address_idx').on(table.address)],
)
