import { computed } from 'nanostores'
import { open } from '../actions/open.ts'
import type { Config } from '../config.ts'

/** Opens the sign-in view when sign-in is on and the connected account has no session. */
function askToSignIn(config: Config): void {
  void import('../siwx/session.ts')
    .then(({ needsSignIn }) => needsSignIn(config))
    .then((needed) => {
      if (needed) void open(config, { view: 'SIWXSignMessage' })
    })
    .catch(() => {})
}

/**
 * Asks for sign-in again when the account shown changes outside a connection attempt (a restored
 * connection, an account or network the wallet switched to) and has no session. A connection the
 * person makes asks through its outcome (see `outcome.ts`), so an attempt in progress is left alone.
 *
 * @example
 * const stop = followSignIn(config)
 */
export function followSignIn(config: Config): () => void {
  const ask = () => {
    // After the change is complete (the namespace shown set, say), as the wallet's change was.
    if (config.$account.get() && config.$connecting.get() === undefined)
      queueMicrotask(() => askToSignIn(config))
  }
  ask()
  return computed(config.$account, (account) => account?.caipAddress).listen(ask)
}
