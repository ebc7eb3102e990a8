import type { Config } from '../config.ts'
import type { View } from '../modal/router.ts'
import { back, push, replace } from '../modal/router.ts'

/**
 * Moves the open modal to another view, keeping history for the back button.
 *
 * @example
 * navigate(config, 'Networks')
 * navigate(config, 'back')
 */
export function navigate(
  config: Config,
  view: View | 'back',
  data?: Record<string, unknown>,
  mode: 'push' | 'replace' = 'push',
): void {
  const router = config.$modal.get().router
  const next =
    view === 'back' ? back(router) : mode === 'push' ? push(router, view, data) : replace(router, view, data)
  config.$modal.set({ ...config.$modal.get(), router: next, blockedReason: undefined })
}
