import { SITE_WALLET_RDNS } from '../siteWallet.ts'
import type { Connector, Eip1193Provider } from '../types.ts'
import { createInjectedConnector } from './connector.ts'
import { watchAnnouncedWallets } from './discovery.ts'

export type { InjectedConnectorParameters } from './connector.ts'
export { createInjectedConnector } from './connector.ts'
export type { AnnouncedWallet } from './discovery.ts'
export { watchAnnouncedWallets } from './discovery.ts'

/** How long to wait for EIP-6963 announcements before falling back to `window.ethereum`. */
const LEGACY_FALLBACK_MS = 300

/**
 * Watches for browser wallets: every EIP-6963 wallet (but the site's own announcement), or the legacy `window.ethereum` when no
 * EIP-6963 wallet announces itself. Reports the whole list on each change.
 *
 * @example
 * const stop = watchInjectedConnectors(window, (connectors) => render(connectors))
 */
export function watchInjectedConnectors(
  target: Window,
  onChange: (connectors: readonly Connector[]) => void,
): () => void {
  const byRdns = new Map<string, Connector>()
  let legacy: Connector | undefined
  const report = () => onChange(byRdns.size > 0 ? [...byRdns.values()] : legacy ? [legacy] : [])

  const stopWatching = watchAnnouncedWallets(target, ({ info, provider }) => {
    // The site's own wallet (core/announce.ts) is the e-mail sign-in, not a second browser wallet.
    if (info.rdns === SITE_WALLET_RDNS) return
    byRdns.set(
      info.rdns,
      createInjectedConnector({ id: info.rdns, name: info.name, icon: info.icon, rdns: info.rdns, provider }),
    )
    report()
  })
  const timer = setTimeout(() => {
    const ethereum = (target as Window & { ethereum?: Eip1193Provider }).ethereum
    if (byRdns.size === 0 && typeof ethereum?.request === 'function') {
      legacy = createInjectedConnector({ id: 'injected', name: 'Browser Wallet', provider: ethereum })
      report()
    }
  }, LEGACY_FALLBACK_MS)
  return () => {
    clearTimeout(timer)
    stopWatching()
  }
}
