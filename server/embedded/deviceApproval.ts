/**
 * Approval of a new browser: once a known address has proven its code on a browser
 * it never used, a mailed link's page shows the site, browser and time, and approves only with the
 * short code shown in the browser that is signing in; that browser waits for the decision and then
 * gets its session.
 */
import { timingSafeEqual } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type {
  DeviceDetailsResponse,
  DeviceWaitRequest,
  DeviceWaitResponse,
  EmailVerifyResponse,
} from '../../src/protocol/embedded/index.ts'
import { compareCodeAlphabet, embeddedLimits } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletDeviceApprovals, walletDevices, walletUsers } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import { deviceApprovalMail } from '../mail/templates.ts'
import type { Project } from '../projects/store.ts'
import { codeExpired } from './codes.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import { type LoginMail, minutes } from './loginMail.ts'
import type { CodeHasher } from './secrets.ts'
import { browserLabel, newId, newSecret, secretHash } from './secrets.ts'
import type { Sessions } from './sessions.ts'
import type { UserRow } from './users.ts'

export interface DeviceApprovalDependencies {
  db: Db
  sessions: Pick<Sessions, 'openSession'>
  codes: CodeHasher
  mail: LoginMail
  /** The frame's public origin, for approval links. */
  frameUrl: string
  now?: () => number
  logger?: ServiceLogger
  /** How long a device wait is held open (`embeddedLimits.deviceWaitMs`; shorter in tests). */
  deviceWaitMs?: number
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })

/** Whether a typed compare code (any case, spaces and dashes ignored) is `expected`. */
function sameCode(typed: string, expected: string): boolean {
  const a = Buffer.from(typed.replace(/[\s-]/g, '').toUpperCase())
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The approval of new browsers.
 *
 * @example
 * const devices = createDeviceApproval({ db, sessions, codes, mail, frameUrl })
 * if (!(await devices.isKnown(user.id, deviceId))) return devices.start(project, user, email, deviceId, site, {})
 */
export function createDeviceApproval(deps: DeviceApprovalDependencies) {
  const { db, sessions, codes, mail, logger } = deps
  const now = deps.now ?? Date.now

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

  return {
    /** Whether the user has signed in on (or approved) this browser before. */
    async isKnown(userId: string, deviceId: string): Promise<boolean> {
      const [known] = await db
        .select()
        .from(walletDevices)
        .where(and(eq(walletDevices.userId, userId), eq(walletDevices.deviceId, deviceId)))
        .limit(1)
      return known !== undefined
    },

    /** Mails the approval link of a new browser (after its code was proven) and answers VERIFY_DEVICE. */
    async start(
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
            session: await sessions.openSession(user, project.id, body.deviceId, site, sessionKey),
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
  }
}

export type DeviceApproval = ReturnType<typeof createDeviceApproval>
