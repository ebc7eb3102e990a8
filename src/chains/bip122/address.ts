import { Address, type NETWORK } from '@scure/btc-signer'
import { type BitcoinNetworkKind, btcSignerNetwork } from '../../protocol/bitcoinNetworks.ts'

/** `@scure/btc-signer`'s network parameters for each Bitcoin network, from the protocol's table. */
export const BTC_SIGNER_NETWORKS = {
  mainnet: btcSignerNetwork('mainnet'),
  testnet: btcSignerNetwork('testnet'),
  signet: btcSignerNetwork('signet'),
  regtest: btcSignerNetwork('regtest'),
} as const satisfies Record<BitcoinNetworkKind, typeof NETWORK>

/** The address types a payment may go to. */
export type BitcoinAddressType = 'p2wpkh' | 'p2tr' | 'p2sh' | 'p2pkh' | 'p2wsh'

const TYPES: Record<string, BitcoinAddressType> = {
  wpkh: 'p2wpkh',
  tr: 'p2tr',
  sh: 'p2sh',
  pkh: 'p2pkh',
  wsh: 'p2wsh',
}

/**
 * The type of a Bitcoin address on a network (checksum, prefix and program checked), or undefined for
 * anything else: another network's address, a typo, an unknown witness version.
 *
 * @example
 * bitcoinAddressType('bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw', 'regtest') // 'p2wpkh'
 * bitcoinAddressType('bc1qquv9…', 'regtest') // undefined
 */
export function bitcoinAddressType(
  address: string,
  network: BitcoinNetworkKind,
): BitcoinAddressType | undefined {
  try {
    return TYPES[Address(BTC_SIGNER_NETWORKS[network]).decode(address.trim()).type]
  } catch {
    return undefined
  }
}
