import { computed } from 'nanostores'
import { navigate } from '../actions/navigate.ts'
import type { Config } from '../config.ts'

/**
 * Keeps the modal's view in step with the account: an inline modal shows the account as soon as
 * there is one (a restored session, say); once the connection ends, a modal showing the account (or
 * UnsupportedChain) goes back to Connect.
 *
 * @example
 * const stop = followAccount(config)
 */
export function followAccount(config: Config): () => void {
  const $caipAddress = computed(config.$account, (account) => account?.caipAddress)
  return $caipAddress.listen((caipAddress) => {
    const modal = config.$modal.get()
    if (caipAddress) {
      if (config.$options.get().inline && modal.router.view === 'Connect')
        navigate(config, 'Account', {}, 'replace')
      return
    }
    // Ended, not merely connecting again.
    const record = config.$connections.get()[config.$activeNamespace.get()]
    if (record !== undefined && record.status !== 'disconnected') return
    if (modal.open && (modal.router.view === 'Account' || modal.router.view === 'UnsupportedChain'))
      navigate(config, 'Connect', {}, 'replace')
  })
}
