import type { Config } from '../config.ts'
import type { View } from '../modal/router.ts'
import { replace } from '../modal/router.ts'

/**
 * Shows another view in place of the current one, as `navigate(config, view, {}, 'replace')` does;
 * here so that the followers, on the first paint with `createConfig`, do not carry the navigate action.
 *
 * @example
 * show(config, 'Account')
 */
export function show(config: Config, view: View): void {
  const modal = config.$modal.get()
  config.$modal.set({ ...modal, router: replace(modal.router, view), blockedReason: undefined })
}
