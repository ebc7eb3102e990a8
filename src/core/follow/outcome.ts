import { close } from '../actions/close.ts'
import { navigate } from '../actions/navigate.ts'
import type { Config } from '../config.ts'

/**
 * Moves the modal after what the person did: a connection asks for sign-in (the account has no
 * session) or closes the modal (unless it was made to stay, a network switch say); a disconnect and
 * a sign-in close it. The actions only record the outcome in `$outcome`.
 *
 * @example
 * const stop = followOutcome(config)
 */
export function followOutcome(config: Config): () => void {
  return config.$outcome.listen((outcome) => {
    if (!outcome) return
    if (outcome.type === 'connected') {
      if (outcome.signIn) navigate(config, 'SIWXSignMessage', {}, 'replace')
      else if (!outcome.keepOpen) void close(config, { force: true })
      return
    }
    void close(config, { force: true })
  })
}
