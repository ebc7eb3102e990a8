import type { Config } from '../config.ts'
import { followAccount } from './account.ts'
import { followBalances } from './balances.ts'
import { followNetwork } from './network.ts'
import { followOutcome } from './outcome.ts'
import { followProfile } from './profile.ts'
import { followSignIn } from './signIn.ts'

/**
 * Starts what follows a change of the stores (the modal's view, balances, sign-in, the profile),
 * so the connection records and the actions only change state. Started by `createConfig`; returns
 * a function that stops them all.
 *
 * @example
 * const stop = startFollowers(config)
 */
export function startFollowers(config: Config): () => void {
  const stops = [
    followOutcome,
    followNetwork,
    followAccount,
    followBalances,
    followProfile,
    followSignIn,
  ].map((follow) => follow(config))
  return () => {
    for (const stop of stops) stop()
  }
}
