import type { Config } from '../config.ts'
import { followBalances } from './balances.ts'
import { followProfile } from './profile.ts'
import { followSignIn } from './signIn.ts'
import { followView } from './view.ts'

/**
 * The followers of the wallet's own changes, and those that start reads (balances, profile, the
 * sign-in check): loaded with the first connection attempt, off the first paint. Each also acts on the state it finds when it starts.
 *
 * @example
 * const stop = startLaterFollowers(config)
 */
export function startLaterFollowers(config: Config): () => void {
  const stops = [followView(config), followBalances(config), followProfile(config), followSignIn(config)]
  return () => {
    for (const stop of stops) stop()
  }
}
