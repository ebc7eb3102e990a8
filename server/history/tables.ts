import { bigint, index, integer, numeric, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'
import { updatedAt } from '../db/columns.ts'

// The transaction history's index.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/**
 * Per network, where the history indexer is (the next block, the hash of the one before) and which
 * instance holds the indexing lease until when (server/history/indexer.ts). Migration 0004.
 */
export const historyNetworks = pgTable('history_networks', {
  chainId: text('chain_id').primaryKey(),
  nextBlock: bigint('next_block', { mode: 'number' }).notNull().default(0),
  lastHash: text('last_hash'),
  holder: text('holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
  updatedAt: updatedAt(),
})

/**
 * Movements of value the indexer found: a transaction's native value (`logIndex` -1) or an ERC-20
 * `Transfer` log; addresses and tokens in lower case, `token` is `native` or the contract.
 */
export const historyTransfers = pgTable(
  'history_transfers',
  {
    chainId: text('chain_id').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    txIndex: integer('tx_index').notNull(),
    logIndex: integer('log_index').notNull(),
    txHash: text('tx_hash').notNull(),
    minedAt: timestamp('mined_at', { withTimezone: true, mode: 'date' }).notNull(),
    kind: text('kind', { enum: ['transfer', 'swap', 'onramp'] }).notNull(),
    token: text('token').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
  },
  (table) => [
    primaryKey({
      name: 'history_transfers_pk',
      columns: [table.chainId, table.blockNumber, table.txIndex, table.logIndex],
    }),
    index('history_transfers_from_idx').on(
      table.chainId,
      table.fromAddress,
      table.blockNumber,
      table.txIndex,
    ),
    index('history_transfers_to_idx').on(table.chainId, table.toAddress, table.blockNumber, table.txIndex),
  ],
)
