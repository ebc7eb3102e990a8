import { SIGN_OUT_TIMEOUT_MS } from '../constants.ts'
import type { Config } from '../createConfig.ts'
import { serviceClient } from '../service.ts'
import { clearSession, storedSession } from '../siwx/session.ts'

/**
 * Signs out: the stored session is forgotten at once, the service is told (waiting 3 s at most,
 * SPEC section 9), and `wallet-sign-out` is dispatched.
 *
 * @example
 * await signOut(config)
 */
export async function signOut(config: Config): Promise<void> {
  const account = config.$account.get()
  const session = storedSession(config, account?.caipAddress)
  clearSession(config)
  config.$siwx.set({ status: 'idle', error: undefined })
  if (!session) return
  const http = serviceClient(config)
  if (http) {
    await Promise.race([
      http
        .request('POST', '/auth/v1/sign-out', undefined, undefined, {
          authorization: `Bearer ${session.token}`,
        })
        .catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, SIGN_OUT_TIMEOUT_MS)),
    ])
  }
  config.events.emit('sign-out', { address: account?.address ?? '' })
}
