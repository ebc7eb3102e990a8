import type { Config } from '../config.ts'
import type { WalletEventName } from '../events/types.ts'
import type { TrackedEvent } from './tracked.ts'
import { TRACKED } from './tracked.ts'

export type { TrackedEvent }
export { TRACKED }

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
