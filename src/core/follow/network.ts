import { computed } from 'nanostores'
import { navigate } from '../actions/navigate.ts'
import type { Config } from '../config.ts'

/**
 * Keeps the open modal on a sensible view when the network of the connected account changes
 * (the wallet switched, or a switch the person asked for): UnsupportedChain on a network the site
 * does not list, Account again once back on one it does.
 *
 * @example
 * const stop = followNetwork(config)
 */
export function followNetwork(config: Config): () => void {
  // A key that changes only when the network or its support does (not when definitions load).
  const $network = computed([config.$account, config.$network], (account, network) =>
    account && network ? `${network.caipNetworkId} ${network.supported}` : undefined,
  )
  return $network.listen(() => {
    const modal = config.$modal.get()
    const network = config.$network.get()
    if (!modal.open || !network || !config.$account.get()) return
    if (!network.supported && modal.router.view !== 'UnsupportedChain')
      navigate(config, 'UnsupportedChain', {}, 'replace')
    if (network.supported && modal.router.view === 'UnsupportedChain')
      navigate(config, 'Account', {}, 'replace')
  })
}
