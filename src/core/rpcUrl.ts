import type { Network } from '../protocol/entities.ts'
import type { Config } from './createConfig.ts'
import { serviceClient } from './service.ts'

/**
 * Where the modal sends its own JSON-RPC reads for a network: the companion service's RPC proxy
 * when the page configured one (`api-url` and `project-id`), unless the page set its own RPC URL
 * for that network in `config.rpcUrls`; otherwise the network's default RPC.
 *
 * @example
 * rpcUrlFor(config, network) // 'http://127.0.0.1:8787/v1/?chainId=eip155%3A31337&projectId=dev-project…'
 */
export function rpcUrlFor(config: Config, network: Network): string | undefined {
  const { rpcUrls, projectId } = config.$options.get()
  const own = rpcUrls[network.caipNetworkId]
  if (own) return own
  const http = serviceClient(config)
  if (http && projectId) return http.url('/v1/', { chainId: network.caipNetworkId })
  return network.rpcUrls.default.http[0]
}
