import { getWallets } from '@wallet-standard/app'
import type { Wallet } from '@wallet-standard/base'
import { isSiteWallet } from '../siteWallet.ts'
import type { Connector } from '../types.ts'
import { createBitcoinStandardConnector, isBitcoinWallet } from './standard.ts'
import { createWbipConnector, type WbipProviderInfo, WbipProviderInfoSchema, wbipProviderOf } from './wbip.ts'

export { mergeConnectors } from '../walletStandard/merge.ts'
export { createBitcoinStandardConnector, isBitcoinWallet } from './standard.ts'
export { createWbipConnector, wbipProviderOf } from './wbip.ts'

/** Where WBIP004 wallets register: the proposal's `wbip_providers`, and `btc_providers` (Xverse, Leather). */
const REGISTRIES = ['wbip_providers', 'btc_providers'] as const

/**
 * The WBIP004 registry's entries whose provider object is on the window, once per id.
 *
 * @example
 * wbipEntries(window) // [{ info: { id: 'DemoWalletBitcoin', name: 'Demo Wallet', … }, provider }]
 */
export function wbipEntries(win: object) {
  const seen = new Set<string>()
  const found: { info: WbipProviderInfo; provider: NonNullable<ReturnType<typeof wbipProviderOf>> }[] = []
  for (const registry of REGISTRIES) {
    const list = (win as Record<string, unknown>)[registry]
    if (!Array.isArray(list)) continue
    for (const entry of list) {
      const parsed = WbipProviderInfoSchema.safeParse(entry)
      if (!parsed.success || seen.has(parsed.data.id)) continue
      const provider = wbipProviderOf(win, parsed.data)
      if (!provider) continue
      seen.add(parsed.data.id)
      found.push({ info: parsed.data, provider })
    }
  }
  return found
}

const sameName = (a: { name: string }, b: { name: string }) =>
  a.name.trim().toLowerCase() === b.name.trim().toLowerCase()

/**
 * Watches for Bitcoin browser wallets and reports the whole list on each change: Wallet Standard
 * wallets with the Bitcoin features (registered before or after this runs) and WBIP004 providers
 * (read now and once the page has loaded: the registry has no events). A wallet found both ways under
 * one name is one connector (its Wallet Standard side). The site's own wallet is left out. Loaded only
 * when a Bitcoin network is configured.
 *
 * @example
 * const stop = watchBitcoinConnectors(window, (connectors) => render(connectors))
 */
export function watchBitcoinConnectors(
  win: Window,
  onChange: (connectors: readonly Connector[]) => void,
): () => void {
  const registry = getWallets()
  const standard = new Map<Wallet, Connector>()
  const wbip = new Map<string, Connector>()
  const report = () => {
    const fromStandard = [...standard.values()]
    onChange([
      ...fromStandard,
      ...[...wbip.values()].filter((connector) => !fromStandard.some((other) => sameName(other, connector))),
    ])
  }
  const add = (...wallets: Wallet[]) => {
    for (const wallet of wallets)
      if (!standard.has(wallet) && isBitcoinWallet(wallet) && !isSiteWallet(wallet))
        standard.set(wallet, createBitcoinStandardConnector({ wallet }))
    report()
  }
  const remove = (...wallets: Wallet[]) => {
    for (const wallet of wallets) standard.delete(wallet)
    report()
  }
  const scan = () => {
    for (const { info, provider } of wbipEntries(win))
      if (!wbip.has(info.id)) wbip.set(info.id, createWbipConnector({ info, provider }))
    report()
  }
  const offRegister = registry.on('register', add)
  const offUnregister = registry.on('unregister', remove)
  add(...registry.get())
  scan()
  win.addEventListener('load', scan)
  return () => {
    offRegister()
    offUnregister()
    win.removeEventListener('load', scan)
  }
}
