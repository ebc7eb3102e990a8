/**
 * The embedded wallet's users: the record of a person on a project (an e-mail, or none for a social
 * sign-in without a verified one), found or created (without keys: the frame makes them), and
 * what the frame is told of it once it has accounts.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { EmbeddedUser } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletIdentities, walletUsers } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Custody } from './custody.ts'
import { notSignedIn } from './errors.ts'

/** What every sign-in needs of a user row. */
export type UserRow = { id: string; email: string | null; createdAt: Date }

/** An address as it is stored and compared: trimmed, lower case. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

export interface UsersDependencies {
  db: Db
  custody: Custody
  logger?: ServiceLogger
}

/**
 * The users of the embedded wallet.
 *
 * @example
 * const users = createUsers({ db, custody })
 * const user = await users.findOrCreateUser(project.id, 'ada@example.com')
 */
export function createUsers(deps: UsersDependencies) {
  const { db, custody, logger } = deps

  /** The user of an e-mail on a project, if any. */
  async function userRow(projectId: string, email: string) {
    const [row] = await db
      .select()
      .from(walletUsers)
      .where(and(eq(walletUsers.projectId, projectId), eq(walletUsers.email, email)))
      .limit(1)
    return row
  }

  return {
    userRow,

    /** A new user, keys to come: with an e-mail, or none (a social sign-in without a verified one). */
    async createUser(projectId: string, email: string | null) {
      const id = randomUUID()
      await db.insert(walletUsers).values({ id, projectId, email })
      const [created] = await db.select().from(walletUsers).where(eq(walletUsers.id, id)).limit(1)
      if (!created) throw new Error('The wallet user was not created')
      logger?.info({ projectId }, 'Created an embedded-wallet user')
      return created
    },

    /** The user of an e-mail, created on first sign-in (keys to come). */
    async findOrCreateUser(projectId: string, email: string) {
      const existing = await userRow(projectId, email)
      if (existing) return existing
      const id = randomUUID()
      await db.insert(walletUsers).values({ id, projectId, email }).onConflictDoNothing()
      const created = await userRow(projectId, email)
      if (!created) throw new Error('The wallet user was not created')
      if (created.id === id) logger?.info({ projectId }, 'Created an embedded-wallet user')
      return created
    },

    /** A user by id, or 401 (deleted meanwhile). */
    async userById(id: string): Promise<UserRow> {
      const [row] = await db.select().from(walletUsers).where(eq(walletUsers.id, id)).limit(1)
      if (!row) throw notSignedIn()
      return row
    },

    /** Whether an address already belongs to a user of the project. */
    async emailTaken(projectId: string, email: string): Promise<boolean> {
      return (await userRow(projectId, email)) !== undefined
    },

    /**
     * What the frame is told of a user: the address, the latest identity's name and picture, the
     * accounts (a user without keys yet has none: 409, see custody's `noKeysYet`).
     */
    async embeddedUserOf(user: UserRow): Promise<EmbeddedUser> {
      const accounts = await custody.accounts(user.id)
      const [identity] = await db
        .select({
          provider: walletIdentities.provider,
          username: walletIdentities.username,
          pictureUrl: walletIdentities.pictureUrl,
        })
        .from(walletIdentities)
        .where(eq(walletIdentities.userId, user.id))
        .orderBy(sql`${walletIdentities.updatedAt} desc`)
        .limit(1)
      return {
        email: user.email,
        ...(identity?.username ? { userName: identity.username, identityProvider: identity.provider } : {}),
        ...(identity?.pictureUrl ? { userImage: identity.pictureUrl } : {}),
        accounts: {
          eip155: { address: accounts.secp256k1.address, type: 'eoa' },
          solana: { address: accounts.ed25519.address, type: 'eoa' },
        },
        createdAt: user.createdAt.toISOString(),
      }
    },
  }
}

export type Users = ReturnType<typeof createUsers>
