import type { Network } from '../../protocol/entities.ts'

const ether = { name: 'Ether', symbol: 'ETH', decimals: 18 }

/** The local development chains that `npm start` runs (Hardhat Network). */
export const localNetworks: readonly Network[] = [
  {
    id: 31337,
    name: 'Local Chain',
    nativeCurrency: ether,
    rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
    chainNamespace: 'eip155',
    caipNetworkId: 'eip155:31337',
    testnet: true,
  },
  {
    id: 31338,
    name: 'Local Chain 2',
    nativeCurrency: ether,
    rpcUrls: { default: { http: ['http://127.0.0.1:8546'] } },
    chainNamespace: 'eip155',
    caipNetworkId: 'eip155:31338',
    testnet: true,
  },
]
