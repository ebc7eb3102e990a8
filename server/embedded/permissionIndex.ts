/**
 * The service's index of the permissions (ERC-7715 sessions) people granted sites: recorded when a grant's
 * UserOperation landed, marked when a revocation did. The chain stays the authority on what a session may
 * do and has used (see permissionList.ts); this says which site asked, and for what.
 */
import { and, desc, eq, isNull } from 'drizzle-orm'
import type { Address } from 'viem'
import type { SessionGrant } from '../../src/protocol/embedded/permissions.ts'
import type { Db } from '../db/database.ts'
import { walletPermissions } from '../db/schema.ts'
import { newId } from './secrets.ts'

/** One indexed permission. */
export interface PermissionRecord {
  userId: string
  projectId: string
  chainId: string
  account: Address
  sessionKey: Address
  grant: SessionGrant
  grantedOp?: string | null
  revokedAt?: Date | null
}

/** A grant as JSON (its amounts as decimal strings) and back. */
const grantToJson = (grant: SessionGrant): Record<string, unknown> => ({
  ...grant,
  valueCap: grant.valueCap.toString(),
  tokens: grant.tokens.map((token) => ({ ...token, amount: token.amount.toString() })),
})
const grantOfJson = (json: Record<string, unknown>): SessionGrant => {
  const grant = json as unknown as SessionGrant & { valueCap: string; tokens: { amount: string }[] }
  return {
    ...grant,
    valueCap: BigInt(grant.valueCap),
    tokens: grant.tokens.map((token) => ({
      ...(token as SessionGrant['tokens'][number]),
      amount: BigInt(token.amount),
    })),
  }
}

export interface PermissionIndex {
  /** Records a granted session (a new grant to the same key replaces the old one). */
  record(entry: PermissionRecord): Promise<void>
  /** The person's permission of that key on the network, or undefined. */
  find(userId: string, chainId: string, key: Address): Promise<PermissionRecord | undefined>
  /** Marks the person's permission of that key revoked (by the UserOperation `op`). */
  revoked(userId: string, chainId: string, key: Address, op: string, at: Date): Promise<void>
  /** The person's permissions on a network, newest first. */
  list(userId: string, chainId: string): Promise<PermissionRecord[]>
}

/**
 * The index in the database.
 *
 * @example
 * const permissions = createPermissionIndex(db)
 * await permissions.record({ userId, projectId, chainId, account, sessionKey, grant, grantedOp })
 */
export function createPermissionIndex(db: Db): PermissionIndex {
  const recordOf = (row: typeof walletPermissions.$inferSelect): PermissionRecord => ({
    userId: row.userId,
    projectId: row.projectId,
    chainId: row.chainId,
    account: row.account as Address,
    sessionKey: row.sessionKey as Address,
    grant: grantOfJson(row.grant),
    grantedOp: row.grantedOp,
    revokedAt: row.revokedAt,
  })
  return {
    async record(entry) {
      const values = {
        userId: entry.userId,
        projectId: entry.projectId,
        grant: grantToJson(entry.grant),
        expiresAt: new Date(entry.grant.expiry * 1000),
        grantedOp: entry.grantedOp ?? null,
        revokedAt: null,
        revokedOp: null,
      }
      await db
        .insert(walletPermissions)
        .values({
          id: newId(),
          chainId: entry.chainId,
          account: entry.account,
          sessionKey: entry.sessionKey,
          ...values,
        })
        .onConflictDoUpdate({
          target: [walletPermissions.chainId, walletPermissions.account, walletPermissions.sessionKey],
          set: values,
        })
    },
    async find(userId, chainId, key) {
      const [row] = await db
        .select()
        .from(walletPermissions)
        .where(
          and(
            eq(walletPermissions.userId, userId),
            eq(walletPermissions.chainId, chainId),
            eq(walletPermissions.sessionKey, key),
          ),
        )
        .limit(1)
      return row ? recordOf(row) : undefined
    },
    async revoked(userId, chainId, key, op, at) {
      await db
        .update(walletPermissions)
        .set({ revokedAt: at, revokedOp: op })
        .where(
          and(
            eq(walletPermissions.userId, userId),
            eq(walletPermissions.chainId, chainId),
            eq(walletPermissions.sessionKey, key),
            isNull(walletPermissions.revokedAt),
          ),
        )
    },
    async list(userId, chainId) {
      const rows = await db
        .select()
        .from(walletPermissions)
        .where(and(eq(walletPermissions.userId, userId), eq(walletPermissions.chainId, chainId)))
        .orderBy(desc(walletPermissions.createdAt))
        .limit(100)
      return rows.map(recordOf)
    },
  }
}
