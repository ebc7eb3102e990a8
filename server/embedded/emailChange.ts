/**
 * Changing a wallet's e-mail address: a code to the current address, then one to the new address;
 * the change revokes every other session of the person, so a thief's session does not outlive it.
 */
import { and, eq, gt, isNotNull, isNull, ne } from 'drizzle-orm'
import { embeddedLimits } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletEmailUpdates, walletSessions, walletUsers } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import { emailUpdateCodeMail } from '../mail/templates.ts'
import type { Codes } from './codes.ts'
import { actionNotAllowed, EmbeddedError } from './errors.ts'
import { type LoginMail, minutes } from './loginMail.ts'
import { newId } from './secrets.ts'
import type { WalletSession } from './sessions.ts'
import { normalizeEmail, type Users } from './users.ts'

export interface EmailChangeDependencies {
  db: Db
  users: Pick<Users, 'emailTaken'>
  codes: Codes
  mail: LoginMail
  now?: () => number
  logger?: ServiceLogger
}

const emailInUse = () =>
  new EmbeddedError(409, 'EMAIL_IN_USE', 'This e-mail address is already in use', { field: 'email' })

/**
 * The e-mail change of a signed-in wallet.
 *
 * @example
 * const change = createEmailChange({ db, users, codes, mail })
 * const { updateId } = await change.startEmailUpdate(session, 'new@example.com')
 */
export function createEmailChange(deps: EmailChangeDependencies) {
  const { db, users, codes, mail, logger } = deps
  const now = deps.now ?? Date.now

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

  /**
   * Makes the code of one step of an e-mail change and mails it: to the current address first
   * (`current`), then to the new one (`new`).
   */
  async function mailUpdateCode(
    session: WalletSession,
    to: string,
    newEmail: string,
    step: 'current' | 'new',
  ) {
    const purpose = step === 'current' ? 'update-primary' : 'update-secondary'
    return codes.mailNewCode({ projectId: session.projectId, email: to, purpose }, (otp) =>
      mail(
        session.projectId,
        to,
        emailUpdateCodeMail({
          to,
          code: otp,
          site: session.site,
          newEmail,
          step,
          minutes: minutes(embeddedLimits.otpTtlMs),
        }),
        `${purpose}-code`,
      ),
    )
  }

  /** Mails the new address its code (after the current address confirmed). */
  async function sendSecondaryCode(session: WalletSession, updateId: string, newEmail: string) {
    const code = await mailUpdateCode(session, newEmail, newEmail, 'new')
    await db
      .update(walletEmailUpdates)
      .set({ secondaryCodeId: code.id, expiresAt: new Date(now() + embeddedLimits.otpTtlMs) })
      .where(eq(walletEmailUpdates.id, updateId))
    return { action: 'VERIFY_SECONDARY_OTP' as const, updateId }
  }

  return {
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
      if (await users.emailTaken(session.projectId, newEmail)) throw emailInUse()
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
      const code = await mailUpdateCode(session, currentEmail, newEmail, 'current')
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
      await codes.checkCode(session.projectId, update.primaryCodeId, 'update-primary', body.otp)
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
      await codes.checkCode(session.projectId, update.secondaryCodeId, 'update-secondary', body.otp)
      try {
        // One transaction: the address, the update's end and the other sessions' end go together.
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
          // addresses, stays signed in.
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
        if (await users.emailTaken(session.projectId, update.newEmail)) throw emailInUse()
        throw error
      }
      logger?.info({ projectId: session.projectId }, 'Embedded-wallet e-mail changed')
      return { email: update.newEmail }
    },
  }
}
