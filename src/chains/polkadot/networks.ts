import type { CaipNetworkId } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'

/** A relay chain by its CAIP-2 reference (the genesis hash's first 32 hex characters). */
const relayChain = (
  reference: string,
  name: string,
  currency: { name: string; symbol: string; decimals: number },
  rpc: string,
  subscan: string,
  testnet: boolean,
): Network => ({
  id: reference,
  name,
  nativeCurrency: currency,
  rpcUrls: { default: { http: [rpc] } },
  blockExplorers: { default: { name: 'Subscan', url: `https://${subscan}.subscan.io` } },
  chainNamespace: 'polkadot',
  caipNetworkId: `polkadot:${reference}`,
  testnet,
})

/**
 * The Polkadot networks the modal knows, reached over WalletConnect only (the wallet signs, the
 * modal shows the account): Polkadot, Kusama and Westend. Data only.
 */
export const polkadotNetworks: readonly Network[] = [
  relayChain(
    '91b171bb158e2d3848fa23a9f1c25182',
    'Polkadot',
    { name: 'Polkadot', symbol: 'DOT', decimals: 10 },
    'https://rpc.polkadot.io',
    'polkadot',
    false,
  ),
  relayChain(
    'b0a8d493285c2df73290dfb7e61f870f',
    'Kusama',
    { name: 'Kusama', symbol: 'KSM', decimals: 12 },
    'https://kusama-rpc.polkadot.io',
    'kusama',
    false,
  ),
  relayChain(
    'e143f23803ac50e8f6f8e62695d1ce9e',
    'Westend',
    { name: 'Westend', symbol: 'WND', decimals: 12 },
    'https://westend-rpc.polkadot.io',
    'westend',
    true,
  ),
]

/**
 * The network definition for a Polkadot CAIP-2 id.
 *
 * @example
 * resolvePolkadotNetwork('polkadot:91b171bb158e2d3848fa23a9f1c25182')?.nativeCurrency.symbol // 'DOT'
 */
export function resolvePolkadotNetwork(caipNetworkId: CaipNetworkId): Network | undefined {
  return polkadotNetworks.find((network) => network.caipNetworkId === caipNetworkId)
}
