// The share sets the service keeps: sealed at rest under the user's data key, read back once.
import { and, countDistinct, eq, inArray } from 'drizzle-orm'
import type {
  CustodyMode,
  RecoveryMethod,
  UserRecovery,
  WalletKeyState,
} from '../../src/protocol/embedded/keys.ts'
import type { Db } from '../db/database.ts'
import { projects, walletKeys, walletShareSets, walletUsers } from '../db/schema.ts'
import { type Custody, open, seal } from './custody.ts'

/** What the service keeps of one share set, as the frame sent it (shares as bytes). */
export interface NewShareSet {
  setId: string
  /** EIP-55. */
  evmAddress: string
  evmPublicKey: string
  solanaAddress: string
  authShare: Uint8Array
  /** Operator custody: the recovery share itself (sealed here under the data key). */
  recoveryShare?: Uint8Array | undefined
  /** User custody: the recovery share as the person sealed it. */
  recovery?: UserRecovery | undefined
}

export type ShareSetRow = typeof walletShareSets.$inferSelect

/** The additional data of a sealed share: the user, the set and what the share is for. */
const shareAad = (userId: string, setId: string, purpose: 'auth' | 'recovery') =>
  Buffer.from(`wallet-elements:share:v1:${userId}:${setId}:${purpose}`)

/**
 * The share sets on the database, sealed with custody's data keys.
 *
 * @example
 * const sets = createShareSets(db, custody)
 * const state = await sets.state(userId, projectId)
 */
export function createShareSets(db: Db, custody: Custody) {
  /** The row's columns for a new set (shares sealed under the user's data key). */
  async function sealedColumns(tx: Db, userId: string, set: NewShareSet) {
    return custody.withDataKey(tx, userId, (key, dataKeyId) => ({
      setId: set.setId,
      evmAddress: set.evmAddress,
      evmPublicKey: set.evmPublicKey,
      solanaAddress: set.solanaAddress,
      dataKeyId,
      authShare: seal(key, set.authShare, shareAad(userId, set.setId, 'auth')),
      ...recoveryColumns(set, (share) => seal(key, share, shareAad(userId, set.setId, 'recovery'))),
      updatedAt: new Date(),
    }))
  }

  return {
    /** A project's custody mode. */
    async custodyOf(projectId: string): Promise<CustodyMode> {
      const [row] = await db
        .select({ custody: projects.custody })
        .from(projects)
        .where(eq(projects.id, projectId))
        .limit(1)
      return row?.custody ?? 'user'
    },

    /** The user's current set, if any. */
    async current(userId: string, tx: Db = db): Promise<ShareSetRow | undefined> {
      const [row] = await tx.select().from(walletShareSets).where(eq(walletShareSets.userId, userId)).limit(1)
      return row
    },

    /** Where the user's keys stand (the wire's `walletKeyState`). */
    async state(userId: string, projectId: string): Promise<WalletKeyState> {
      const custodyMode = await this.custodyOf(projectId)
      const set = await this.current(userId)
      if (set)
        return {
          state: 'ready',
          userId,
          custody: custodyMode,
          setId: set.setId,
          addresses: { eip155: set.evmAddress, solana: set.solanaAddress },
          recovery: set.recoveryMethod ? [set.recoveryMethod as RecoveryMethod] : [],
        }
      const legacy = await custody.hasLegacyKeys(db, userId)
      return { state: legacy ? 'legacy' : 'none', userId, custody: custodyMode }
    },

    /**
     * Stores a user's first set; a legacy user's keys (`wallet_keys`) are deleted in the same
     * transaction. False when the user has a set already (a concurrent setup won).
     */
    async create(userId: string, set: NewShareSet): Promise<boolean> {
      return db.transaction(async (tx) => {
        const inserted = await tx
          .insert(walletShareSets)
          .values({ userId, ...(await sealedColumns(tx as unknown as Db, userId, set)) })
          .onConflictDoNothing()
          .returning({ userId: walletShareSets.userId })
        if (inserted.length === 0) return false
        // The data key stays: it now seals the shares (the legacy keys' ciphertext goes).
        await tx.delete(walletKeys).where(eq(walletKeys.userId, userId))
        return true
      })
    },

    /** Replaces the set `previousSetId` atomically; false when it is not the current one any more. */
    async replace(userId: string, previousSetId: string, set: NewShareSet): Promise<boolean> {
      return db.transaction(async (tx) => {
        const replaced = await tx
          .update(walletShareSets)
          .set(await sealedColumns(tx as unknown as Db, userId, set))
          .where(and(eq(walletShareSets.userId, userId), eq(walletShareSets.setId, previousSetId)))
          .returning({ userId: walletShareSets.userId })
        return replaced.length > 0
      })
    },

    /** Sets how the current set's recovery share is sealed (user custody); false: `setId` is stale. */
    async setRecovery(userId: string, setId: string, recovery: UserRecovery): Promise<boolean> {
      const updated = await db
        .update(walletShareSets)
        .set({ ...recoveryColumns({ recovery }, () => Buffer.alloc(0)), updatedAt: new Date() })
        .where(and(eq(walletShareSets.userId, userId), eq(walletShareSets.setId, setId)))
        .returning({ userId: walletShareSets.userId })
      return updated.length > 0
    },

    /** Opens a sealed share of a row (the auth share, or in operator custody the recovery share). */
    async openShare(row: ShareSetRow, purpose: 'auth' | 'recovery'): Promise<Buffer> {
      const sealed = purpose === 'auth' ? row.authShare : row.recoveryShare
      if (!sealed) throw new Error('The share set has no such share')
      return custody.withDataKey(db, row.userId, (key) =>
        open(key, sealed, shareAad(row.userId, row.setId, purpose)),
      )
    },
  }
}

