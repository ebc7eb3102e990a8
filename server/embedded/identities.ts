/**
 * The people behind social and Farcaster sign-ins: a provider's identity of a person, kept once per
 * project, provider and subject, and the wallet user it belongs to.
 */
import { and, eq } from 'drizzle-orm'
import type { SocialProvider } from '../../src/protocol/rules.ts'
import type { Db } from '../db/database.ts'
import { walletIdentities } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import { socialFailed } from './errors.ts'
import type { Users } from './users.ts'

/** What a provider says about the person, mapped to one shape. */
export interface SocialIdentity {
  subject: string
  email: string | null
  /** Only a provider's own "verified" flag counts; an e-mail without it never links accounts. */
  emailVerified: boolean
  /** Left out: the name kept from an earlier sign-in stays (a sign-in that brings none, a mini app's). */
  username?: string | null
  /** A profile picture (Farcaster's pfpUrl); the OAuth providers' are not kept. Left out: kept as it is. */
  pictureUrl?: string | null
}

export interface IdentitiesDependencies {
  db: Db
  users: Pick<Users, 'userRow' | 'createUser'>
  now?: () => number
  logger?: ServiceLogger
}

/**
 * The identities of social and Farcaster sign-ins.
 *
 * @example
 * const identities = createIdentities({ db, users })
 * const userId = await identities.userOf(project.id, 'github', identity)
 */
export function createIdentities(deps: IdentitiesDependencies) {
  const { db, users } = deps
  const now = deps.now ?? Date.now

  return {
    /**
     * The user of a provider identity: the one it belongs to; else, when the provider asserts a
     * verified e-mail, the user of that e-mail (one wallet); else a new user (with that verified
     * e-mail, or none). An unverified e-mail never joins an existing user.
     */
    async userOf(
      projectId: string,
      provider: SocialProvider | 'farcaster',
      identity: SocialIdentity,
    ): Promise<string> {
      const key = and(
        eq(walletIdentities.projectId, projectId),
        eq(walletIdentities.provider, provider),
        eq(walletIdentities.subject, identity.subject),
      )
      const [known] = await db.select().from(walletIdentities).where(key).limit(1)
      const fields = {
        ...(identity.username === undefined ? {} : { username: identity.username }),
        ...(identity.pictureUrl === undefined ? {} : { pictureUrl: identity.pictureUrl }),
        email: identity.email,
        emailVerified: identity.emailVerified,
        updatedAt: new Date(now()),
      }
      if (known) {
        await db.update(walletIdentities).set(fields).where(key)
        return known.userId
      }
      const verifiedEmail = identity.emailVerified ? identity.email : null
      const byEmail = verifiedEmail ? await users.userRow(projectId, verifiedEmail) : undefined
      const user = byEmail ?? (await users.createUser(projectId, verifiedEmail))
      const inserted = await db
        .insert(walletIdentities)
        .values({ projectId, provider, subject: identity.subject, userId: user.id, ...fields })
        .onConflictDoNothing()
        .returning({ userId: walletIdentities.userId })
      if (inserted[0]) {
        deps.logger?.info({ projectId, provider, linked: byEmail !== undefined }, 'Social identity added')
        return inserted[0].userId
      }
      // Two callbacks of one identity at once: the first one's user wins.
      const [winner] = await db.select().from(walletIdentities).where(key).limit(1)
      if (!winner) throw socialFailed('The sign-in could not be saved')
      return winner.userId
    },
  }
}

export type Identities = ReturnType<typeof createIdentities>
