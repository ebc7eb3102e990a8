/**
 * Sign-in by an e-mailed code (SPEC 4): every address gets the same answer, a
 * code, whether it has a wallet or not; the code is bound to the browser that asked and checked
 * against it before it is spent; only once the code is proven does a known address on a new browser
 * take the device step (deviceApproval.ts).
 */
import type {
  EmailConnectRequest,
  EmailConnectResponse,
  EmailVerifyRequest,
  EmailVerifyResponse,
} from '../../src/protocol/embedded/index.ts'
import { embeddedLimits } from '../../src/protocol/embedded/index.ts'
import { loginCodeMail } from '../mail/templates.ts'
import type { Project } from '../projects/store.ts'
import type { Codes } from './codes.ts'
import type { DeviceApproval } from './deviceApproval.ts'
import { type LoginMail, minutes } from './loginMail.ts'
import type { SessionProof } from './sessionProof.ts'
import type { Sessions } from './sessions.ts'
import { normalizeEmail, type Users } from './users.ts'

export interface EmailCodeDependencies {
  users: Pick<Users, 'userRow' | 'findOrCreateUser'>
  sessions: Pick<Sessions, 'openSession' | 'sessionOf'>
  codes: Codes
  devices: Pick<DeviceApproval, 'isKnown' | 'start'>
  mail: LoginMail
  /** Deletes long-expired rows (called on each new sign-in). */
  cleanUp: (time: number) => Promise<void>
  now?: () => number
}

/**
 * The e-mail code sign-in.
 *
 * @example
 * const email = createEmailCodeLogin({ users, sessions, codes, devices, mail, cleanUp })
 * const { action, loginId } = await email.connectEmail(project, { email, deviceId, origin }, {})
 */
export function createEmailCodeLogin(deps: EmailCodeDependencies) {
  const { users, sessions, codes, devices, mail } = deps
  const now = deps.now ?? Date.now

  return {
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
      await deps.cleanUp(now())
      const current = await sessions.sessionOf(project, context.proof)
      if (current && current.email === email && current.deviceId === body.deviceId)
        return { action: 'CONNECT' }
      const resendAfterSeconds = Math.ceil(embeddedLimits.emailCooldownMs / 1000)
      const code = await codes.mailNewCode(
        { projectId: project.id, email, purpose: 'login', deviceId: body.deviceId },
        (otp) =>
          mail(
            project.id,
            email,
            loginCodeMail({
              to: email,
              code: otp,
              site: body.origin,
              minutes: minutes(embeddedLimits.otpTtlMs),
            }),
            'login-code',
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
      const row = await codes.checkCode(project.id, body.loginId, 'login', body.otp, body.deviceId)
      const existing = await users.userRow(project.id, row.email)
      if (existing && !(await devices.isKnown(existing.id, body.deviceId)))
        return devices.start(project, existing, row.email, body.deviceId, site, context)
      const user = existing ?? (await users.findOrCreateUser(project.id, row.email))
      return sessions.openSession(user, project.id, body.deviceId, site, sessionKey)
    },
  }
}
