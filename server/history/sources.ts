import type { ServiceConfig } from '../config.ts'
import type { HistoryNetwork } from './indexer.ts'
import { etherscanHistorySource, type HistorySource } from './upstream.ts'

/** What marks a network's transfers: its swap router (token list) and the on-ramp's senders. */
export function historyNetworkOf(config: ServiceConfig, chainId: string): HistoryNetwork {
  const router = config.tokenLists[chainId]?.uniswapV2?.router
  return {
    chainId,
    onrampSenders: config.onramp.senderAddresses[chainId] ?? [],
    ...(router === undefined ? {} : { swapRouter: router }),
  }
}

/**
 * The upstream history sources of `HISTORY_UPSTREAMS` (Etherscan-compatible account APIs), by network,
 * with the token lists' swap routers and the on-ramp's senders marked as the indexer marks them.
 *
 * @example
 * historySourcesOf(config)['eip155:1']?.page(query)
 */
export function historySourcesOf(config: ServiceConfig): Record<string, HistorySource> {
  const sources: Record<string, HistorySource> = {}
  for (const [chainId, url] of Object.entries(config.historyUpstreams)) {
    sources[chainId] = etherscanHistorySource({
      chainId,
      url,
      apiKey: config.historyUpstreamKey,
      timeoutMs: config.rpcTimeoutMs,
      tokenLists: config.tokenLists,
      network: historyNetworkOf(config, chainId),
    })
  }
  return sources
}
