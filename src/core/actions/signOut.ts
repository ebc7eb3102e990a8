import type { CaipNetworkId } from '../../protocol/caip.ts'
import { SIGN_OUT_TIMEOUT_MS } from '../../protocol/constants.ts'
import type { Config } from '../config.ts'
import { serviceClient } from '../service.ts'
import { clearSession, storedSession } from '../siwx/session.ts'

/**
 * Waits for a sign-out call, 3 s at most (SPEC section 9); its failure is not waited on either.
 *
 * @example
 * await bounded(connector.disconnect({ namespace }))
 */
export const bounded = (promise: Promise<unknown>) =>
  Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, SIGN_OUT_TIMEOUT_MS)),
  ])

/**
 * Signs out: the session is forgotten at once, the site's verifier (`revokeSession`) or the
 * service is told (waiting 3 s at most), and `wallet-sign-out` is dispatched.
 *
 * @example
 * await signOut(config)
 */
export async function signOut(config: Config): Promise<void> {
  const account = config.$account.get()
  const verifier = config.$options.get().siwxVerifier
  const stored = storedSession(config, account?.caipAddress)
  const known = config.$session.get()
  const hadSession =
    stored !== undefined || (known !== undefined && known.caipAddress === account?.caipAddress)
  clearSession(config)
  config.internal.pendingConnect = undefined
  config.$siwx.set({ status: 'idle', error: undefined })
  if (verifier && account) {
    const chainId = account.caipAddress.slice(0, account.caipAddress.lastIndexOf(':')) as CaipNetworkId
    await bounded(Promise.resolve().then(() => verifier.revokeSession(chainId, account.address)))
  }
  if (!hadSession) return
  const http = serviceClient(config)
  if (http && stored) {
    await bounded(
      http.request('POST', '/auth/v1/sign-out', undefined, undefined, {
        authorization: `Bearer ${stored.token}`,
      }),
    )
  }
  config.events.emit('sign-out', { address: account?.address ?? '' })
}
