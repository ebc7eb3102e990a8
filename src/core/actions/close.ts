import { SHAKE_MS } from '../../protocol/constants.ts'
import type { Config } from '../config.ts'
import { canClose, embeddedHome, startAt } from '../modal/router.ts'
import { hasSession } from '../siwx/gate.ts'

/** Plays the 500 ms shake that signals a blocked close. */
export function shake(config: Config): void {
  config.$modal.setKey('shake', true)
  setTimeout(() => config.$modal.setKey('shake', false), SHAKE_MS)
}

export interface CloseParameters {
  /** Skip the cancelable `wallet-request-close` (closing after a successful connect, say). */
  force?: boolean
}

/**
 * Closes the modal unless the sign-in rule blocks it or the page cancels `wallet-request-close`;
 * a blocked close shakes (and, for the sign-in rule, says why). Closing resets any pairing in
 * progress. An inline modal stays in the page and returns to Account when connected, otherwise
 * Connect (SPEC section 2, embedded mode).
 *
 * @example
 * const closed = await close(config)
 */
export async function close(config: Config, parameters: CloseParameters = {}): Promise<boolean> {
  const state = config.$modal.get()
  if (!state.open) return true
  const view = state.router.view
  if (!parameters.force) {
    const signInRequired = !canClose({
      view,
      siwxRequired: config.$options.get().siwx === 'required',
      hasSession: hasSession(config),
    })
    if (signInRequired || !config.events.emit('request-close', { view })) {
      if (signInRequired) config.$modal.setKey('blockedReason', 'signInRequired')
      shake(config)
      return false
    }
  }
  config.$connecting.set(undefined)
  // Closing resets the pairing link (SPEC section 2).
  config.internal.pairing?.stop()
  if (config.$options.get().inline) {
    const home = startAt(embeddedHome(config.$account.get() !== undefined))
    config.$modal.set({ ...config.$modal.get(), router: home, blockedReason: undefined })
    return true
  }
  config.$modal.set({ ...config.$modal.get(), open: false, blockedReason: undefined })
  config.events.emit('close', {})
  return true
}
