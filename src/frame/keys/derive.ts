// The two private keys and the two addresses of a secret, by the paths MetaMask and Phantom use.
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

/** The two private keys: secp256k1 (32 bytes) and the ed25519 seed (32 bytes). */
export interface PrivateKeys {
  readonly secp256k1: Uint8Array
  readonly ed25519: Uint8Array
}

/** The accounts a secret opens: an EIP-55 EVM address and a base58 Solana address. */
export interface WalletAddresses {
  readonly eip155: `0x${string}`
  readonly solana: string
}

/** secp256k1 at {@link EVM_PATH}, one BIP-32 step at a time so that each node's key can be wiped. */
function deriveSecp256k1(seed: Uint8Array): Uint8Array {
  let node = HDKey.fromMasterSeed(seed)
  const steps = EVM_PATH.split('/').slice(1)
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
    return { secp256k1: deriveSecp256k1(seed), ed25519: solana.privateKey }
  } finally {
    seed.fill(0)
  }
}

/**
 * Derives the two private keys of `secret`, hands them to `use`, and zeroes them (and the seed and
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
  const keys =
    parsed.version === PHRASE_SECRET
      ? await keysOfEntropy(parsed.entropy)
      : { secp256k1: parsed.secp256k1.slice(), ed25519: parsed.ed25519.slice() }
  try {
    return await use(keys)
  } finally {
    keys.secp256k1.fill(0)
    keys.ed25519.fill(0)
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
