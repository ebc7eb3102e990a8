import type { BaseError } from '../../errors/index.ts'
import { RequestAbortedError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import { completeEmbeddedLogin, embeddedConnector } from '../embedded.ts'
import { embeddedState } from '../embeddedState.ts'

export interface WaitForDeviceParameters {
  /** Stops waiting (the person left the view). */
  signal: AbortSignal
}
export type WaitForDeviceErrorType = BaseError

/**
 * Waits for the person to approve this browser with the mailed link (VERIFY_DEVICE), asking the
 * frame again each time it answers "still pending" (each request up to 30 s), then connects.
 *
 * @example
 * const controller = new AbortController()
 * await waitForDevice(config, { signal: controller.signal })
 */
export async function waitForDevice(config: Config, parameters: WaitForDeviceParameters): Promise<void> {
  const connector = await embeddedConnector(config)
  for (;;) {
    if (parameters.signal.aborted) throw new RequestAbortedError()
    try {
      await connector.frame.request('CONNECT_DEVICE', {}, { signal: parameters.signal })
      break
    } catch (error) {
      if ((error as { reason?: unknown }).reason !== 'DEVICE_PENDING') throw error
    }
  }
  await completeEmbeddedLogin(config, connector, embeddedState(config).get().email)
}
