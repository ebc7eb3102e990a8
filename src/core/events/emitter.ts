import type { WalletEventMap, WalletEventName } from './types.ts'

type Listener<K extends WalletEventName> = (detail: WalletEventMap[K]) => boolean | undefined

export interface Emitter {
  on<K extends WalletEventName>(name: K, listener: Listener<K>): () => void
  /** Returns false when a listener cancelled the event (only `request-close` is cancelable). */
  emit<K extends WalletEventName>(name: K, detail: WalletEventMap[K]): boolean
}

/**
 * A typed event emitter owned by each config; the `<wallet-modal>` element turns its events into
 * DOM events. `tap` sees every event first (the client log).
 *
 * @example
 * const stop = createEmitter().on('connect', (detail) => console.log(detail.address))
 */
export function createEmitter(
  tap?: <K extends WalletEventName>(name: K, detail: WalletEventMap[K]) => void,
): Emitter {
  const listeners = new Map<WalletEventName, Set<Listener<never>>>()
  return {
    on(name, listener) {
      let set = listeners.get(name)
      if (!set) {
        set = new Set()
        listeners.set(name, set)
      }
      set.add(listener as Listener<never>)
      return () => set.delete(listener as Listener<never>)
    },
    emit(name, detail) {
      tap?.(name, detail)
      let allowed = true
      for (const listener of listeners.get(name) ?? []) {
        if ((listener as Listener<typeof name>)(detail) === false) allowed = false
      }
      return allowed
    },
  }
}
