import { STORAGE_PREFIX } from '../../protocol/storageKeys.ts'
import type { Config } from '../config.ts'

/**
 * Keeps this tab in step with the page's other tabs (`./sync.ts`, a chunk of its own), from the first
 * sign that it may be behind: another tab stored something under the storage prefix, or this tab is
 * shown again (back from the background, a phone's suspension, the back-forward cache). A page in one
 * tab that stays in view fetches none of it. Returns how to stop.
 *
 * @example
 * const stop = watchOtherTabs(config)
 */
export function watchOtherTabs(config: Config): () => void {
  let on = true
  for (const type of ['storage', 'pageshow', 'visibilitychange'])
    config.platform.window?.addEventListener(type, (event) => {
      // Another library's key is not ours to follow; a page's first show is no return.
      if (
        on &&
        (event as StorageEvent).key?.startsWith(STORAGE_PREFIX) !== false &&
        (event as PageTransitionEvent).persisted !== false
      )
        void import('./sync.ts').then((sync) => sync.followOtherTabs(config, event))
    })
  return () => {
    on = false
    config.internal.tabSync?.stop()
  }
}
