import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'
import { localNetworks } from './local.ts'
import { shards } from './networks-data/index.ts'

export type { Eip155NetworkData } from './networkData.ts'

/**
 * The network definitions for EVM CAIP-2 ids: the local chains first, then the generated table
 * (data only), of which only the modules holding the asked ids load. Ids it does not know are left
 * out of the map.
 *
 * @example
 * const networks = await resolveEip155Networks(['eip155:8453'])
 * networks.get('eip155:8453')?.name // 'Base'
 */
export async function resolveEip155Networks(
  caipNetworkIds: readonly CaipNetworkId[],
): Promise<Map<CaipNetworkId, Network>> {
  const found = new Map<CaipNetworkId, Network>()
  const wanted = new Map<number, CaipNetworkId>()
  for (const caipNetworkId of caipNetworkIds) {
    const local = localNetworks.find((network) => network.caipNetworkId === caipNetworkId)
    const reference = Number(caipNetworkId.split(':')[1])
    if (local) found.set(caipNetworkId, local)
    else if (caipNetworkId.startsWith('eip155:') && Number.isSafeInteger(reference) && reference > 0)
      wanted.set(reference, caipNetworkId)
  }
  const modules = new Set([...wanted.keys()].map((id) => id % shards.length))
  const tables = await Promise.all([...modules].map((index) => shards[index]?.()))
  for (const table of tables) {
    for (const data of table?.default ?? []) {
      const caipNetworkId = wanted.get(data.id)
      if (caipNetworkId)
        found.set(caipNetworkId, {
          ...data,
          chainNamespace: 'eip155',
          caipNetworkId,
          testnet: data.testnet ?? false,
        })
    }
  }
  return found
}
