/**
 * Sign-in to the embedded wallet by e-mail (SPEC 4): one-time codes, approval of a new browser by a
 * mailed link, the frame's sessions, and changing the e-mail address with a code to each address.
 * Every limit is enforced here, in the database, so it holds for concurrent requests and across
 * instances: the 30 s cooldown and hourly cap per address, a mail budget per project, codes of 6
 * digits valid 10 minutes and once, one live code per address, 5 wrong tries void a code.
 *
 * The order (issue 23, items 1 and 5): every address gets the same answer, a code, whether it has a
 * wallet or not; the code is bound to the browser that asked and checked against it before it is
 * spent; only once the code is proven does a known address on a new browser take the device step, a
 * mailed link whose page shows the site, browser and time and approves only with the short code shown
 * in the browser that is signing in.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto'
import { and, eq, gt, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm'
import type {
  DeviceDetailsResponse,
  DeviceWaitRequest,
  DeviceWaitResponse,
  EmailConnectRequest,
  EmailConnectResponse,
  EmailVerifyRequest,
  EmailVerifyResponse,
  EmbeddedUser,
  SessionResponse,
} from '../../src/protocol/embedded/index.ts'
import {
  compareCodeAlphabet,
  embeddedLimits,
  SESSION_PROOF_WINDOW_MS,
} from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import {
  walletCodes,
  walletDeviceApprovals,
  walletDevices,
  walletEmailUpdates,
  walletFarcasterLogins,
  walletIdentities,
  walletRequests,
  walletSessionNonces,
  walletSessions,
  walletSocialLogins,
  walletUsers,
} from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import type { Mailer, MailMessage } from '../mail/mailer.ts'
import { deviceApprovalMail, emailUpdateCodeMail, loginCodeMail } from '../mail/templates.ts'
import type { Project } from '../projects/store.ts'
import type { Custody } from './custody.ts'
import { actionNotAllowed, EmbeddedError, notSignedIn } from './errors.ts'
import type { CodeHasher } from './secrets.ts'
import { browserLabel, newCode, newId, newSecret, secretHash } from './secrets.ts'
import { checkSessionProof, type SessionProof } from './sessionProof.ts'
import type { EmailThrottle } from './throttle.ts'

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

export interface LoginDependencies {
  db: Db
  custody: Custody
  codes: CodeHasher
  throttle: EmailThrottle
  /** Null when no `SMTP_URL` is configured: e-mail sign-in answers 503. */
  mailer: Mailer | null
  /** The frame's public origin, for approval links. */
  frameUrl: string
  now?: () => number
  logger?: ServiceLogger
  /** How long a device wait is held open (`embeddedLimits.deviceWaitMs`; shorter in tests). */
  deviceWaitMs?: number
  /**
   * Sign-in mails one project may send an hour, all addresses and clients together
   * (`WALLET_MAILS_PER_HOUR`; 0 turns the budget off).
   */
  projectMailsPerHour?: number
}

type UserRow = { id: string; email: string | null; createdAt: Date }

const minutes = (ms: number) => Math.round(ms / 60_000)
const normalizeEmail = (email: string) => email.trim().toLowerCase()
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })

function codeExpired(
  message = 'This code has expired or was already used: ask for a new one',
): EmbeddedError {
  return new EmbeddedError(400, 'CODE_EXPIRED', message, { attemptsLeft: 0 })
}

function bearer(authorization: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9_-]{43}) *$/.exec(authorization ?? '')
  return match?.[1]
}

/**
 * The e-mail sign-in service.
 *
 * @example
 * const login = createLoginService({ db, custody, codes, throttle, mailer, frameUrl })
 * const { action, loginId } = await login.connectEmail(project, { email, deviceId, origin })
 */
