import type { StorageLike } from '../services/storage.ts'

/** Everything the core takes from its surroundings, injected so tests and servers can run it. */
export interface Platform {
  window: Window | undefined
  storage: StorageLike | undefined
  fetch: typeof fetch
  now: () => number
  isMobile: () => boolean
  prefersDark: () => boolean
}

/**
 * The browser platform, guarded for environments without `window`.
 *
 * @example
 * const config = createConfig({}, browserPlatform())
 */
export function browserPlatform(): Platform {
  const win = typeof window === 'undefined' ? undefined : window
  let storage: StorageLike | undefined
  try {
    storage = win?.localStorage
  } catch {
    storage = undefined
  }
  return {
    window: win,
    storage,
    fetch: (...args) => globalThis.fetch(...args),
    now: () => Date.now(),
    isMobile: () =>
      !!win &&
      (/Android|iPhone|iPad|iPod|Mobile/i.test(win.navigator.userAgent) ||
        win.matchMedia?.('(pointer: coarse) and (max-width: 600px)').matches),
    prefersDark: () => !!win?.matchMedia?.('(prefers-color-scheme: dark)').matches,
  }
}
