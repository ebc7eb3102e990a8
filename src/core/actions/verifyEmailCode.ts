import type { BaseError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { completeEmbeddedLogin, embeddedConnector } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'
import { navigate } from './navigate.ts'

export interface VerifyEmailCodeParameters {
  /** The code as typed or pasted (spaces are ignored). */
  otp: string
  signal?: AbortSignal | undefined
}
export type VerifyEmailCodeReturnType = { action: 'CONNECT' | 'VERIFY_DEVICE' }
export type VerifyEmailCodeErrorType = BaseError

/**
 * Sends the mailed one-time code; on success the embedded wallet connects on the site's networks.
 * A wrong code fails with `Invalid code: N tries left`; after 5 wrong tries, or 10 minutes, the code
 * no longer works (`CodeExpiredError`). A right code from a browser the address never used answers
 * VERIFY_DEVICE (SPEC 4): the device view shows the code to type on the mailed approval page.
 *
 * @example
 * const { action } = await verifyEmailCode(config, { otp: '123456' })
 */
export async function verifyEmailCode(
  config: Config,
  parameters: VerifyEmailCodeParameters,
): Promise<VerifyEmailCodeReturnType> {
  const connector = await embeddedConnector(config)
  const answer = await connector.frame.request(
    'CONNECT_OTP',
    { otp: parameters.otp.replace(/\s/g, '') },
    { signal: parameters.signal },
  )
  if (answer.action === 'VERIFY_DEVICE' && answer.compareCode) {
    embeddedState(config).setKey('compareCode', answer.compareCode)
    navigate(config, 'EmailVerifyDevice', { email: embeddedState(config).get().email ?? '' })
    return { action: 'VERIFY_DEVICE' }
  }
  await completeEmbeddedLogin(config, connector, embeddedState(config).get().email)
  return { action: 'CONNECT' }
}
