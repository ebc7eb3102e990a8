import { open } from '../actions/open.ts'
import type { Config, ConnectionRecord } from '../config.ts'

/** Opens the sign-in view when sign-in is on and the connected account has no session. */
function askToSignIn(config: Config): void {
  void import('../siwx/session.ts')
    .then(({ needsSignIn }) => needsSignIn(config))
    .then((needed) => {
      if (needed) void open(config, { view: 'SIWXSignMessage' })
    })
    .catch(() => {})
}

/** A connection restored from the last visit, or one whose account or network the wallet changed. */
function asksForSession(before: ConnectionRecord | undefined, now: ConnectionRecord | undefined): boolean {
  if (before === undefined || now?.status !== 'connected') return false
  if (before.status === 'reconnecting') return true
  return (
    before.status === 'connected' &&
    (before.accounts[0] !== now.accounts[0] || before.chainId !== now.chainId)
  )
}

/**
 * Asks for sign-in again when a restored connection, or an account or network the wallet switched
 * to, has no session. (A new connection asks through its outcome: see `outcome.ts`.)
 *
 * @example
 * const stop = followSignIn(config)
 */
export function followSignIn(config: Config): () => void {
  let before = config.$connections.get()
  return config.$connections.listen((connections) => {
    const previous = before
    before = connections
    const namespaces = Object.keys(connections) as (keyof typeof connections)[]
    if (namespaces.some((namespace) => asksForSession(previous[namespace], connections[namespace])))
      // After the change is complete (the namespace shown set, say), as the wallet's change was.
      queueMicrotask(() => askToSignIn(config))
  })
}
