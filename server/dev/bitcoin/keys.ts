/**
 * Deterministic keys of the local Bitcoin regtest network: the dev addresses (the BIP-39 test mnemonic along
 * BIP-84's `m/84'/1'/0'/0/N`, native segwit P2WPKH, `bcrt1q…`) and the miner's address, which takes the
 * rewards of the blocks mined after start so the dev addresses' balances only change by what they send.
 */

import { secp256k1 } from '@noble/curves/secp256k1.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { p2wpkh, WIF } from '@scure/btc-signer'
import { btcSignerNetwork } from '../../../src/protocol/bitcoinNetworks.ts'

/** The well-known test mnemonic (also the EVM and Solana stand-ins'): never hold real funds with it. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

/** How many dev addresses are funded at start. */
export const DEV_ADDRESS_COUNT = 4

/**
 * Bitcoin Core's regtest parameters for `@scure/btc-signer` (the protocol's table): bech32 prefix `bcrt`,
 * testnet's base58 versions (`m…`/`n…` P2PKH, `2…` P2SH) and WIF version 0xef.
 */
export const REGTEST_NETWORK = btcSignerNetwork('regtest')

/** A regtest key: its path (empty for the miner), keys, P2WPKH address and WIF private key. */
export type DevKey = {
  path: string
  privateKey: Uint8Array
  publicKey: Uint8Array
  address: string
  wif: string
}

/**
 * BIP-84's receive path of account 0 on a test network (coin type 1), as regtest wallets use it.
 *
 * @example
 * devKeyPath(0) // "m/84'/1'/0'/0/0"
 */
export function devKeyPath(index: number): string {
  return `m/84'/1'/0'/0/${index}`
}

function keyOf(path: string, privateKey: Uint8Array): DevKey {
  const publicKey = secp256k1.getPublicKey(privateKey, true)
  const address = p2wpkh(publicKey, REGTEST_NETWORK).address
  if (!address) throw new Error('bitcoin dev key: no P2WPKH address')
  return { path, privateKey, publicKey, address, wif: WIF(REGTEST_NETWORK).encode(privateKey) }
}

let root: HDKey | undefined

/**
 * Dev key `index`: the test mnemonic along `m/84'/1'/0'/0/index`.
 *
 * @example
 * devKey(0).address // 'bcrt1q…', the first receive address of a regtest wallet restored from the test mnemonic
 */
export function devKey(index: number): DevKey {
  root ??= HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC))
  const path = devKeyPath(index)
  const { privateKey } = root.derive(path)
  if (!privateKey) throw new Error(`bitcoin dev key: nothing derived at ${path}`)
  return keyOf(path, privateKey)
}

/**
 * The first `count` dev keys.
 *
 * @example
 * devKeys(2).map((key) => key.address)
 */
export function devKeys(count = DEV_ADDRESS_COUNT): DevKey[] {
  return Array.from({ length: count }, (_, index) => devKey(index))
}

/**
 * The miner's key (same on every start, outside the dev wallet's paths): the rewards of the blocks mined after
 * start go to its address.
 *
 * @example
 * minerKey().address
 */
export function minerKey(): DevKey {
  return keyOf('', sha256(new TextEncoder().encode('wallet-elements/dev/bitcoin/miner')))
}
