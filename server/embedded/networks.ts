import type { Chain } from 'viem'
import * as viemChains from 'viem/chains'
import { bitcoinNetworkOf } from '../../src/protocol/embedded/bitcoin.ts'

/** A network the embedded wallet serves, as its approvals name it. */
export interface EmbeddedNetwork {
  caipNetworkId: `${string}:${string}`
  name: string
  symbol: string
  decimals: number
}

/**
 * Names the service gives networks before viem's (the local stack's chains, and Solana's clusters by
 * genesis hash), so the frame names a network as the modal does.
 */
const known: Record<string, Omit<EmbeddedNetwork, 'caipNetworkId'>> = {
  'eip155:31337': { name: 'Local Chain', symbol: 'ETH', decimals: 18 },
  'eip155:31338': { name: 'Local Chain 2', symbol: 'ETH', decimals: 18 },
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': { name: 'Solana', symbol: 'SOL', decimals: 9 },
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': { name: 'Solana Devnet', symbol: 'SOL', decimals: 9 },
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSRhhcw': { name: 'Solana Testnet', symbol: 'SOL', decimals: 9 },
  'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9': { name: 'Local Solana', symbol: 'SOL', decimals: 9 },
}

const evmChains = new Map<number, Chain>()
for (const chain of Object.values(viemChains) as Chain[]) {
  if (typeof chain === 'object' && chain && typeof chain.id === 'number' && !evmChains.has(chain.id))
    evmChains.set(chain.id, chain)
}

/**
 * The networks the embedded wallet serves: those the service has an RPC upstream for (EVM, Solana) or
 * a Bitcoin node for (bip122).
 *
 * @example
 * const networks = embeddedNetworks(Object.keys(config.rpcUpstreams))
 * networks.get('eip155:31337')?.name // 'Local Chain'
 */
export function embeddedNetworks(chainIds: readonly string[]): ReadonlyMap<string, EmbeddedNetwork> {
  const networks = new Map<string, EmbeddedNetwork>()
  for (const id of chainIds) {
    const [namespace, reference = ''] = id.split(':')
    const caipNetworkId = id as EmbeddedNetwork['caipNetworkId']
    // Bitcoin: the networks with a node (BITCOIN_NODE_URLS) that the wallet has BIP-84 keys for.
    const bitcoin = namespace === 'bip122' ? bitcoinNetworkOf(id) : undefined
    if (bitcoin) networks.set(id, { caipNetworkId, name: bitcoin.name, symbol: 'BTC', decimals: 8 })
    if (namespace !== 'eip155' && namespace !== 'solana') continue
    const named = known[id]
    if (named) {
      networks.set(id, { caipNetworkId, ...named })
      continue
    }
    const chain = namespace === 'eip155' ? evmChains.get(Number(reference)) : undefined
    networks.set(id, {
      caipNetworkId,
      name: chain?.name ?? id,
      symbol: chain?.nativeCurrency.symbol ?? (namespace === 'solana' ? 'SOL' : 'ETH'),
      decimals: chain?.nativeCurrency.decimals ?? (namespace === 'solana' ? 9 : 18),
    })
  }
  return networks
}
