import { computed } from 'nanostores'
import type { Config } from '../config.ts'
import { show } from './show.ts'

/**
 * Keeps the modal's view in step with the account and its network: an inline modal shows the
 * account as soon as there is one (a restored session, say); an open modal shows UnsupportedChain on
 * a network the site does not list, and Account again once back on one it does (the wallet switched,
 * or the person did); once the connection ends, a modal showing either goes back to Connect.
 *
 * @example
 * const stop = followView(config)
 */
export function followView(config: Config): () => void {
  // Changes with the account, its network or the network's support (not when definitions load).
  const $key = computed([config.$account, config.$network], (account, network) =>
    account ? `${account.caipAddress} ${network?.supported}` : undefined,
  )
  const follow = (key: string | undefined) => {
    const modal = config.$modal.get()
    const shown = () => config.$modal.get().router.view
    if (!key) {
      // Ended, not merely connecting again.
      const record = config.$connections.get()[config.$activeNamespace.get()]
      if (record !== undefined && record.status !== 'disconnected') return
      if (modal.open && (shown() === 'Account' || shown() === 'UnsupportedChain')) show(config, 'Connect')
      return
    }
    if (config.$options.get().inline && shown() === 'Connect') show(config, 'Account')
    const network = config.$network.get()
    if (!modal.open || !network) return
    if (!network.supported && shown() !== 'UnsupportedChain') show(config, 'UnsupportedChain')
    if (network.supported && shown() === 'UnsupportedChain') show(config, 'Account')
  }
  // Started with the first connection attempt: what it finds is followed too.
  if ($key.get()) follow($key.get())
  return $key.listen(follow)
}
