import type { ReadableAtom } from 'nanostores'
import { useCallback, useSyncExternalStore } from 'react'

/**
 * Subscribes a component to a nanostores store.
 *
 * @example
 * const account = useStore(config.$account)
 */
export function useStore<T>(store: ReadableAtom<T>): T {
  const subscribe = useCallback((onChange: () => void) => store.listen(onChange), [store])
  const get = useCallback(() => store.get(), [store])
  return useSyncExternalStore(subscribe, get, get)
}
