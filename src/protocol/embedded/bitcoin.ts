// The embedded wallet's Bitcoin account: its networks, its native segwit address, its bip122 methods.
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { bech32 } from '@scure/base'
import {
  BITCOIN_NETWORK_KINDS,
  BITCOIN_NETWORKS,
  type BitcoinNetworkKind,
  type BitcoinNetworkParameters,
} from '../bitcoinNetworks.ts'

/** Which of the person's two Bitcoin keys a network uses (BIP-84 coin 0 on mainnet, coin 1 elsewhere). */
export type BitcoinKeyName = 'bitcoin' | 'bitcoinTest'

/** A Bitcoin network the embedded wallet signs for. */
export interface BitcoinNetwork {
  /** The bech32 prefix of its addresses. */
  readonly hrp: BitcoinNetworkParameters['hrp']
  readonly key: BitcoinKeyName
  /** The BIP-84 path of the account's key. */
  readonly path: string
  readonly name: string
}

const NAMES: Record<BitcoinNetworkKind, string> = {
  mainnet: 'Bitcoin',
  testnet: 'Bitcoin Testnet',
  signet: 'Bitcoin Signet',
  regtest: 'Bitcoin Regtest',
}

/**
 * The bip122 networks by CAIP-2 id (the protocol's table: mainnet, testnet, signet and Bitcoin Core's
 * regtest), each with the key and BIP-84 path the wallet signs with: coin 0 on mainnet, coin 1 elsewhere.
 */
export const bitcoinNetworks: Readonly<Record<string, BitcoinNetwork>> = Object.fromEntries(
  BITCOIN_NETWORK_KINDS.map((kind) => {
    const { caipNetworkId, hrp, coinType } = BITCOIN_NETWORKS[kind]
    const key: BitcoinKeyName = coinType === 0 ? 'bitcoin' : 'bitcoinTest'
    return [caipNetworkId, { hrp, key, path: `m/84'/${coinType}'/0'/0/0`, name: NAMES[kind] }]
  }),
)

/**
 * The Bitcoin network of a CAIP-2 id, if the wallet knows it.
 *
 * @example
 * bitcoinNetworkOf('bip122:000000000019d6689c085ae165831e93')?.hrp // 'bc'
 */
export const bitcoinNetworkOf = (chainId: string): BitcoinNetwork | undefined =>
  Object.hasOwn(bitcoinNetworks, chainId) ? bitcoinNetworks[chainId] : undefined

/** HASH160 of a compressed public key: what a P2WPKH output pays to. */
export const hash160 = (publicKey: Uint8Array): Uint8Array => ripemd160(sha256(publicKey))

/**
 * The P2WPKH output script of a compressed public key: `OP_0 <20-byte key hash>`.
 *
 * @example
 * p2wpkhScript(publicKey) // Uint8Array(22) [0, 20, …]
 */
export function p2wpkhScript(publicKey: Uint8Array): Uint8Array {
  const script = new Uint8Array(22)
  script[1] = 20
  script.set(hash160(publicKey), 2)
  return script
}

/**
 * The native segwit (P2WPKH, bech32) address of a compressed public key on a network.
 *
 * @example
 * p2wpkhAddress(publicKey, 'bc') // 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
 */
export function p2wpkhAddress(publicKey: Uint8Array, hrp: BitcoinNetwork['hrp']): string {
  return bech32.encode(hrp, [0, ...bech32.toWords(hash160(publicKey))])
}

/** Compressed public keys (hex) of the person's two Bitcoin keys, as the service keeps them. */
export interface BitcoinPublicKeys {
  readonly bitcoin: string
  readonly bitcoinTest: string
}

/**
 * The person's Bitcoin account on a network: its address, public key (hex) and BIP-84 path.
 *
 * @example
 * bitcoinAccountOf(keys, 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328')?.address // 'bcrt1q…'
 */
export function bitcoinAccountOf(
  keys: BitcoinPublicKeys,
  chainId: string,
): { address: string; publicKey: string; path: string } | undefined {
  const network = bitcoinNetworkOf(chainId)
  if (!network) return undefined
  const publicKey = keys[network.key]
  const bytes = Uint8Array.from(publicKey.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16))
  return { address: p2wpkhAddress(bytes, network.hrp), publicKey, path: network.path }
}