export function createLoginService(deps: LoginDependencies) {
  const { db, custody, codes, throttle, mailer } = deps
  const now = deps.now ?? Date.now
  const logger = deps.logger
  let lastCleanup = Number.NEGATIVE_INFINITY

  /** Deletes what has long expired, at most once a minute. */
  async function cleanUp(time: number): Promise<void> {
    if (time - lastCleanup < 60_000) return
    lastCleanup = time
    const dayAgo = new Date(time - 24 * 60 * 60_000)
    try {
      await db.delete(walletCodes).where(lt(walletCodes.expiresAt, dayAgo))
      await db.delete(walletDeviceApprovals).where(lt(walletDeviceApprovals.expiresAt, dayAgo))
      await db.delete(walletEmailUpdates).where(lt(walletEmailUpdates.expiresAt, dayAgo))
      await db.delete(walletRequests).where(lt(walletRequests.expiresAt, dayAgo))
      await db.delete(walletSessions).where(lt(walletSessions.expiresAt, dayAgo))
      await db.delete(walletSessionNonces).where(lt(walletSessionNonces.expiresAt, new Date(time)))
      await db.delete(walletSocialLogins).where(lt(walletSocialLogins.expiresAt, dayAgo))
      await db.delete(walletFarcasterLogins).where(lt(walletFarcasterLogins.expiresAt, dayAgo))
    } catch (error) {
      logger?.warn({ err: error }, 'Could not delete expired embedded-wallet rows')
    }
  }

  /**
   * Sends one mail within the address's throttle and the project's hourly budget; both are given back
   * if sending fails. Sign-in codes have one cooldown per address; approval links (sent only right after
   * a proven code) and e-mail-update codes (only a signed-in wallet asks for them) each have their own,
   * so the link follows its code at once and changing the address right after signing in works.
   */
  async function mail(projectId: string, address: string, message: MailMessage, kind: string): Promise<void> {
    // The device link follows a proven code at once: its own cooldown, or the code's would refuse it.
    const throttleKey = kind.startsWith('update-')
      ? `update:${address}`
      : kind === 'device-approval'
        ? `device:${address}`
        : address
    if (!mailer) {
      throw new EmbeddedError(
        503,
        'MAIL_FAILED',
        'E-mail sign-in is not configured on this service (SMTP_URL)',
      )
    }
    const slot = await throttle.take(projectId, throttleKey, now())
    // The project's budget after the address's: a refused address costs the project nothing.
    let budget: Date | undefined
    try {
      budget = await throttle.takeProject(projectId, deps.projectMailsPerHour ?? 0, now())
    } catch (error) {
      await throttle.release(projectId, throttleKey, slot).catch(() => {})
      throw error
    }
    try {
      await mailer.send(message)
      logger?.info({ projectId, kind }, 'Sign-in mail sent')
    } catch (error) {
      await throttle.release(projectId, throttleKey, slot).catch(() => {})
      if (budget) await throttle.releaseProject(projectId, budget).catch(() => {})
      logger?.error({ projectId, kind, problem: (error as Error).message }, 'Sign-in mail failed')
      throw new EmbeddedError(502, 'MAIL_FAILED', 'The e-mail could not be sent: try again')
    }
  }

  async function insertCode(input: {
    projectId: string
    email: string
    purpose: 'login' | 'update-primary' | 'update-secondary'
    deviceId?: string
  }): Promise<{ id: string; code: string }> {
    const id = newId()
    const code = newCode()
    const time = now()
    await db.insert(walletCodes).values({
      id,
      projectId: input.projectId,
      email: input.email,
      purpose: input.purpose,
      codeHash: codes.hash(id, code),
      deviceId: input.deviceId ?? null,
      createdAt: new Date(time),
      expiresAt: new Date(time + embeddedLimits.otpTtlMs),
    })
    return { id, code }
  }

  /**
   * Checks a typed code against a stored one, counting the try atomically (the `attempts < 5` test and
   * the increment are one statement), then uses it once.
   */
  async function checkCode(
    projectId: string,
    codeId: string,
    purpose: 'login' | 'update-primary' | 'update-secondary',
    otp: string,
    deviceId?: string,
  ) {
    const time = new Date(now())
    if (deviceId !== undefined) {
      // The browser first: a code asked for by another browser is refused without a try or its use.
      const [bound] = await db
        .select({ deviceId: walletCodes.deviceId })
        .from(walletCodes)
        .where(and(eq(walletCodes.id, codeId), eq(walletCodes.projectId, projectId)))
        .limit(1)
      if (bound && bound.deviceId !== deviceId) throw actionNotAllowed()
    }
    const [row] = await db
      .update(walletCodes)
      .set({ attempts: sql`${walletCodes.attempts} + 1` })
      .where(
        and(
          eq(walletCodes.id, codeId),
          eq(walletCodes.projectId, projectId),
          eq(walletCodes.purpose, purpose),
          ...(deviceId === undefined ? [] : [eq(walletCodes.deviceId, deviceId)]),
          isNull(walletCodes.usedAt),
          isNull(walletCodes.voidedAt),
          gt(walletCodes.expiresAt, time),
          lt(walletCodes.attempts, embeddedLimits.otpMaxAttempts),
        ),
      )
      .returning()
    if (!row) throw codeExpired()
    if (!codes.matches(row.id, otp, row.codeHash)) {
      const left = embeddedLimits.otpMaxAttempts - row.attempts
      if (left <= 0) {
        await db.update(walletCodes).set({ voidedAt: time }).where(eq(walletCodes.id, row.id))
        throw codeExpired('Too many wrong codes: this one no longer works, ask for a new one')
      }
      throw new EmbeddedError(
        400,
        'INVALID_CODE',
        `Invalid code: ${left} ${left === 1 ? 'try' : 'tries'} left`,
        {
          attemptsLeft: left,
        },
      )
    }
    const used = await db
      .update(walletCodes)
      .set({ usedAt: time })
      .where(and(eq(walletCodes.id, row.id), isNull(walletCodes.usedAt), isNull(walletCodes.voidedAt)))
      .returning({ id: walletCodes.id })
    if (used.length === 0) throw codeExpired()
    return row
  }

  async function userRow(projectId: string, email: string) {
    const [row] = await db
      .select()
      .from(walletUsers)
      .where(and(eq(walletUsers.projectId, projectId), eq(walletUsers.email, email)))
      .limit(1)
    return row
  }

  /** A new user with both keys: with an e-mail, or none (a social sign-in without a verified one). */
  async function createUser(projectId: string, email: string | null) {
    const id = randomUUID()
    await db.transaction(async (tx) => {
      await tx.insert(walletUsers).values({ id, projectId, email })
      await custody.createKeys(tx as unknown as Db, id)
    })
    const [created] = await db.select().from(walletUsers).where(eq(walletUsers.id, id)).limit(1)
    if (!created) throw new Error('The wallet user was not created')
    logger?.info({ projectId }, 'Created an embedded-wallet user')
    return created
  }

  /** The user of an e-mail, created with both keys on first sign-in. */
  async function findOrCreateUser(projectId: string, email: string) {
    const existing = await userRow(projectId, email)
    if (existing) return existing
    const id = randomUUID()
    await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(walletUsers)
        .values({ id, projectId, email })
        .onConflictDoNothing()
        .returning({ id: walletUsers.id })
      if (inserted.length > 0) await custody.createKeys(tx as unknown as Db, id)
    })
    const created = await userRow(projectId, email)
    if (!created) throw new Error('The wallet user was not created')
    if (created.id === id) logger?.info({ projectId }, 'Created an embedded-wallet user')
    return created
  }

  async function embeddedUserOf(user: UserRow): Promise<EmbeddedUser> {
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
  }

  /**
   * A new session for this browser: bound to its key (`publicKey`, SPKI), whose signature every request
   * of the session must carry (issue 23 item 6).
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
      user: await embeddedUserOf(user),
      ...(known ? {} : { newUser: true }),
    }
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

  /**
   * The short code a device approval shows in the browser that is signing in, derived from the
   * approval's id with the one-time-code key (nothing more to store; unknown without that key).
   */
  function compareCodeOf(approvalId: string): string {
    const bytes = codes.hash(approvalId, 'compare-code')
    let code = ''
    for (let index = 0; index < embeddedLimits.compareCodeLength; index++) {
      code += compareCodeAlphabet[(bytes[index] ?? 0) % compareCodeAlphabet.length]
    }
    return code
  }

  /** Whether a typed compare code (any case, spaces and dashes ignored) is `expected`. */
  function sameCode(typed: string, expected: string): boolean {
    const a = Buffer.from(typed.replace(/[\s-]/g, '').toUpperCase())
    const b = Buffer.from(expected)
    return a.length === b.length && timingSafeEqual(a, b)
  }

  /** The approval row of a link's secret. */
  async function approvalOf(token: string) {
    const [row] = await db
      .select({ approval: walletDeviceApprovals, email: walletUsers.email })
      .from(walletDeviceApprovals)
      .innerJoin(walletUsers, eq(walletUsers.id, walletDeviceApprovals.userId))
      .where(eq(walletDeviceApprovals.tokenHash, secretHash(token)))
      .limit(1)
    if (!row) throw new EmbeddedError(404, 'CODE_EXPIRED', 'This approval link is not valid')
    return row
  }

  function detailsOf(row: Awaited<ReturnType<typeof approvalOf>>): DeviceDetailsResponse {
    const { approval } = row
    const status = approval.approvedAt
      ? 'approved'
      : approval.deniedAt
        ? 'denied'
        : approval.expiresAt.getTime() <= now()
          ? 'expired'
          : 'pending'
    return {
      email: row.email ?? '',
      site: approval.site,
      browser: approval.browser,
      requestedAt: approval.createdAt.toISOString(),
      expiresAt: approval.expiresAt.toISOString(),
      status,
    }
  }

  async function decide(
    token: string,
    decision: 'approve' | 'deny',
    typed?: string,
  ): Promise<DeviceDetailsResponse> {
    const row = await approvalOf(token)
    const time = new Date(now())
    // Approving needs the code the signing-in browser shows: the mailbox alone approves nothing, and
    // one wrong code denies that browser (a guess gets one try in 32^6).
    const matches = typed !== undefined && sameCode(typed, compareCodeOf(row.approval.id))
    // Decides the approval once, while it is pending and not expired; answers whether this call did.
    const settle = async (values: { approvedAt: Date } | { deniedAt: Date }) => {
      const settled = await db
        .update(walletDeviceApprovals)
        .set(values)
        .where(
          and(
            eq(walletDeviceApprovals.id, row.approval.id),
            isNull(walletDeviceApprovals.approvedAt),
            isNull(walletDeviceApprovals.deniedAt),
            gt(walletDeviceApprovals.expiresAt, time),
          ),
        )
        .returning({ id: walletDeviceApprovals.id })
      return settled.length > 0
    }
    if (decision === 'approve' && !matches) {
      if (!(await settle({ deniedAt: time }))) return detailsOf(row)
      logger?.info({}, 'New browser denied: the code did not match')
      throw new EmbeddedError(
        400,
        'INVALID_CODE',
        'The code does not match: that browser was not approved. Sign in again from it for a new link.',
        { attemptsLeft: 0 },
      )
    }
    if (!(await settle(decision === 'approve' ? { approvedAt: time } : { deniedAt: time })))
      return detailsOf(row)
    if (decision === 'approve') {
      await db
        .insert(walletDevices)
        .values({ userId: row.approval.userId, deviceId: row.approval.deviceId, approvedAt: time })
        .onConflictDoNothing()
    }
    logger?.info({ decision }, 'New browser decided')
    return detailsOf(await approvalOf(token))
  }

  /** The update in progress of a session's user, or `Action not allowed`. */
  async function updateOf(session: WalletSession, updateId: string) {
    const [row] = await db
      .select()
      .from(walletEmailUpdates)
      .where(
        and(
          eq(walletEmailUpdates.id, updateId),
          eq(walletEmailUpdates.userId, session.userId),
          isNull(walletEmailUpdates.completedAt),
          gt(walletEmailUpdates.expiresAt, new Date(now())),
        ),
      )
      .limit(1)
    if (!row) throw actionNotAllowed()
    return row
  }

  async function emailTaken(projectId: string, email: string): Promise<boolean> {
    return (await userRow(projectId, email)) !== undefined
  }

  /** Mails the new address its code (after the current address confirmed). */
  async function sendSecondaryCode(session: WalletSession, updateId: string, newEmail: string) {
    const code = await insertCode({
      projectId: session.projectId,
      email: newEmail,
      purpose: 'update-secondary',
    })
    await mail(
      session.projectId,
      newEmail,
      emailUpdateCodeMail({
        to: newEmail,
        code: code.code,
        site: session.site,
        newEmail,
        step: 'new',
        minutes: minutes(embeddedLimits.otpTtlMs),
      }),
      'update-secondary-code',
    )
    await db
      .update(walletEmailUpdates)
      .set({ secondaryCodeId: code.id, expiresAt: new Date(now() + embeddedLimits.otpTtlMs) })
      .where(eq(walletEmailUpdates.id, updateId))
    return { action: 'VERIFY_SECONDARY_OTP' as const, updateId }
  }

  /** A user by id, or 401 (deleted meanwhile). */
  async function userById(id: string): Promise<UserRow> {
    const [row] = await db.select().from(walletUsers).where(eq(walletUsers.id, id)).limit(1)
    if (!row) throw notSignedIn()
    return row
  }

  /** Mails the approval link of a new browser (after its code was proven) and answers VERIFY_DEVICE. */
  async function startDeviceApproval(
    project: Project,
    user: UserRow,
    email: string,
    deviceId: string,
    site: string,
    context: { userAgent?: string | undefined },
  ): Promise<EmailVerifyResponse> {
    const id = newId()
    const token = newSecret()
    const time = now()
    const browser = browserLabel(context.userAgent)
    const link = `${deps.frameUrl}/device#${token}`
    await db.insert(walletDeviceApprovals).values({
      id,
      userId: user.id,
      deviceId,
      tokenHash: secretHash(token),
      site,
      browser,
      createdAt: new Date(time),
      expiresAt: new Date(time + embeddedLimits.deviceApprovalTtlMs),
    })
    try {
      await mail(
        project.id,
        email,
        deviceApprovalMail({
          to: email,
          link,
          site,
          browser,
          requestedAt: new Date(time),
          minutes: minutes(embeddedLimits.deviceApprovalTtlMs),
        }),
        'device-approval',
      )
    } catch (error) {
      await db.delete(walletDeviceApprovals).where(eq(walletDeviceApprovals.id, id))
      throw error
    }
    return { action: 'VERIFY_DEVICE', loginId: id, compareCode: compareCodeOf(id) }
  }

  return {
    sessionOf,
    userRow,
    userById,
    createUser,
    openSession,

    /** The session of a signed request (see `sessionOf`), or 401. */
    async requireSession(project: Project, proof: SessionProof): Promise<WalletSession> {
      const session = await sessionOf(project, proof)
      if (!session) throw notSignedIn()
      return session
    },

    /**
     * `POST /email/connect`: CONNECT (this frame is signed in as that address) or VERIFY_OTP. Every
     * other address gets the same answer and the same mail, whether it has a wallet or not: nothing
     * before a proven code tells a wallet exists (the device step comes after the code). A new code
     * voids the older codes of the address: one live code at a time.
     */
    async connectEmail(
      project: Project,
      body: EmailConnectRequest,
      context: { proof?: SessionProof | undefined; userAgent?: string | undefined },
    ): Promise<EmailConnectResponse> {
      const email = normalizeEmail(body.email)
      await cleanUp(now())
      const current = await sessionOf(project, context.proof)
      if (current && current.email === email && current.deviceId === body.deviceId)
        return { action: 'CONNECT' }
      const resendAfterSeconds = Math.ceil(embeddedLimits.emailCooldownMs / 1000)
      const code = await insertCode({
        projectId: project.id,
        email,
        purpose: 'login',
        deviceId: body.deviceId,
      })
      try {
        await mail(
          project.id,
          email,
          loginCodeMail({
            to: email,
            code: code.code,
            site: body.origin,
            minutes: minutes(embeddedLimits.otpTtlMs),
          }),
          'login-code',
        )
      } catch (error) {
        await db.delete(walletCodes).where(eq(walletCodes.id, code.id))
        throw error
      }
      await db
        .update(walletCodes)
        .set({ voidedAt: new Date(now()) })
        .where(
          and(
            eq(walletCodes.projectId, project.id),
            eq(walletCodes.email, email),
            eq(walletCodes.purpose, 'login'),
            ne(walletCodes.id, code.id),
            isNull(walletCodes.usedAt),
            isNull(walletCodes.voidedAt),
          ),
        )
      return { action: 'VERIFY_OTP', loginId: code.id, resendAfterSeconds }
    },

    /**
     * `POST /email/verify`: the code, checked against the browser that asked for it before it is
     * spent. A new address, or a browser its user approved: a session. A known address on a browser
     * it never approved: VERIFY_DEVICE, with the approval link mailed and the short code this browser
     * shows, which the person types on the link's page.
     */
    async verifyCode(
      project: Project,
      body: EmailVerifyRequest,
      site: string,
      sessionKey: string,
      context: { userAgent?: string | undefined } = {},
    ): Promise<EmailVerifyResponse> {
      const row = await checkCode(project.id, body.loginId, 'login', body.otp, body.deviceId)
      const existing = await userRow(project.id, row.email)
      if (existing) {
        const [known] = await db
          .select()
          .from(walletDevices)
          .where(and(eq(walletDevices.userId, existing.id), eq(walletDevices.deviceId, body.deviceId)))
          .limit(1)
        if (!known) return startDeviceApproval(project, existing, row.email, body.deviceId, site, context)
      }
      const user = existing ?? (await findOrCreateUser(project.id, row.email))
      return openSession(user, project.id, body.deviceId, site, sessionKey)
    },

    /** `POST /device/wait`: holds up to 25 s for the mailed link to be followed, then answers. */
    async waitForDevice(
      project: Project,
      body: DeviceWaitRequest,
      site: string,
      sessionKey: string,
      signal?: AbortSignal,
    ): Promise<DeviceWaitResponse> {
      const deadline = Date.now() + (deps.deviceWaitMs ?? embeddedLimits.deviceWaitMs)
      for (;;) {
        const [row] = await db
          .select({ approval: walletDeviceApprovals, user: walletUsers })
          .from(walletDeviceApprovals)
          .innerJoin(walletUsers, eq(walletUsers.id, walletDeviceApprovals.userId))
          .where(
            and(
              eq(walletDeviceApprovals.id, body.loginId),
              eq(walletDeviceApprovals.deviceId, body.deviceId),
              eq(walletUsers.projectId, project.id),
            ),
          )
          .limit(1)
        if (!row) throw actionNotAllowed()
        const { approval, user } = row
        if (approval.deniedAt) return { status: 'denied' }
        if (approval.approvedAt) {
          const consumed = await db
            .update(walletDeviceApprovals)
            .set({ consumedAt: new Date(now()) })
            .where(and(eq(walletDeviceApprovals.id, approval.id), isNull(walletDeviceApprovals.consumedAt)))
            .returning({ id: walletDeviceApprovals.id })
          if (consumed.length === 0) throw actionNotAllowed()
          return {
            status: 'approved',
            session: await openSession(user, project.id, body.deviceId, site, sessionKey),
          }
        }
        if (approval.expiresAt.getTime() <= now())
          throw codeExpired('The approval link has expired: sign in again')
        if (Date.now() >= deadline || signal?.aborted) return { status: 'pending' }
        await sleep(400, signal)
      }
    },

    /** What the approval page shows. */
    async deviceDetails(token: string): Promise<DeviceDetailsResponse> {
      return detailsOf(await approvalOf(token))
    },

    approveDevice: (token: string, code: string) => decide(token, 'approve', code),
    denyDevice: (token: string) => decide(token, 'deny'),

    /** The signed-in user. */
    async user(session: WalletSession): Promise<EmbeddedUser> {
      return embeddedUserOf(await userById(session.userId))
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

    /**
     * `POST /email/update`: a code to the current address (VERIFY_PRIMARY_OTP). Asked again for the
     * same new address once the current one is confirmed, it sends the new address a fresh code.
     */
    async startEmailUpdate(session: WalletSession, email: string) {
      const newEmail = normalizeEmail(email)
      // A social sign-in without an e-mail has no current address to confirm the change.
      if (session.email === null) throw actionNotAllowed()
      const currentEmail = session.email
      if (newEmail === currentEmail) {
        throw new EmbeddedError(400, 'BAD_REQUEST', "This is already your wallet's e-mail address", {
          field: 'email',
        })
      }
      if (await emailTaken(session.projectId, newEmail)) {
        throw new EmbeddedError(409, 'EMAIL_IN_USE', 'This e-mail address is already in use', {
          field: 'email',
        })
      }
      const time = now()
      const [confirmed] = await db
        .select()
        .from(walletEmailUpdates)
        .where(
          and(
            eq(walletEmailUpdates.userId, session.userId),
            eq(walletEmailUpdates.newEmail, newEmail),
            isNull(walletEmailUpdates.completedAt),
            gt(walletEmailUpdates.expiresAt, new Date(time)),
            isNotNull(walletEmailUpdates.primaryVerifiedAt),
          ),
        )
        .limit(1)
      if (confirmed) return sendSecondaryCode(session, confirmed.id, newEmail)
      const code = await insertCode({
        projectId: session.projectId,
        email: currentEmail,
        purpose: 'update-primary',
      })
      await mail(
        session.projectId,
        currentEmail,
        emailUpdateCodeMail({
          to: currentEmail,
          code: code.code,
          site: session.site,
          newEmail,
          step: 'current',
          minutes: minutes(embeddedLimits.otpTtlMs),
        }),
        'update-primary-code',
      )
      const id = newId()
      await db.insert(walletEmailUpdates).values({
        id,
        userId: session.userId,
        newEmail,
        primaryCodeId: code.id,
        createdAt: new Date(time),
        expiresAt: new Date(time + embeddedLimits.otpTtlMs),
      })
      return { action: 'VERIFY_PRIMARY_OTP' as const, updateId: id }
    },

    /** `POST /email/update/primary`: the current address's code; then a code goes to the new one. */
    async verifyPrimary(session: WalletSession, body: { updateId: string; otp: string }) {
      const update = await updateOf(session, body.updateId)
      if (update.primaryVerifiedAt !== null) throw actionNotAllowed()
      await checkCode(session.projectId, update.primaryCodeId, 'update-primary', body.otp)
      await db
        .update(walletEmailUpdates)
        .set({ primaryVerifiedAt: new Date(now()) })
        .where(eq(walletEmailUpdates.id, update.id))
      return sendSecondaryCode(session, update.id, update.newEmail)
    },

    /** `POST /email/update/secondary`: the new address's code; the new address is stored. */
    async verifySecondary(session: WalletSession, body: { updateId: string; otp: string }) {
      const update = await updateOf(session, body.updateId)
      if (update.primaryVerifiedAt === null || update.secondaryCodeId === null) throw actionNotAllowed()
      await checkCode(session.projectId, update.secondaryCodeId, 'update-secondary', body.otp)
      try {
        await db.transaction(async (tx) => {
          await tx
            .update(walletUsers)
            .set({ email: update.newEmail, updatedAt: new Date(now()) })
            .where(eq(walletUsers.id, session.userId))
          await tx
            .update(walletEmailUpdates)
            .set({ completedAt: new Date(now()) })
            .where(eq(walletEmailUpdates.id, update.id))
          // Whoever held a session by the old address loses it: only this browser, which proved both
          // addresses, stays signed in (issue 23 item 6).
          await tx
            .update(walletSessions)
            .set({ revokedAt: new Date(now()) })
            .where(
              and(
                eq(walletSessions.userId, session.userId),
                ne(walletSessions.id, session.id),
                isNull(walletSessions.revokedAt),
              ),
            )
        })
      } catch (error) {
        if (await emailTaken(session.projectId, update.newEmail)) {
          throw new EmbeddedError(409, 'EMAIL_IN_USE', 'This e-mail address is already in use', {
            field: 'email',
          })
        }
        throw error
      }
      logger?.info({ projectId: session.projectId }, 'Embedded-wallet e-mail changed')
      return { email: update.newEmail }
    },
  }
}

export type LoginService = ReturnType<typeof createLoginService>
