import type { BaseError } from '../../errors/index.ts'
import { ValidationError } from '../../errors/index.ts'
import type { EmailConnectAction } from '../../protocol/embedded/api.ts'
import { embeddedEmail } from '../../protocol/embedded/email.ts'
import { validate } from '../../protocol/validation.ts'
import type { Config } from '../config.ts'
import { completeEmbeddedLogin, embeddedConnector, noteResend } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'
import { navigate } from './navigate.ts'

export interface ConnectEmailParameters {
  email: string
  signal?: AbortSignal | undefined
}
export type ConnectEmailReturnType = { action: EmailConnectAction }
export type ConnectEmailErrorType = BaseError

/**
 * Starts (or resends) an e-mail sign-in to the embedded wallet (SPEC 4): the frame answers
 * `VERIFY_OTP` (a code was mailed: the code view shows; every address gets it, with a wallet or not)
 * or `CONNECT` (this browser is signed in as that address: the connection completes). A known address
 * on a new browser meets `VERIFY_DEVICE` after its code, from `verifyEmailCode`; an older frame that
 * still answers it here gets the device view. A second mail within 30 s fails with
 * `Please try again after N seconds`.
 *
 * @example
 * const { action } = await connectEmail(config, { email: 'ada@example.com' })
 */
export async function connectEmail(
  config: Config,
  parameters: ConnectEmailParameters,
): Promise<ConnectEmailReturnType> {
  const checked = validate(embeddedEmail, parameters.email.trim())
  if (!checked.ok)
    throw new ValidationError(checked.message, { messageId: 'invalidEmail', fields: ['email'] })
  const email = checked.value
  const connector = await embeddedConnector(config)
  try {
    const answer = await connector.frame.request('CONNECT_EMAIL', { email }, { signal: parameters.signal })
    embeddedState(config).setKey('email', email)
    noteResend(config, answer.resendAfterSeconds ?? 30)
    if (answer.action === 'CONNECT') await completeEmbeddedLogin(config, connector, email)
    else {
      const view = answer.action === 'VERIFY_OTP' ? 'EmailVerifyOtp' : 'EmailVerifyDevice'
      const router = config.$modal.get().router
      // A resend keeps the view; the first answer moves to it.
      if (router.view !== view) navigate(config, view, { email })
    }
    return { action: answer.action }
  } catch (error) {
    const secondsLeft = (error as { secondsLeft?: unknown }).secondsLeft
    if (typeof secondsLeft === 'number') noteResend(config, secondsLeft)
    throw error
  }
}
