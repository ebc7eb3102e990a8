import { getWallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import { isSiteWallet } from '../siteWallet.ts'
import type { Connector } from '../types.ts'
import { createWalletStandardConnector, isSolanaWallet } from './connector.ts'

export { createWalletStandardConnector, isSolanaWallet } from './connector.ts'
export { mergeConnectors } from './merge.ts'

/**
 * Watches the Wallet Standard registry for Solana wallets (registered before or after this runs)
 * and reports the whole list on each change. The site's own wallet (core/announce.ts) is left out:
 * Connect offers it as the e-mail sign-in. Loaded only when a Solana network is configured.
 *
 * @example
 * const stop = watchWalletStandardConnectors((connectors) => render(connectors))
 */
export function watchWalletStandardConnectors(
  onChange: (connectors: readonly Connector[]) => void,
): () => void {
  const registry = getWallets()
  const byWallet = new Map<Wallet, Connector>()
  const report = () => onChange([...byWallet.values()])
  const add = (...wallets: Wallet[]) => {
    for (const wallet of wallets) {
      if (!byWallet.has(wallet) && isSolanaWallet(wallet) && !isSiteWallet(wallet))
        byWallet.set(wallet, createWalletStandardConnector({ wallet }))
    }
    report()
  }
  const remove = (...wallets: Wallet[]) => {
    for (const wallet of wallets) byWallet.delete(wallet)
    report()
  }
  const offRegister = registry.on('register', add)
  const offUnregister = registry.on('unregister', remove)
  add(...registry.get())
  return () => {
    offRegister()
    offUnregister()
  }
}
