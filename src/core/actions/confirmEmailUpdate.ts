import type { BaseError } from '../../errors/index.ts'
import type { EmailUpdateAction } from '../../protocol/embedded/api.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import { embeddedConnector, noteResend } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'

export type ConfirmEmailUpdateErrorType = BaseError

export interface ConfirmEmailUpdateParameters {
  /** Which code: the current address's, then the new address's. */
  step: 'primary' | 'secondary'
  otp: string
}

/**
 * Sends a code of the e-mail update. After the current address's code, the new address gets its
 * code (`VERIFY_SECONDARY_OTP`); after the new address's code, the new address is stored.
 *
 * @example
 * await confirmEmailUpdate(config, { step: 'primary', otp: '123456' }) // { action: 'VERIFY_SECONDARY_OTP' }
 * await confirmEmailUpdate(config, { step: 'secondary', otp: '654321' }) // { email: 'new@example.com' }
 */
export async function confirmEmailUpdate(
  config: Config,
  parameters: ConfirmEmailUpdateParameters,
): Promise<{ action: EmailUpdateAction } | { email: string }> {
  const connector = await embeddedConnector(config)
  const otp = parameters.otp.replace(/\s/g, '')
  if (parameters.step === 'primary') {
    const answer = await connector.frame.request('UPDATE_EMAIL_PRIMARY_OTP', { otp })
    noteResend(config, 30)
    return answer
  }
  const { email } = await connector.frame.request('UPDATE_EMAIL_SECONDARY_OTP', { otp })
  config.storage.set(StorageKey.email, email)
  embeddedState(config).setKey('email', email)
  return { email }
}
