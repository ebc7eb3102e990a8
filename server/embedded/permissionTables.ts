// The permissions the person granted sites (ERC-7715): the service's index of the sessions on
// their smart accounts. The chain is the authority (what a key may do, what it used, whether it is
// revoked); this index says which site asked, for what, and where to look.
import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../db/columns.ts'
import { projects } from '../projects/tables.ts'
import { walletUsers } from './tables.ts'

/**
 * One granted session: the key (the frame's; the service never sees its private half), the account and
 * network, the project (site) that asked, the grant as asked (JSON of `SessionGrant`, amounts as
 * decimal strings) and the UserOperations that granted and revoked it.
 */
export const walletPermissions = pgTable(
  'wallet_permissions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    chainId: text('chain_id').notNull(),
    /** The smart account, EIP-55. */
    account: text('account').notNull(),
    /** The session key's address, EIP-55 (its lower case is the permission's context). */
    sessionKey: text('session_key').notNull(),
    grant: jsonb('grant').$type<Record<string, unknown>>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    grantedOp: text('granted_op'),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    revokedOp: text('revoked_op'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('wallet_permissions_key_unique').on(table.chainId, table.account, table.sessionKey),
    index('wallet_permissions_user_idx').on(table.userId, table.chainId),
  ],
)
