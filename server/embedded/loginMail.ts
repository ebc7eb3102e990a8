/**
 * The mails of the sign-in ways (codes, approval links), each sent within its address's throttle and
 * the project's hourly budget: 30 s between mails and an hourly cap per address, a mail budget per
 * project.
 */
import type { ServiceLogger } from '../logger.ts'
import type { Mailer, MailMessage } from '../mail/mailer.ts'
import { EmbeddedError } from './errors.ts'
import type { EmailThrottle } from './throttle.ts'

/** A duration as the whole minutes a mail states. */
export const minutes = (ms: number) => Math.round(ms / 60_000)

/** What a mail is, which names its throttle: `login-code`, `device-approval`, `update-…-code`. */
export type LoginMailKind =
  | 'login-code'
  | 'device-approval'
  | 'update-primary-code'
  | 'update-secondary-code'
  | 'export-code'
  | 'delete-code'

export interface LoginMailDependencies {
  throttle: EmailThrottle
  /** Null when no `SMTP_URL` is configured: e-mail sign-in answers 503. */
  mailer: Mailer | null
  now?: () => number
  logger?: ServiceLogger
  /** Sign-in mails one project may send an hour (`WALLET_MAILS_PER_HOUR`; 0 turns the budget off). */
  projectMailsPerHour?: number
}

/**
 * The sender of sign-in mails.
 *
 * @example
 * const send = createLoginMail({ throttle, mailer })
 * await send(project.id, email, loginCodeMail({ to: email, code, site, minutes: 10 }), 'login-code')
 */
export function createLoginMail(deps: LoginMailDependencies) {
  const { throttle, mailer, logger } = deps
  const now = deps.now ?? Date.now

  /**
   * Sends one mail within the address's throttle and the project's hourly budget; both are given back
   * if sending fails. Sign-in codes have one cooldown per address; approval links (sent only right after
   * a proven code) and e-mail-update codes (only a signed-in wallet asks for them) each have their own,
   * so the link follows its code at once and changing the address right after signing in works.
   */
  return async function send(
    projectId: string,
    address: string,
    message: MailMessage,
    kind: LoginMailKind,
  ): Promise<void> {
    // The device link follows a proven code at once: its own cooldown, or the code's would refuse it.
    // Export and delete codes (asked by a signed-in wallet) have a cooldown each, so
    // the deletion's code can follow an export at once.
    const throttleKey = kind.startsWith('update-')
      ? `update:${address}`
      : kind === 'export-code' || kind === 'delete-code'
        ? `${kind}:${address}`
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
    // A new browser's approval link is sent only once a mailed code was proven, and codes wait 30 s
    // each: a second wait here would refuse a person signing in on two new browsers within 30 s after
    // their code was already spent. The link still counts in the address's and the project's hour.
    const slot = await throttle.take(projectId, throttleKey, now(), {
      cooldown: kind !== 'device-approval',
    })
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
}

export type LoginMail = ReturnType<typeof createLoginMail>
