import type { CaipNetworkId, ChainNamespace } from '../protocol/caip.ts'
import { CaipNetworkIdSchema } from '../protocol/caip.ts'
import { StorageKey } from '../protocol/storage.ts'
import type { Config } from './config.ts'

const namespaceOf = (id: string) => id.split(':')[0]

/**
 * The network a namespace's connection should use: the one shown now when it is of that
 * namespace, else the one just chosen for it, else the last one used there, else the first of
 * that namespace in `networks`.
 *
 * @example
 * networkFor(config, 'solana') // 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
 */
export function networkFor(config: Config, namespace: ChainNamespace): CaipNetworkId | undefined {
  const { networks } = config.$options.get()
  const shown = config.$network.get()?.caipNetworkId
  if (shown && namespaceOf(shown) === namespace) return shown
  const selected = config.$selectedNetworkId.get()
  if (selected && namespaceOf(selected) === namespace && networks.includes(selected)) return selected
  const last = config.storage.get(StorageKey.lastChain, CaipNetworkIdSchema)
  if (last && namespaceOf(last) === namespace && networks.includes(last)) return last
  return networks.find((id) => namespaceOf(id) === namespace)
}
