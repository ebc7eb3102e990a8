import type { BaseError } from '../../errors/index.ts'
import type { Config } from '../createConfig.ts'
import { completeEmbeddedLogin, embeddedConnector } from '../embedded.ts'

export interface VerifyEmailCodeParameters {
  /** The code as typed or pasted (spaces are ignored). */
  otp: string
  signal?: AbortSignal | undefined
}
export type VerifyEmailCodeErrorType = BaseError

/**
 * Sends the mailed one-time code; on success the embedded wallet connects on the site's networks.
 * A wrong code fails with `Invalid code: N tries left`; after 5 wrong tries, or 10 minutes, the code
 * no longer works (`CodeExpiredError`).
 *
 * @example
 * await verifyEmailCode(config, { otp: '123456' })
 */
export async function verifyEmailCode(config: Config, parameters: VerifyEmailCodeParameters): Promise<void> {
  const connector = await embeddedConnector(config)
  await connector.frame.request(
    'CONNECT_OTP',
    { otp: parameters.otp.replace(/\s/g, '') },
    { signal: parameters.signal },
  )
  await completeEmbeddedLogin(config, connector)
}
