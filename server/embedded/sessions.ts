/**
 * The frame's sessions: opened for a user on the key of the browser that signed in, found again from
 * a request signed with that key (the proof itself is checked in sessionProof.ts), and revoked.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { SessionResponse, WalletKeyState } from '../../src/protocol/embedded/index.ts'
import { embeddedLimits, SESSION_PROOF_WINDOW_MS } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletDevices, walletSessionNonces, walletSessions, walletUsers } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Project } from '../projects/store.ts'
import { notSignedIn } from './errors.ts'
import { newSecret, secretHash } from './secrets.ts'
import { checkSessionProof, type SessionProof } from './sessionProof.ts'
import type { UserRow, Users } from './users.ts'

/** A signed-in frame: who, on which project, browser and site. */
export interface WalletSession {
  id: string
  userId: string
  projectId: string
  deviceId: string
  site: string
  /** Null for a social sign-in without a verified e-mail. */
  email: string | null
}

export interface SessionsDependencies {
  db: Db
  users: Pick<Users, 'embeddedUserOf' | 'userById'>
  /** Where a user's keys stand (userKeys.ts `state`). */
  keys: { state(userId: string, projectId: string): Promise<WalletKeyState> }
  now?: () => number
  logger?: ServiceLogger
}

function bearer(authorization: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9_-]{43}) *$/.exec(authorization ?? '')
  return match?.[1]
}

/**
 * The sessions of the embedded wallet.
 *
 * @example
 * const sessions = createSessions({ db, users })
 * const session = await sessions.requireSession(project, proof)
 */
export function createSessions(deps: SessionsDependencies) {
  const { db, users } = deps
  const now = deps.now ?? Date.now
  const logger = deps.logger

  /**
   * A new session for this browser: bound to its key (`publicKey`, SPKI), whose signature every request
   * of the session must carry, so a token copied out of the browser is refused.
   */
  async function openSession(
    user: UserRow,
    projectId: string,
    deviceId: string,
    site: string,
    publicKey: string,
  ): Promise<SessionResponse> {
    const token = newSecret()
    const time = now()
    const expiresAt = new Date(time + embeddedLimits.sessionTtlMs)
    // A person's first sign-in: no browser of theirs is known yet (devices are never forgotten).
    const [known] = await db
      .select({ id: walletDevices.userId })
      .from(walletDevices)
      .where(eq(walletDevices.userId, user.id))
      .limit(1)
    await db
      .insert(walletDevices)
      .values({ userId: user.id, deviceId, approvedAt: new Date(time) })
      .onConflictDoNothing()
    await db.insert(walletSessions).values({
      id: randomUUID(),
      userId: user.id,
      projectId,
      deviceId,
      site,
      tokenHash: secretHash(token),
      createdAt: new Date(time),
      expiresAt,
      lastUsedAt: new Date(time),
      publicKey,
    })
    return {
      token,
      expiresAt: expiresAt.toISOString(),
      ...(await whoAndKeys(user, projectId)),
      ...(known ? {} : { newUser: true }),
    }
  }

  /**
   * Where the user's keys stand, and the user once they have accounts (`ready`, or `legacy`: custody
   * keys not taken over by the frame yet): what every sign-in answers, and `GET me`.
   */
  async function whoAndKeys(user: UserRow, projectId: string) {
    const keys = await deps.keys.state(user.id, projectId)
    return keys.state === 'none' ? { keys } : { keys, user: await users.embeddedUserOf(user) }
  }

  /**
   * The session of a request: its bearer token names a live session of the project (not revoked, not
   * past its 30 days, used within the last 7), and the request is signed by the key of the browser the
   * session was opened in, at a time within 5 minutes of ours, with a nonce never used before. A token
   * alone (copied out of the browser) is refused like no token.
   */
  async function sessionOf(
    project: Project,
    proof: SessionProof | undefined,
  ): Promise<WalletSession | undefined> {
    const token = bearer(proof?.authorization)
    if (!token || !proof) return undefined
    const time = now()
    const [row] = await db
      .select({ session: walletSessions, email: walletUsers.email })
      .from(walletSessions)
      .innerJoin(walletUsers, eq(walletUsers.id, walletSessions.userId))
      .where(
        and(
          eq(walletSessions.tokenHash, secretHash(token)),
          eq(walletSessions.projectId, project.id),
          isNull(walletSessions.revokedAt),
          gt(walletSessions.expiresAt, new Date(time)),
        ),
      )
      .limit(1)
    if (!row) return undefined
    const { session } = row
    const lastUsed = (session.lastUsedAt ?? session.createdAt).getTime()
    if (time - lastUsed > embeddedLimits.sessionIdleMs) return undefined
    const nonce = session.publicKey ? checkSessionProof(session.publicKey, proof, time) : undefined
    if (!nonce) {
      logger?.warn({ projectId: project.id }, 'A session token came without its browser signature')
      return undefined
    }
    const fresh = await db
      .insert(walletSessionNonces)
      .values({ sessionId: session.id, nonce, expiresAt: new Date(time + 2 * SESSION_PROOF_WINDOW_MS) })
      .onConflictDoNothing()
      .returning({ nonce: walletSessionNonces.nonce })
    if (fresh.length === 0) {
      logger?.warn({ projectId: project.id }, 'A signed session request was replayed')
      return undefined
    }
    if (time - lastUsed > 60_000) {
      await db
        .update(walletSessions)
        .set({ lastUsedAt: new Date(time) })
        .where(eq(walletSessions.id, session.id))
    }
    return {
      id: session.id,
      userId: session.userId,
      projectId: session.projectId,
      deviceId: session.deviceId,
      site: session.site,
      email: row.email,
    }
  }

  return {
    openSession,
    sessionOf,
    whoAndKeys,

    /**
     * The session that ends a social or Farcaster sign-in: for the user its identity belongs to, on the
     * browser that started the sign-in.
     */
    async openSessionFor(
      userId: string,
      projectId: string,
      deviceId: string,
      site: string,
      publicKey: string,
    ): Promise<SessionResponse> {
      return openSession(await users.userById(userId), projectId, deviceId, site, publicKey)
    },

    /** The session of a signed request (see `sessionOf`), or 401. */
    async requireSession(project: Project, proof: SessionProof): Promise<WalletSession> {
      const session = await sessionOf(project, proof)
      if (!session) throw notSignedIn()
      return session
    },

    /** `POST /sign-out`: ends this session (a signed request of it, like every other). */
    async signOut(session: WalletSession): Promise<void> {
      await db
        .update(walletSessions)
        .set({ revokedAt: new Date(now()) })
        .where(and(eq(walletSessions.id, session.id), isNull(walletSessions.revokedAt)))
    },

    /**
     * `POST /sign-out-everywhere`: ends every session of the person, in every browser, this one too;
     * answers how many were live.
     */
    async signOutEverywhere(session: WalletSession): Promise<{ revoked: number }> {
      const revoked = await db
        .update(walletSessions)
        .set({ revokedAt: new Date(now()) })
        .where(and(eq(walletSessions.userId, session.userId), isNull(walletSessions.revokedAt)))
        .returning({ id: walletSessions.id })
      logger?.info({ projectId: session.projectId, revoked: revoked.length }, 'Signed out everywhere')
      return { revoked: revoked.length }
    },
  }
}

export type Sessions = ReturnType<typeof createSessions>
