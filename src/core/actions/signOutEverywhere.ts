import { FailedToDisconnectError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { disconnect } from './disconnect.ts'
import { reportError } from './reportError.ts'

export type SignOutEverywhereErrorType = FailedToDisconnectError

/**
 * Signs the embedded wallet's person out of every browser (against a stolen session): the frame asks the
 * service to end every session of theirs (`SIGN_OUT { everywhere: true }`), then this site
 * disconnects. A revoke the service did not confirm is reported as `Failed to disconnect`.
 *
 * @example
 * button.onclick = () => void signOutEverywhere(config)
 */
export async function signOutEverywhere(config: Config): Promise<void> {
  try {
    // Loaded when asked for, like the rest of the embedded wallet.
    const { embeddedConnector } = await import('../embedded.ts')
    const connector = await embeddedConnector(config)
    await connector.frame.request('SIGN_OUT', { everywhere: true })
  } catch (error) {
    reportError(config, new FailedToDisconnectError({ cause: error }))
  }
  await disconnect(config)
}
