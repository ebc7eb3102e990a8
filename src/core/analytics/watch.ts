import type { Config } from '../createConfig.ts'
import type { WalletEventMap, WalletEventName } from '../events/types.ts'

/**
 * What the modal reports, by the event that causes it. Nothing happens before the person acts;
 * errors (`ERROR`, SPEC section 9 error telemetry) only after another tracked event.
 */
export const TRACKED: Partial<Record<WalletEventName, string>> = {
  open: 'MODAL_OPEN',
  close: 'MODAL_CLOSE',
  connect: 'CONNECT_SUCCESS',
  disconnect: 'DISCONNECT_SUCCESS',
  'network-change': 'SWITCH_NETWORK',
  error: 'ERROR',
}

export type TrackedEvent = { name: WalletEventName; detail: WalletEventMap[WalletEventName]; at: number }

/**
 * Follows the modal's events for analytics while the page enabled them (`analytics`). Events
 * are buffered here and the tracker (batching, sending) loads on the first one, off the first paint.
 * Returns the function that stops it.
 *
 * @example
 * const stop = watchAnalytics(config)
 */
export function watchAnalytics(config: Config): () => void {
  let tracker: { track(event: TrackedEvent): void; stop(): void } | undefined
  let loading = false
  let acted = false
  const pending: TrackedEvent[] = []
  const stops = (Object.keys(TRACKED) as WalletEventName[]).map((name) =>
    config.events.on(name, (detail) => {
      if (!config.$options.get().analytics) return undefined
      if (name !== 'error') acted = true
      else if (!acted) return undefined
      const event = { name, detail, at: config.platform.now() }
      if (tracker) tracker.track(event)
      else pending.push(event)
      if (!tracker && !loading) {
        loading = true
        void import('./tracker.ts').then(({ createTracker }) => {
          tracker = createTracker(config)
          for (const queued of pending.splice(0)) tracker.track(queued)
        })
      }
      return undefined
    }),
  )
  return () => {
    for (const stop of stops) stop()
    tracker?.stop()
  }
}
