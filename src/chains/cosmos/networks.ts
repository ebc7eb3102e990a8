import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'

/** A Cosmos SDK chain by its CAIP-2 reference (the chain id). */
const cosmosChain = (
  chainId: string,
  name: string,
  currency: { name: string; symbol: string; decimals: number },
  rpc: string,
  mintscan: string,
  testnet: boolean,
): Network => ({
  id: chainId,
  name,
  nativeCurrency: currency,
  rpcUrls: { default: { http: [rpc] } },
  blockExplorers: { default: { name: 'Mintscan', url: `https://www.mintscan.io/${mintscan}` } },
  chainNamespace: 'cosmos',
  caipNetworkId: `cosmos:${chainId}`,
  testnet,
})

/**
 * The Cosmos networks the modal knows, reached over WalletConnect only (the wallet signs, the modal
 * shows the account): the Cosmos Hub, its testnet and Osmosis. Data only.
 */
export const cosmosNetworks: readonly Network[] = [
  cosmosChain(
    'cosmoshub-4',
    'Cosmos Hub',
    { name: 'Cosmos', symbol: 'ATOM', decimals: 6 },
    'https://cosmos-rpc.publicnode.com',
    'cosmos',
    false,
  ),
  cosmosChain(
    'provider',
    'Cosmos Hub Testnet',
    { name: 'Cosmos', symbol: 'ATOM', decimals: 6 },
    'https://cosmos-testnet-rpc.publicnode.com',
    'cosmoshub-testnet',
    true,
  ),
  cosmosChain(
    'osmosis-1',
    'Osmosis',
    { name: 'Osmosis', symbol: 'OSMO', decimals: 6 },
    'https://osmosis-rpc.publicnode.com',
    'osmosis',
    false,
  ),
]

/**
 * The network definition for a Cosmos CAIP-2 id.
 *
 * @example
 * resolveCosmosNetwork('cosmos:cosmoshub-4')?.nativeCurrency.decimals // 6
 */
export function resolveCosmosNetwork(caipNetworkId: CaipNetworkId): Network | undefined {
  return cosmosNetworks.find((network) => network.caipNetworkId === caipNetworkId)
}
