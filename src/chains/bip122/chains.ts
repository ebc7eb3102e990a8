import {
  BITCOIN_NETWORK_KINDS,
  BITCOIN_NETWORKS,
  type BitcoinNetworkKind,
} from '../../protocol/bitcoinNetworks.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'

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
  const segwit = BITCOIN_NETWORK_KINDS.filter((kind) => lower.startsWith(`${BITCOIN_NETWORKS[kind].hrp}1`))
  if (segwit.length > 0) return segwit
  // Base58 addresses start with what their version byte encodes to: 0x00 `1`, 0x05 `3`, 0x6f `m`/`n`, 0xc4 `2`.
  if (/^[13]/.test(address)) return ['mainnet']
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
  return addressNetworks(address).some((kind) => BITCOIN_NETWORKS[kind].caipNetworkId === caipNetworkId)
}

/** The Wallet Standard's Bitcoin chain names (`bitcoin:mainnet`, …) by CAIP-2 id. */
const STANDARD_CHAINS: Record<string, string> = Object.fromEntries(
  BITCOIN_NETWORK_KINDS.map((kind) => [BITCOIN_NETWORKS[kind].caipNetworkId, `bitcoin:${kind}`]),
)

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
