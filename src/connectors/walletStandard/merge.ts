import type { ChainNamespace } from '../../protocol/caip.ts'
import type { Connector } from '../types.ts'

const sameWallet = (a: Connector, b: Connector) => a.name.trim().toLowerCase() === b.name.trim().toLowerCase()

/**
 * One connector for a wallet that serves several ecosystems: each call goes to the part that
 * serves the namespace. Keeps the first part's id, so what was remembered for it still matches.
 */
function combine(primary: Connector, others: readonly Connector[]): Connector {
  const parts = [primary, ...others]
  const partFor = (namespace: ChainNamespace): Connector =>
    parts.find((part) => part.namespaces.includes(namespace)) ?? primary
  return {
    id: primary.id,
    name: primary.name,
    type: primary.type,
    icon: primary.icon ?? others.find((part) => part.icon)?.icon,
    rdns: primary.rdns,
    namespaces: [...new Set(parts.flatMap((part) => part.namespaces))],
    connect: (parameters) => partFor(parameters.namespace).connect(parameters),
    reconnect: (parameters) => partFor(parameters.namespace).reconnect(parameters),
    disconnect: (parameters) => partFor(parameters.namespace).disconnect(parameters),
    switchNetwork: (parameters) => partFor(parameters.namespace).switchNetwork(parameters),
    getProvider: (namespace) => partFor(namespace).getProvider(namespace),
    subscribe(listener, namespace) {
      // One namespace's part when asked, so each event reaches a listener once.
      const stops = (namespace ? [partFor(namespace)] : parts).map((part) =>
        part.subscribe(listener, namespace),
      )
      return () => {
        for (const stop of stops) stop()
      }
    },
  }
}

/**
 * Browser wallets with their other-ecosystem counterparts (Wallet Standard Solana and Bitcoin wallets,
 * WBIP004 Bitcoin providers): a wallet that announces itself several ways under one name appears once
 * with every namespace, even without an EVM side.
 *
 * @example
 * mergeConnectors(injected, others) // [Demo Wallet (eip155, solana, bip122), Other Solana Wallet]
 */
export function mergeConnectors(injected: readonly Connector[], others: readonly Connector[]): Connector[] {
  const used = new Set<Connector>()
  const withTwins = (connector: Connector) => {
    const twins = others.filter(
      (candidate) => candidate !== connector && !used.has(candidate) && sameWallet(candidate, connector),
    )
    for (const twin of twins) used.add(twin)
    return twins.length > 0 ? combine(connector, twins) : connector
  }
  const merged = injected.map(withTwins)
  for (const connector of others) {
    if (used.has(connector)) continue
    used.add(connector)
    merged.push(withTwins(connector))
  }
  return merged
}
