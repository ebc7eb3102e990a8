import { type BitcoinNetworkKind, bitcoinNetworkKind } from '../../chains/bip122/networks.ts'
import { ValidationError } from '../../errors/index.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Config } from '../config.ts'

/**
 * Where a Bitcoin network is read and sent to: the page's own node URL for it (`rpc-urls`), else the
 * network's (the local regtest node's API, or mempool.space's Esplora API). Not the service's RPC
 * proxy: that one speaks JSON-RPC, and these are REST APIs.
 *
 * @example
 * bitcoinNode(config, 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328') // { url: 'http://127.0.0.1:8794', kind: 'regtest', fetch }
 */
export function bitcoinNode(
  config: Config,
  caipNetworkId: CaipNetworkId,
): { url: string; kind: BitcoinNetworkKind; fetch: typeof fetch } {
  const kind = bitcoinNetworkKind(caipNetworkId)
  const url =
    config.$options.get().rpcUrls[caipNetworkId]?.[0] ??
    config.$networks.get().find((network) => network.caipNetworkId === caipNetworkId)?.rpcUrls.default.http[0]
  if (!kind || !url) throw new ValidationError(`No node URL for ${caipNetworkId}`)
  return { url, kind, fetch: config.platform.fetch }
}
