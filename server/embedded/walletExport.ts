/**
 * Export and leave: after a code mailed afresh for it, the service's auth share goes
 * to the frame that asked (never logged, never cached), which combines it with its device share and
 * shows the keys; the export is recorded (the time, no key), and once exported the wallet can be
 * deleted from the service with a second fresh code.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import {
  type ExportCodePurpose,
  type ExportResponse,
  embeddedLimits,
} from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletExports, walletSessions, walletUsers } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import { exportCodeMail } from '../mail/templates.ts'
import type { Codes } from './codes.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import { type LoginMail, minutes } from './loginMail.ts'
import type { WalletSession } from './sessions.ts'
import { keysMessages, type UserKeys } from './userKeys.ts'

export interface WalletExportDependencies {
  db: Db
  keys: Pick<UserKeys, 'state' | 'authShare'>
  codes: Codes
  mail: LoginMail
  now?: () => number
  logger?: ServiceLogger
}

/** Deleting before the keys were ever shown would lose the wallet: refused. */
export const exportFirst = () =>
  new EmbeddedError(409, 'EXPORT_FIRST', 'Export your wallet before you delete it: its keys would be lost')

/** A legacy wallet's keys are still the operator's: the frame takes them over first. */
export const migrateFirstMessage =
  "Your wallet's keys are still kept by the service: open the wallet once to move them to your browser, then export"

/** A person signed in without an e-mail address has nowhere to get a fresh code. */
const noEmail = () =>
  new EmbeddedError(
    403,
    'FORBIDDEN',
    'Your wallet has no e-mail address to send a code to: add one from your account first',
  )

/**
 * The export and deletion of a signed-in wallet.
 *
 * @example
 * const leave = createWalletExport({ db, keys, codes, mail })
 * const { codeId } = await leave.mailCode(session, 'export')
 * const keys = await leave.exportKeys(session, { codeId, otp: '123456' })
 */
export function createWalletExport(deps: WalletExportDependencies) {
  const { db, keys, codes, mail, logger } = deps
  const now = deps.now ?? Date.now

  /** Whether the user's keys were exported (recorded by `exportKeys`). */
  async function exported(userId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: walletExports.id })
      .from(walletExports)
      .where(and(eq(walletExports.userId, userId), isNull(walletExports.deletedAt)))
      .limit(1)
    return row !== undefined
  }

  /**
   * Spends a code mailed for `purpose` to this session's address from this browser: a sign-in code, an
   * e-mail-update code or one of the other purpose does not count, and each counts once.
   */
  async function spendCode(
    session: WalletSession,
    purpose: ExportCodePurpose,
    body: { codeId: string; otp: string },
  ) {
    if (session.email === null) throw noEmail()
    const row = await codes.checkCode(session.projectId, body.codeId, purpose, body.otp, session.deviceId)
    if (row.email !== session.email) throw actionNotAllowed()
  }

  return {
    exported,

    /** `POST /export/code`: a fresh code to the wallet's address, for the export or the deletion. */
    async mailCode(session: WalletSession, purpose: ExportCodePurpose) {
      if (session.email === null) throw noEmail()
      if (purpose === 'delete' && !(await exported(session.userId))) throw exportFirst()
      const to = session.email
      const code = await codes.mailNewCode(
        { projectId: session.projectId, email: to, purpose, deviceId: session.deviceId },
        (otp) =>
          mail(
            session.projectId,
            to,
            exportCodeMail({
              to,
              code: otp,
              site: session.site,
              purpose,
              minutes: minutes(embeddedLimits.otpTtlMs),
            }),
            `${purpose}-code`,
          ),
      )
      return { codeId: code.id, resendAfterSeconds: Math.ceil(embeddedLimits.emailCooldownMs / 1000) }
    },

    /**
     * `POST /export`: the auth share, after the fresh code. The export is recorded first (the time and
     * the session, no share): a failure after it leaves a record, never a share without one. A legacy
     * wallet moves its keys to the frame first (409).
     */
    async exportKeys(session: WalletSession, body: { codeId: string; otp: string }): Promise<ExportResponse> {
      const state = await keys.state(session.userId, session.projectId)
      if (state.state === 'legacy') throw new EmbeddedError(409, 'NOT_AVAILABLE', migrateFirstMessage)
      if (state.state === 'none') throw new EmbeddedError(409, 'NOT_AVAILABLE', keysMessages.notReady)
      await spendCode(session, 'export', body)
      await db.insert(walletExports).values({
        id: randomUUID(),
        projectId: session.projectId,
        userId: session.userId,
        sessionId: session.id,
        exportedAt: new Date(now()),
      })
      const share = await keys.authShare(session)
      logger?.info(
        { projectId: session.projectId },
        'Embedded-wallet keys exported (the auth share, to the frame)',
      )
      return share
    },

    /**
     * `POST /wallet/delete`: after an export and a second fresh code, the user goes with their keys,
     * identities, browsers, sessions (every browser is signed out) and account preference; the export
     * record stays, marked deleted. The same address signing in later gets a new wallet.
     */
    async deleteWallet(session: WalletSession, body: { codeId: string; otp: string }) {
      if (!(await exported(session.userId))) throw exportFirst()
      await spendCode(session, 'delete', body)
      const revoked = await db.transaction(async (tx) => {
        const live = await tx
          .update(walletSessions)
          .set({ revokedAt: new Date(now()) })
          .where(and(eq(walletSessions.userId, session.userId), isNull(walletSessions.revokedAt)))
          .returning({ id: walletSessions.id })
        // Cascades to the keys and data keys, identities, devices, sessions, requests and batches.
        await tx.delete(walletUsers).where(eq(walletUsers.id, session.userId))
        await tx
          .update(walletExports)
          .set({ deletedAt: new Date(now()) })
          .where(and(eq(walletExports.userId, session.userId), isNull(walletExports.deletedAt)))
        return live.length
      })
      logger?.info({ projectId: session.projectId, revoked }, 'Embedded-wallet deleted')
      return { deleted: true as const, revoked }
    },
  }
}

export type WalletExport = ReturnType<typeof createWalletExport>
