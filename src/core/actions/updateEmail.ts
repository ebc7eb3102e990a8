import type { BaseError } from '../../errors/index.ts'
import { ValidationError } from '../../errors/index.ts'
import type { EmailUpdateAction } from '../../protocol/embedded/api.ts'
import { embeddedEmail } from '../../protocol/embedded/email.ts'
import { validate } from '../../protocol/validation.ts'
import type { Config } from '../config.ts'
import { embeddedConnector, noteResend } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'

export interface UpdateEmailParameters {
  /** The new address; a code goes to the current one first. */
  email: string
}
export type UpdateEmailErrorType = BaseError

/**
 * Starts changing the embedded wallet's e-mail (SPEC 4): a code goes to the current address
 * (`VERIFY_PRIMARY_OTP`); asked again once that code was right, a new code goes to the new address.
 *
 * @example
 * const { action } = await updateEmail(config, { email: 'new@example.com' })
 */
export async function updateEmail(
  config: Config,
  parameters: UpdateEmailParameters,
): Promise<{ action: EmailUpdateAction }> {
  const checked = validate(embeddedEmail, parameters.email.trim())
  if (!checked.ok)
    throw new ValidationError(checked.message, { messageId: 'invalidEmail', fields: ['email'] })
  if (checked.value.toLowerCase() === embeddedState(config).get().email?.toLowerCase()) {
    throw new ValidationError("This is already your wallet's e-mail address", {
      messageId: 'sameEmail',
      fields: ['email'],
    })
  }
  const connector = await embeddedConnector(config)
  const answer = await connector.frame.request('UPDATE_EMAIL', { email: checked.value })
  noteResend(config, 30)
  return answer
}
