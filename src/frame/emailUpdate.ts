// The frame's change of the signed-in person's e-mail address: a code to each address (SPEC 4).
import { emailUpdatedResponse, emailUpdateResponse } from '../protocol/embedded/index.ts'
import { actionNotAllowed } from './failure.ts'
import type { FrameSession } from './session.ts'
import type { FrameHandlers, FrameWalletDependencies } from './walletTypes.ts'

type EmailUpdateEvent = 'UPDATE_EMAIL' | 'UPDATE_EMAIL_PRIMARY_OTP' | 'UPDATE_EMAIL_SECONDARY_OTP'

/**
 * The handlers of an e-mail update; the update in progress (its id and the code it waits for) stays
 * in this closure until the new address is stored or `reset()` (sign-out).
 *
 * @example
 * const emailUpdate = createEmailUpdate(session, deps)
 * await emailUpdate.handlers.UPDATE_EMAIL({ email: 'new@example.com' })
 */
export function createEmailUpdate(session: FrameSession, { api }: Pick<FrameWalletDependencies, 'api'>) {
  let update: { updateId: string; step: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP' } | undefined

  const handlers: FrameHandlers<EmailUpdateEvent> = {
    async UPDATE_EMAIL({ email }) {
      const answer = await session.withSession((current) =>
        api.request('POST', 'email/update', emailUpdateResponse, { email: email.trim() }, current),
      )
      update = { updateId: answer.updateId, step: answer.action }
      return { action: answer.action }
    },
    async UPDATE_EMAIL_PRIMARY_OTP({ otp }) {
      if (update?.step !== 'VERIFY_PRIMARY_OTP') throw actionNotAllowed()
      const { updateId } = update
      const answer = await session.withSession((current) =>
        api.request(
          'POST',
          'email/update/primary',
          emailUpdateResponse,
          { updateId, otp: otp.replace(/\s/g, '') },
          current,
        ),
      )
      update = { updateId, step: answer.action }
      return { action: answer.action }
    },
    async UPDATE_EMAIL_SECONDARY_OTP({ otp }) {
      if (update?.step !== 'VERIFY_SECONDARY_OTP') throw actionNotAllowed()
      const { updateId } = update
      const answer = await session.withSession((current) =>
        api.request(
          'POST',
          'email/update/secondary',
          emailUpdatedResponse,
          { updateId, otp: otp.replace(/\s/g, '') },
          current,
        ),
      )
      update = undefined
      const { user } = session
      if (user) session.setUser({ ...user, email: answer.email })
      return { email: answer.email }
    },
  }

  return {
    handlers,
    /** Forgets the update in progress (sign-out). */
    reset() {
      update = undefined
    },
  }
}
