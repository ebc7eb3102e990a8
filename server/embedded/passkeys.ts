/**
 * Passkey sign-in and linking for the embedded wallet: WebAuthn ceremonies on the
 * frame's origin (RP ID: the frame's host), verified with `@simplewebauthn/server`. A ceremony's
 * challenge is used once, within 5 minutes, by the frame that started it: `start` gets only the hash of
 * that frame's binding secret and `finish` needs the secret (as Farcaster and social sign-ins do), so
 * knowing a ceremony's id is not enough to finish it. A passkey is a way into one user, beside e-mails
 * and social identities; linking one needs the live session and the new credential's ceremony.
 */
import { randomBytes } from 'node:crypto'
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { and, asc, count, eq, isNull } from 'drizzle-orm'
import type {
  PasskeyListResponse,
  PasskeyLoginFinishRequest,
  PasskeyRegisterFinishRequest,
  PasskeyStartRequest,
  PasskeyStartResponse,
  SessionResponse,
} from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletIdentities, walletPasskeyCeremonies, walletPasskeys, walletUsers } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Project } from '../projects/store.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import { newId, secretHash } from './secrets.ts'
import type { Sessions, WalletSession } from './sessions.ts'
import type { Users } from './users.ts'

/** How long a ceremony's challenge may be answered. */
export const PASSKEY_CEREMONY_TTL_MS = 5 * 60_000

type CeremonyKind = 'register' | 'link' | 'login'

export interface PasskeysDependencies {
  db: Db
  users: Pick<Users, 'createUser' | 'userById'>
  sessions: Pick<Sessions, 'openSessionFor'>
  /** The frame's public URL: its origin is the expected origin, its host name the RP ID. */
  frameUrl: string
  now?: () => number
  logger?: ServiceLogger
}

/** `400 PASSKEY_FAILED` with what did not verify. */
function failed(message: string): EmbeddedError {
  return new EmbeddedError(400, 'PASSKEY_FAILED', message)
}

/** What the person (or an attacker) is told of a verification that failed, by what the library found. */
function verificationFailure(cause: unknown): EmbeddedError {
  const text = cause instanceof Error ? cause.message : ''
  if (/counter/i.test(text)) return failed('This passkey answered with an old counter: it may be a copy')
  if (/origin/i.test(text)) return failed('This passkey answer was made for another site')
  if (/RP ID/i.test(text)) return failed('This passkey belongs to another site')
  if (/user could not be verified|user verification/i.test(text))
    return failed('This passkey did not verify you (PIN, fingerprint or face)')
  return failed('This passkey answer could not be verified')
}

const taken = (message: string) => new EmbeddedError(409, 'PASSKEY_TAKEN', message)

/**
 * The passkey service.
 *
 * @example
 * const passkeys = createPasskeys({ db, users: login.users, sessions: login.sessions, frameUrl })
 * const { ceremonyId, options } = await passkeys.startLogin(project, { deviceId, origin, bindingHash })
 */
