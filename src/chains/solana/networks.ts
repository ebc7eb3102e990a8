import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'

const sol = { name: 'Solana', symbol: 'SOL', decimals: 9 }

/** CAIP-2 id of the local Solana network that `npm start` runs (its genesis hash, first 32 characters). */
export const LOCAL_SOLANA_NETWORK_ID = 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'

const explorer = (cluster?: string) => ({
  default: {
    name: 'Solana Explorer',
    url: cluster ? `https://explorer.solana.com/?cluster=${cluster}` : 'https://explorer.solana.com',
  },
})

/**
 * The Solana networks the modal knows: mainnet, devnet and testnet by their CAIP-2 ids (the genesis
 * hash, first 32 characters), and the local network. Data only: no `@solana/web3.js` here.
 */
export const solanaNetworks: readonly Network[] = [
  {
    id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    name: 'Solana',
    nativeCurrency: sol,
    rpcUrls: { default: { http: ['https://api.mainnet-beta.solana.com'] } },
    blockExplorers: explorer(),
    chainNamespace: 'solana',
    caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    testnet: false,
  },
  {
    id: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    name: 'Solana Devnet',
    nativeCurrency: sol,
    rpcUrls: { default: { http: ['https://api.devnet.solana.com'] } },
    blockExplorers: explorer('devnet'),
    chainNamespace: 'solana',
    caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
    testnet: true,
  },
  {
    id: '4uhcVJyU9pJkvQyS88uRDiswHXSRhhcw',
    name: 'Solana Testnet',
    nativeCurrency: sol,
    rpcUrls: { default: { http: ['https://api.testnet.solana.com'] } },
    blockExplorers: explorer('testnet'),
    chainNamespace: 'solana',
    caipNetworkId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSRhhcw',
    testnet: true,
  },
  {
    id: '45HEQDFcNoxGz8mrpTbTT37jixbR5dy9',
    name: 'Local Solana',
    nativeCurrency: sol,
    rpcUrls: { default: { http: ['http://127.0.0.1:8899'] } },
    chainNamespace: 'solana',
    caipNetworkId: LOCAL_SOLANA_NETWORK_ID,
    testnet: true,
  },
]

/**
 * The network definition for a Solana CAIP-2 id.
 *
 * @example
 * resolveSolanaNetwork('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')?.name // 'Solana Devnet'
 */
export function resolveSolanaNetwork(caipNetworkId: CaipNetworkId): Network | undefined {
  return solanaNetworks.find((network) => network.caipNetworkId === caipNetworkId)
}