/** The recovery columns of a set: sealed by the person, sealed here (operator), or none yet. */
function recoveryColumns(
  set: Pick<NewShareSet, 'recoveryShare' | 'recovery'>,
  sealShare: (share: Uint8Array) => Buffer,
) {
  if (set.recoveryShare)
    return {
      recoveryMethod: 'operator' as const,
      recoveryShare: sealShare(set.recoveryShare),
      recoverySealed: null,
      passkeyCredentialId: null,
    }
  if (set.recovery)
    return {
      recoveryMethod: set.recovery.method,
      recoveryShare: null,
      recoverySealed: set.recovery.sealed as unknown as Record<string, unknown>,
      passkeyCredentialId: set.recovery.method === 'passkey' ? set.recovery.credentialId : null,
    }
  return { recoveryMethod: null, recoveryShare: null, recoverySealed: null, passkeyCredentialId: null }
}

export type ShareSets = ReturnType<typeof createShareSets>

/** Of a project's people, those the operator can still recover (and so sign for) without them. */
export interface OperatorRecoverable {
  /** Their current share set's recovery share is the operator's (made in `custody: operator`). */
  recoveryShares: number
  /** Their keys are still the ones the service made before keys were split (moved at their next visit). */
  legacyKeys: number
}

/**
 * How many people of each project the operator can still recover: a recovery share it holds, or keys
 * it made and still keeps. After a switch to `custody: user` these are the people who have not set up
 * their own recovery yet (the frame asks them at their next visit). Projects with nobody are left out.
 *
 * @example
 * const counts = await operatorRecoverable(db, ['shop'])
 * counts.get('shop') // { recoveryShares: 3, legacyKeys: 0 }
 */
export async function operatorRecoverable(
  db: Db,
  projectIds?: readonly string[],
): Promise<Map<string, OperatorRecoverable>> {
  if (projectIds?.length === 0) return new Map()
  const inProjects = projectIds ? inArray(walletUsers.projectId, [...projectIds]) : undefined
  const [shares, legacy] = await Promise.all([
    db
      .select({ projectId: walletUsers.projectId, people: countDistinct(walletShareSets.userId) })
      .from(walletShareSets)
      .innerJoin(walletUsers, eq(walletUsers.id, walletShareSets.userId))
      .where(and(eq(walletShareSets.recoveryMethod, 'operator'), inProjects))
      .groupBy(walletUsers.projectId),
    db
      .select({ projectId: walletUsers.projectId, people: countDistinct(walletKeys.userId) })
      .from(walletKeys)
      .innerJoin(walletUsers, eq(walletUsers.id, walletKeys.userId))
      .where(inProjects)
      .groupBy(walletUsers.projectId),
  ])
  const counts = new Map<string, OperatorRecoverable>()
  const entry = (projectId: string) => {
    const found = counts.get(projectId) ?? { recoveryShares: 0, legacyKeys: 0 }
    counts.set(projectId, found)
    return found
  }
  for (const row of shares) entry(row.projectId).recoveryShares = Number(row.people)
  for (const row of legacy) entry(row.projectId).legacyKeys = Number(row.people)
  return counts
}
