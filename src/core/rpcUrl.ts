import type { CaipNetworkId } from '../protocol/caip.ts'
import { rpcRequest } from '../services/rpc.ts'
import type { Config } from './createConfig.ts'
import { serviceClient } from './service.ts'

/**
 * Where JSON-RPC reads for a network go: the page's own URL for it (`config.rpcUrls`), else the
 * companion service's RPC proxy when the page configured one (`api-url` and `project-id`), else the
 * network's default RPC.
 *
 * @example
 * rpcUrlFor(config, 'eip155:31337') // 'http://127.0.0.1:8787/v1/?chainId=eip155%3A31337&projectId=dev-project…'
 */
export function rpcUrlFor(config: Config, caipNetworkId: CaipNetworkId): string | undefined {
  const { rpcUrls, projectId } = config.$options.get()
  const own = rpcUrls[caipNetworkId]
  if (own) return own
  const http = serviceClient(config)
  if (http && projectId) return http.url('/v1/', { chainId: caipNetworkId })
  return config.$networks.get().find((network) => network.caipNetworkId === caipNetworkId)?.rpcUrls.default
    .http[0]
}

/**
 * JSON-RPC calls to a network, wherever {@link rpcUrlFor} points (resolved at each call).
 *
 * @example
 * const lamports = await networkRpc(config, 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')('getBalance', [address])
 */
export function networkRpc(config: Config, caipNetworkId: CaipNetworkId) {
  return (method: string, params: readonly unknown[]): Promise<unknown> => {
    const url = rpcUrlFor(config, caipNetworkId)
    if (!url) return Promise.reject(new Error(`No RPC URL for ${caipNetworkId}`))
    return rpcRequest(config.platform.fetch, url, method, params)
  }
}
