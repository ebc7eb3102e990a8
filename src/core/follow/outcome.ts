import { close } from '../actions/close.ts'
import type { Config } from '../config.ts'
import { show } from './show.ts'

/**
 * Moves the modal after what the person did: a connection asks for sign-in (the account has no
 * session) or closes the modal (unless it was made to stay, a network switch say); a disconnect and
 * a sign-in close it; a connection on a network the site does not list shows UnsupportedChain. The actions only record the outcome in `$outcome`.
 *
 * @example
 * const stop = followOutcome(config)
 */
export function followOutcome(config: Config): () => void {
  return config.$outcome.listen((outcome) => {
    if (!outcome) return
    if (outcome.type === 'connected') {
      if (outcome.signIn) show(config, 'SIWXSignMessage')
      else if (!outcome.keepOpen) void close(config, { force: true })
      return
    }
    if (outcome.type === 'unsupported') {
      if (config.$modal.get().open) show(config, 'UnsupportedChain')
    } else void close(config, { force: true })
  })
}
