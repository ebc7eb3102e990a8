import type { CaipNetworkId } from '../../protocol/caip.ts'
import { BITCOIN_NETWORK_IDS, type BitcoinNetworkKind } from './networks.ts'

/**
 * The networks an address can belong to, from its prefix alone (no checksum here: see
 * `validateBitcoinAddress` for that): `bc1…`, `1…`, `3…` mainnet; `tb1…` testnet and signet; `bcrt1…`
 * regtest; `m…`, `n…`, `2…` every test network (they share base58 versions).
 *
 * @example
 * addressNetworks('bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw') // ['regtest']
 */
export function addressNetworks(address: string): BitcoinNetworkKind[] {
  const lower = address.toLowerCase()
  if (lower.startsWith('bcrt1')) return ['regtest']
  if (lower.startsWith('bc1') || /^[13]/.test(address)) return ['mainnet']
  if (lower.startsWith('tb1')) return ['testnet', 'signet']
  if (/^[mn2]/.test(address)) return ['testnet', 'signet', 'regtest']
  return []
}

/**
 * Whether an address can belong to the network a CAIP-2 id names.
 *
 * @example
 * isAddressOnNetwork('bcrt1q…', 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328') // true
 */
export function isAddressOnNetwork(address: string, caipNetworkId: CaipNetworkId): boolean {
  return addressNetworks(address).some((kind) => BITCOIN_NETWORK_IDS[kind] === caipNetworkId)
}

/** The Wallet Standard's Bitcoin chain names (`bitcoin:mainnet`, …) by CAIP-2 id. */
const STANDARD_CHAINS: Record<string, string> = {
  [BITCOIN_NETWORK_IDS.mainnet]: 'bitcoin:mainnet',
  [BITCOIN_NETWORK_IDS.testnet]: 'bitcoin:testnet',
  [BITCOIN_NETWORK_IDS.signet]: 'bitcoin:signet',
  [BITCOIN_NETWORK_IDS.regtest]: 'bitcoin:regtest',
}

/**
 * The Wallet Standard chain of a Bitcoin network (`bitcoin:regtest`), or undefined.
 *
 * @example
 * standardChainOf('bip122:000000000019d6689c085ae165831e93') // 'bitcoin:mainnet'
 */
export function standardChainOf(caipNetworkId: CaipNetworkId): string | undefined {
  return STANDARD_CHAINS[caipNetworkId]
}

/**
 * The CAIP-2 id of a Wallet Standard Bitcoin chain, or undefined.
 *
 * @example
 * networkOfStandardChain('bitcoin:regtest') // 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
 */
export function networkOfStandardChain(chain: string): CaipNetworkId | undefined {
  const entry = Object.entries(STANDARD_CHAINS).find(([, name]) => name === chain)
  return entry?.[0] as CaipNetworkId | undefined
}
