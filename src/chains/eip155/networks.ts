import type { Chain } from 'viem'
import * as chains from 'viem/chains'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'
import { localNetworks } from './local.ts'

let byId: Map<number, Chain> | undefined

function viemChain(id: number): Chain | undefined {
  byId ??= new Map(
    Object.values(chains as Record<string, Chain>)
      .filter((chain) => typeof chain === 'object' && typeof chain.id === 'number')
      // Some ids appear under several names (e.g. aliases); the first export wins.
      .reverse()
      .map((chain) => [chain.id, chain]),
  )
  return byId.get(id)
}

function fromViem(chain: Chain): Network {
  const explorer = chain.blockExplorers?.default
  return {
    id: chain.id,
    name: chain.name,
    nativeCurrency: { ...chain.nativeCurrency },
    rpcUrls: { default: { http: [...chain.rpcUrls.default.http] } },
    ...(explorer ? { blockExplorers: { default: { name: explorer.name, url: explorer.url } } } : {}),
    chainNamespace: 'eip155',
    caipNetworkId: `eip155:${chain.id}`,
    testnet: chain.testnet ?? false,
  }
}

/**
 * The network definition for an EVM CAIP-2 id: the local chains first, then `viem/chains`.
 * This module is loaded lazily: `viem/chains` is large and not needed for the first paint.
 *
 * @example
 * resolveEip155Network('eip155:8453')?.name // 'Base'
 */
export function resolveEip155Network(caipNetworkId: CaipNetworkId): Network | undefined {
  const local = localNetworks.find((network) => network.caipNetworkId === caipNetworkId)
  if (local) return local
  const reference = Number(caipNetworkId.split(':')[1])
  const chain = Number.isSafeInteger(reference) ? viemChain(reference) : undefined
  return chain ? fromViem(chain) : undefined
}
