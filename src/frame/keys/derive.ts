// The private keys and the addresses of a secret, by the paths MetaMask, Phantom and BIP-84 wallets use.
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { HARDENED_OFFSET, HDKey } from '@scure/bip32'
import { entropyToMnemonic, mnemonicToSeed } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { encodeBase58 } from '../../protocol/siwx/base58.ts'
import { toChecksumAddress } from '../../protocol/siwx/checksum.ts'
import { PHRASE_SECRET, parseSecret, type WalletSecret } from './secret.ts'
import { deriveEd25519 } from './slip10.ts'

/** BIP-44 for Ethereum, account 0, first address: MetaMask's first account. */
export const EVM_PATH = "m/44'/60'/0'/0/0"
/** BIP-44 for Solana by SLIP-0010, account 0: Phantom's and Solflare's first account. */
export const SOLANA_PATH = "m/44'/501'/0'/0'"
/** BIP-84 (native segwit, P2WPKH), account 0, first receiving address: on Bitcoin mainnet (coin 0). */
export const BITCOIN_PATH = "m/84'/0'/0'/0/0"
/** BIP-84 on Bitcoin's test networks (coin 1): testnet, signet and regtest. */
export const BITCOIN_TEST_PATH = "m/84'/1'/0'/0/0"

/**
 * The private keys: secp256k1 (32 bytes), the ed25519 seed (32 bytes), and the two Bitcoin secp256k1
 * keys (mainnet and the test networks, 32 bytes each).
 */
export interface PrivateKeys {
  readonly secp256k1: Uint8Array
  readonly ed25519: Uint8Array
  readonly bitcoin: Uint8Array
  readonly bitcoinTest: Uint8Array
}

/** The accounts a secret opens: an EIP-55 EVM address and a base58 Solana address. */
export interface WalletAddresses {
  readonly eip155: `0x${string}`
  readonly solana: string
}

/** secp256k1 at a BIP-32 `path`, one step at a time so that each node's key can be wiped. */
function deriveSecp256k1(seed: Uint8Array, path: string): Uint8Array {
  let node = HDKey.fromMasterSeed(seed)
  const steps = path.split('/').slice(1)
  try {
    for (const step of steps) {
      const index = Number.parseInt(step, 10) + (step.endsWith("'") ? HARDENED_OFFSET : 0)
      const child = node.deriveChild(index)
      node.wipePrivateData()
      node.chainCode?.fill(0)
      node = child
    }
    return (node.privateKey as Uint8Array).slice()
  } finally {
    node.wipePrivateData()
    node.chainCode?.fill(0)
  }
}

/** The keys of a version-1 secret: phrase -> BIP-39 seed (empty passphrase) -> BIP-32 and SLIP-0010. */
async function keysOfEntropy(entropy: Uint8Array): Promise<PrivateKeys> {
  // The phrase is a string (immutable, not zeroable); it lives only until this call returns.
  const seed = await mnemonicToSeed(entropyToMnemonic(entropy, wordlist), '')
  try {
    const solana = deriveEd25519(seed, SOLANA_PATH)
    solana.chainCode.fill(0)
    return {
      secp256k1: deriveSecp256k1(seed, EVM_PATH),
      ed25519: solana.privateKey,
      bitcoin: deriveSecp256k1(seed, BITCOIN_PATH),
      bitcoinTest: deriveSecp256k1(seed, BITCOIN_TEST_PATH),
    }
  } finally {
    seed.fill(0)
  }
}

/**
 * Raw keys (version 2) have no seed to derive a BIP-84 key from: their Bitcoin account is the
 * secp256k1 key itself (the EVM key), the same key on every Bitcoin network.
 */
function keysOfRawKeys(parsed: { secp256k1: Uint8Array; ed25519: Uint8Array }): PrivateKeys {
  return {
    secp256k1: parsed.secp256k1.slice(),
    ed25519: parsed.ed25519.slice(),
    bitcoin: parsed.secp256k1.slice(),
    bitcoinTest: parsed.secp256k1.slice(),
  }
}

/**
 * Derives the private keys of `secret`, hands them to `use`, and zeroes them (and the seed and
 * each derivation node we hold) when `use` settles. The keys exist only for that call; copy nothing
 * out of them. What the libraries keep internally (bigints, HMAC temporaries) is left to the
 * garbage collector.
 *
 * @example
 * const signature = await withKeys(secret, (keys) => signer.signMessage(keys.secp256k1, message))
 */
export async function withKeys<T>(
  secret: WalletSecret,
  use: (keys: PrivateKeys) => T | Promise<T>,
): Promise<T> {
  const parsed = parseSecret(secret)
  const keys = parsed.version === PHRASE_SECRET ? await keysOfEntropy(parsed.entropy) : keysOfRawKeys(parsed)
  try {
    return await use(keys)
  } finally {
    keys.secp256k1.fill(0)
    keys.ed25519.fill(0)
    keys.bitcoin.fill(0)
    keys.bitcoinTest.fill(0)
  }
}

/**
 * The addresses of two private keys.
 *
 * @example
 * addressesOfKeys(keys) // { eip155: '0xf39F…', solana: '7Ca…' }
 */
export function addressesOfKeys(keys: PrivateKeys): WalletAddresses {
  const point = secp256k1.getPublicKey(keys.secp256k1, false)
  const hash = keccak_256(point.subarray(1))
  const eip155 = toChecksumAddress(`0x${bytesToHex(hash.subarray(12))}`) as `0x${string}`
  return { eip155, solana: encodeBase58(ed25519.getPublicKey(keys.ed25519)) }
}

/**
 * The addresses a secret opens.
 *
 * @example
 * await addressesOf(secretFromPhrase('test test … junk')) // { eip155: '0xf39F…2266', solana: … }
 */
export function addressesOf(secret: WalletSecret): Promise<WalletAddresses> {
  return withKeys(secret, addressesOfKeys)
}
