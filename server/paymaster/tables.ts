import { date, jsonb, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { createdAt, updatedAt } from '../db/columns.ts'
import { projects } from '../projects/tables.ts'

// Sponsored gas (ERC-7677): each project's policy and what it spent each day.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/** What a project sponsors: networks, contracts, and daily budgets in wei of maximum gas cost. */
export const paymasterPolicies = pgTable('paymaster_policies', {
  projectId: text('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  /** CAIP-2 ids (`eip155:…`). */
  networks: jsonb('networks').$type<string[]>().notNull(),
  /** Lowercase addresses: every call of a sponsored operation must target one of them. */
  contracts: jsonb('contracts').$type<string[]>().notNull(),
  /** Wei a day per sender (the smart account), as a decimal string. */
  perUserDailyWei: numeric('per_user_daily_wei', { precision: 78, scale: 0 }).notNull(),
  /** Wei a day for the whole project. */
  totalDailyWei: numeric('total_daily_wei', { precision: 78, scale: 0 }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/**
 * What a project's paymaster approved each UTC day, in wei of maximum gas cost: one row per sender and
 * one for the project's total (sender `*`).
 */
export const paymasterSpending = pgTable(
  'paymaster_spending',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    sender: text('sender').notNull(),
    spentWei: numeric('spent_wei', { precision: 78, scale: 0 }).notNull().default('0'),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.day, table.sender] })],
)
