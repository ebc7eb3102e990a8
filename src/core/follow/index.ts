import type { Config } from '../config.ts'
import { watchOtherTabs } from '../connection/tabs.ts'
import { followOutcome } from './outcome.ts'

/**
 * Starts what follows a change of the stores (the modal's view, balances, sign-in, the profile),
 * so the connection records and the actions only change state. Started by `createConfig`: the
 * outcome of what the person does is followed at once; the rest (the view after the wallet's own
 * changes, balances, profile, sign-in) from the first connection attempt on (`later.ts`, off the
 * first paint). Returns a function that stops them all.
 *
 * @example
 * const stop = startFollowers(config)
 */
export function startFollowers(config: Config): () => void {
  // The page's other tabs, and this one's return from the background (connection/tabs.ts).
  const stops = [followOutcome(config), watchOtherTabs(config)]
  let stopped = false
  let waiting = true
  const stopWaiting = config.$connections.listen(() => {
    if (!waiting) return
    waiting = false
    stopWaiting()
    void import('./later.ts').then(({ startLaterFollowers }) => {
      if (!stopped) stops.push(startLaterFollowers(config))
    })
  })
  return () => {
    stopped = true
    if (waiting) stopWaiting()
    waiting = false
    for (const stop of stops) stop()
  }
}
