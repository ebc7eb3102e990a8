import {
  BITCOIN_NETWORKS,
  type BitcoinNetworkKind,
  bitcoinNetworkKind,
} from '../../protocol/bitcoinNetworks.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'

/** Bitcoin's unit: 1 BTC is 100,000,000 satoshis. */
const btc = { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }

/**
 * CAIP-2 ids of the Bitcoin networks (`bip122:` and the first 32 hex characters of the genesis block
 * hash), from the protocol's network table.
 */
export const BITCOIN_NETWORK_IDS = {
  mainnet: BITCOIN_NETWORKS.mainnet.caipNetworkId,
  testnet: BITCOIN_NETWORKS.testnet.caipNetworkId,
  signet: BITCOIN_NETWORKS.signet.caipNetworkId,
  regtest: BITCOIN_NETWORKS.regtest.caipNetworkId,
} as const satisfies Record<BitcoinNetworkKind, CaipNetworkId>

/** CAIP-2 id of the local regtest network that `npm start` runs (Bitcoin Core's regtest genesis, `0f9188f1…2206`). */
export const LOCAL_BITCOIN_NETWORK_ID = BITCOIN_NETWORK_IDS.regtest

export { type BitcoinNetworkKind, bitcoinNetworkKind }

const mempool = (path: string) => ({
  default: { name: 'mempool.space', url: `https://mempool.space${path}` },
})

const network = (
  kind: BitcoinNetworkKind,
  name: string,
  node: string,
  explorer?: Network['blockExplorers'],
): Network => {
  const caipNetworkId = BITCOIN_NETWORK_IDS[kind]
  return {
    id: caipNetworkId.slice('bip122:'.length),
    name,
    nativeCurrency: btc,
    rpcUrls: { default: { http: [node] } },
    ...(explorer ? { blockExplorers: explorer } : {}),
    chainNamespace: 'bip122',
    caipNetworkId,
    testnet: kind !== 'mainnet',
  }
}

/**
 * The Bitcoin networks the modal knows: mainnet, testnet (3), signet and the local regtest node, each
 * with a node API (an Esplora API at mempool.space; the local bcoin node's own) and an explorer
 * (mempool.space; none for regtest). Data only: no Bitcoin library here.
 */
export const bitcoinNetworks: readonly Network[] = [
  network('mainnet', 'Bitcoin', 'https://mempool.space/api', mempool('')),
  network('testnet', 'Bitcoin Testnet', 'https://mempool.space/testnet/api', mempool('/testnet')),
  network('signet', 'Bitcoin Signet', 'https://mempool.space/signet/api', mempool('/signet')),
  network('regtest', 'Local Bitcoin', 'http://127.0.0.1:8794'),
]

/**
 * The network definition for a Bitcoin CAIP-2 id.
 *
 * @example
 * resolveBitcoinNetwork('bip122:000000000019d6689c085ae165831e93')?.name // 'Bitcoin'
 */
export function resolveBitcoinNetwork(caipNetworkId: CaipNetworkId): Network | undefined {
  return bitcoinNetworks.find((candidate) => candidate.caipNetworkId === caipNetworkId)
}