export function createPasskeys(deps: PasskeysDependencies) {
  const { db, users, sessions, logger } = deps
  const now = deps.now ?? Date.now
  const frame = new URL(deps.frameUrl)
  const expectedOrigin = frame.origin
  const rpID = frame.hostname

  async function saveCeremony(
    projectId: string,
    kind: CeremonyKind,
    challenge: string,
    binding: { deviceId: string; site: string; bindingHash: string; userId?: string },
  ): Promise<string> {
    const id = newId()
    const time = now()
    await db.insert(walletPasskeyCeremonies).values({
      id,
      projectId,
      kind,
      challenge,
      deviceId: binding.deviceId,
      site: binding.site,
      bindingHash: Buffer.from(binding.bindingHash, 'base64url'),
      userId: binding.userId ?? null,
      createdAt: new Date(time),
      expiresAt: new Date(time + PASSKEY_CEREMONY_TTL_MS),
    })
    return id
  }

  /**
   * Claims a ceremony for its one finish: of this project and kind, started by this browser (device,
   * site and binding secret) and not finished before. A wrong binding leaves it untouched; a claimed one
   * is spent whether or not the answer then verifies.
   */
  async function claim(
    projectId: string,
    kind: CeremonyKind,
    body: { ceremonyId: string; deviceId: string; binding: string },
    site: string,
  ) {
    const [row] = await db
      .update(walletPasskeyCeremonies)
      .set({ consumedAt: new Date(now()) })
      .where(
        and(
          eq(walletPasskeyCeremonies.id, body.ceremonyId),
          eq(walletPasskeyCeremonies.projectId, projectId),
          eq(walletPasskeyCeremonies.kind, kind),
          eq(walletPasskeyCeremonies.deviceId, body.deviceId),
          eq(walletPasskeyCeremonies.site, site),
          eq(walletPasskeyCeremonies.bindingHash, secretHash(body.binding)),
          isNull(walletPasskeyCeremonies.consumedAt),
        ),
      )
      .returning()
    if (!row) throw actionNotAllowed()
    if (row.expiresAt.getTime() <= now())
      throw new EmbeddedError(410, 'PASSKEY_EXPIRED', 'This passkey request expired: try again')
    return row
  }

  async function passkeyRow(credentialId: string) {
    const [row] = await db
      .select()
      .from(walletPasskeys)
      .where(eq(walletPasskeys.credentialId, credentialId))
      .limit(1)
    return row
  }

  /** A registration's answer verified against its ceremony: the new credential. */
  async function verifiedRegistration(challenge: string, body: PasskeyRegisterFinishRequest) {
    let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo']
    try {
      const result = await verifyRegistrationResponse({
        // The schema checked its shape; zod's optional fields read `| undefined`.
        response: body.credential as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin,
        expectedRPID: rpID,
        requireUserVerification: true,
      })
      info = result.verified ? result.registrationInfo : undefined
    } catch (cause) {
      throw verificationFailure(cause)
    }
    if (!info) throw failed('This passkey answer could not be verified')
    return {
      credentialId: info.credential.id,
      publicKey: Buffer.from(info.credential.publicKey),
      counter: info.credential.counter,
      transports: body.credential.response.transports ?? [],
      backedUp: info.credentialBackedUp,
    }
  }

  /** The person's passkeys, oldest first. */
  async function list(userId: string): Promise<PasskeyListResponse> {
    const rows = await db
      .select()
      .from(walletPasskeys)
      .where(eq(walletPasskeys.userId, userId))
      .orderBy(asc(walletPasskeys.createdAt))
    return {
      passkeys: rows.map((row) => ({
        id: row.credentialId,
        createdAt: row.createdAt.toISOString(),
        lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      })),
    }
  }

  /** Keeps a verified credential for a user; one a user already has is refused. */
  async function keep(
    projectId: string,
    userId: string,
    credential: Awaited<ReturnType<typeof verifiedRegistration>>,
  ) {
    const inserted = await db
      .insert(walletPasskeys)
      .values({ projectId, userId, ...credential, createdAt: new Date(now()) })
      .onConflictDoNothing()
      .returning({ id: walletPasskeys.credentialId })
    return inserted.length > 0
  }

  async function registrationOptions(project: Project, userName: string, userId: string | null) {
    const existing = userId ? (await list(userId)).passkeys : []
    return generateRegistrationOptions({
      rpName: project.name,
      rpID,
      userName,
      userID: randomBytes(32),
      attestationType: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: existing.map((passkey) => ({ id: passkey.id })),
      timeout: PASSKEY_CEREMONY_TTL_MS,
    })
  }

  return {
    list: (session: WalletSession) => list(session.userId),

    /** `POST /passkey/register/start`: a new person's first passkey (the user is made at `finish`). */
    async startRegister(project: Project, body: PasskeyStartRequest): Promise<PasskeyStartResponse> {
      const options = await registrationOptions(project, `${project.name} wallet`, null)
      const ceremonyId = await saveCeremony(project.id, 'register', options.challenge, {
        deviceId: body.deviceId,
        site: body.origin,
        bindingHash: body.bindingHash,
      })
      return { ceremonyId, options: { ...options } }
    },

    /**
     * `POST /passkey/register/finish`: the credential verified, a new user with a wallet for it (like a
     * first e-mail sign-in), and a session on this browser's key.
     */
    async finishRegister(
      project: Project,
      body: PasskeyRegisterFinishRequest,
      site: string,
      sessionKey: string,
    ): Promise<SessionResponse> {
      const ceremony = await claim(project.id, 'register', body, site)
      const credential = await verifiedRegistration(ceremony.challenge, body)
      if (await passkeyRow(credential.credentialId))
        throw taken('This passkey is already linked to an account: sign in with it instead')
      const user = await users.createUser(project.id, null)
      if (!(await keep(project.id, user.id, credential))) {
        // The same credential registered twice at once: the other one won; this user has no way in.
        await db.delete(walletUsers).where(eq(walletUsers.id, user.id))
        throw taken('This passkey is already linked to an account: sign in with it instead')
      }
      logger?.info({ projectId: project.id }, 'Passkey registered for a new user')
      return sessions.openSessionFor(user.id, project.id, body.deviceId, site, sessionKey)
    },

    /** `POST /passkey/link/start`: a new passkey for the signed-in person, on the browser of the session. */
    async startLink(
      project: Project,
      session: WalletSession,
      body: PasskeyStartRequest,
    ): Promise<PasskeyStartResponse> {
      if (body.deviceId !== session.deviceId || body.origin !== session.site) throw actionNotAllowed()
      const user = await users.userById(session.userId)
      const options = await registrationOptions(project, user.email ?? `${project.name} wallet`, user.id)
      const ceremonyId = await saveCeremony(project.id, 'link', options.challenge, {
        deviceId: body.deviceId,
        site: body.origin,
        bindingHash: body.bindingHash,
        userId: user.id,
      })
      return { ceremonyId, options: { ...options } }
    },

    /**
     * `POST /passkey/link/finish`: proof of both sides, the live session (the same person who started
     * the ceremony) and the new credential's answer to it; a passkey of another user is refused.
     */
    async finishLink(
      project: Project,
      session: WalletSession,
      body: PasskeyRegisterFinishRequest,
      site: string,
    ): Promise<PasskeyListResponse> {
      const ceremony = await claim(project.id, 'link', body, site)
      if (ceremony.userId !== session.userId) throw actionNotAllowed()
      const credential = await verifiedRegistration(ceremony.challenge, body)
      const known = await passkeyRow(credential.credentialId)
      if (known && known.userId !== session.userId)
        throw taken('This passkey is already linked to another account')
      if (known || !(await keep(project.id, session.userId, credential)))
        throw taken('This passkey is already added to your account')
      logger?.info({ projectId: project.id }, 'Passkey linked to a user')
      return list(session.userId)
    },

    /** `POST /passkey/login/start`: a challenge for any passkey of the frame's origin (discoverable). */
    async startLogin(project: Project, body: PasskeyStartRequest): Promise<PasskeyStartResponse> {
      const options = await generateAuthenticationOptions({
        rpID,
        userVerification: 'required',
        timeout: PASSKEY_CEREMONY_TTL_MS,
      })
      const ceremonyId = await saveCeremony(project.id, 'login', options.challenge, {
        deviceId: body.deviceId,
        site: body.origin,
        bindingHash: body.bindingHash,
      })
      return { ceremonyId, options: { ...options } }
    },

    /**
     * `POST /passkey/login/finish`: the signed challenge verified against the stored key (origin, RP
     * ID, user verification, a counter that only goes up), then a session for the passkey's user.
     */
    async finishLogin(
      project: Project,
      body: PasskeyLoginFinishRequest,
      site: string,
      sessionKey: string,
    ): Promise<SessionResponse> {
      const ceremony = await claim(project.id, 'login', body, site)
      const known = await passkeyRow(body.credential.id)
      if (!known || known.projectId !== project.id)
        throw new EmbeddedError(404, 'PASSKEY_UNKNOWN', 'This passkey is not linked to any account here')
      let newCounter: number
      try {
        const result = await verifyAuthenticationResponse({
          response: body.credential as AuthenticationResponseJSON,
          expectedChallenge: ceremony.challenge,
          expectedOrigin,
          // The frame runs get() inside the site's page: the browser names that page (crossOrigin,
          // topOrigin), and it must be the site the ceremony was started for.
          expectedTopOrigin: site,
          expectedRPID: rpID,
          credential: {
            id: known.credentialId,
            publicKey: new Uint8Array(known.publicKey),
            counter: known.counter,
          },
          requireUserVerification: true,
        })
        if (!result.verified) throw failed('This passkey answer could not be verified')
        newCounter = result.authenticationInfo.newCounter
      } catch (cause) {
        throw cause instanceof EmbeddedError ? cause : verificationFailure(cause)
      }
      // Compare and set: two answers of one counter value at once, only one gets in.
      const moved = await db
        .update(walletPasskeys)
        .set({ counter: newCounter, lastUsedAt: new Date(now()) })
        .where(
          and(eq(walletPasskeys.credentialId, known.credentialId), eq(walletPasskeys.counter, known.counter)),
        )
        .returning({ id: walletPasskeys.credentialId })
      if (moved.length === 0) throw failed('This passkey answered with an old counter: it may be a copy')
      logger?.info({ projectId: project.id }, 'Passkey sign-in')
      return sessions.openSessionFor(known.userId, project.id, body.deviceId, site, sessionKey)
    },

    /**
     * `POST /passkeys/remove`: forgets one of the person's passkeys, unless it is their last way in
     * (no e-mail, no social identity, no other passkey).
     */
    async remove(session: WalletSession, credentialId: string): Promise<PasskeyListResponse> {
      const mine = and(
        eq(walletPasskeys.credentialId, credentialId),
        eq(walletPasskeys.userId, session.userId),
      )
      const [row] = await db.select().from(walletPasskeys).where(mine).limit(1)
      if (!row) throw new EmbeddedError(404, 'PASSKEY_UNKNOWN', 'This passkey is not linked to your account')
      const user = await users.userById(session.userId)
      const [identities] = await db
        .select({ n: count() })
        .from(walletIdentities)
        .where(eq(walletIdentities.userId, session.userId))
      const [passkeys] = await db
        .select({ n: count() })
        .from(walletPasskeys)
        .where(eq(walletPasskeys.userId, session.userId))
      if (user.email === null && (identities?.n ?? 0) === 0 && (passkeys?.n ?? 0) <= 1)
        throw new EmbeddedError(
          409,
          'PASSKEY_LAST_WAY',
          'This passkey is your only way in: add an e-mail or another passkey first',
        )
      await db.delete(walletPasskeys).where(mine)
      return list(session.userId)
    },
  }
}

export type Passkeys = ReturnType<typeof createPasskeys>
