// The person's secret and its two formats: BIP-39 entropy (version 1) or the service's raw keys (version 2).
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { entropyToMnemonic, mnemonicToEntropy } from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english'
import { InvalidSecretError } from './errors.ts'

/** Version 1: 16 bytes of BIP-39 entropy (a 12-word English phrase). */
export const PHRASE_SECRET = 1
/** Version 2: a raw secp256k1 private key and a raw ed25519 seed, 32 bytes each (keys made by the service). */
export const RAW_KEYS_SECRET = 2

const ENTROPY_BYTES = 16
const KEY_BYTES = 32

/** A secret as bytes: its version byte, then its body. Zero it (`fill(0)`) when done. */
export type WalletSecret = Uint8Array

/** What a secret holds, as views into its bytes (no copies: zeroing the secret zeroes these). */
export type ParsedSecret =
  | { version: typeof PHRASE_SECRET; entropy: Uint8Array }
  | { version: typeof RAW_KEYS_SECRET; secp256k1: Uint8Array; ed25519: Uint8Array }

/**
 * A new secret from the browser's CSPRNG: 16 bytes of BIP-39 entropy.
 *
 * @example
 * const secret = createSecret() // Uint8Array(17) [1, …]
 */
export function createSecret(): WalletSecret {
  const secret = new Uint8Array(1 + ENTROPY_BYTES)
  secret[0] = PHRASE_SECRET
  crypto.getRandomValues(secret.subarray(1))
  return secret
}

/**
 * The secret of a 12-word English recovery phrase (its checksum checked).
 *
 * @example
 * secretFromPhrase('test test test test test test test test test test test junk')
 */
export function secretFromPhrase(phrase: string): WalletSecret {
  let entropy: Uint8Array
  try {
    // Typed or pasted: any spacing, any case.
    entropy = mnemonicToEntropy(phrase.trim().toLowerCase().split(/\s+/).join(' '), wordlist)
  } catch (cause) {
    throw new InvalidSecretError({ cause, details: 'Not a BIP-39 English phrase' })
  }
  try {
    if (entropy.length !== ENTROPY_BYTES)
      throw new InvalidSecretError({ details: 'The phrase must have 12 words' })
    const secret = new Uint8Array(1 + ENTROPY_BYTES)
    secret[0] = PHRASE_SECRET
    secret.set(entropy, 1)
    return secret
  } finally {
    entropy.fill(0)
  }
}

/**
 * The secret of an existing user's raw keys (made by the service before shares existed), so that they
 * can be split like a phrase. Export then shows the keys, as there is no phrase.
 *
 * @example
 * const secret = secretFromKeys({ secp256k1: evmKey, ed25519: solanaSeed })
 */
export function secretFromKeys(keys: { secp256k1: Uint8Array; ed25519: Uint8Array }): WalletSecret {
  if (keys.secp256k1.length !== KEY_BYTES || keys.ed25519.length !== KEY_BYTES)
    throw new InvalidSecretError({ details: 'Each raw key must be 32 bytes' })
  if (!secp256k1.utils.isValidPrivateKey(keys.secp256k1))
    throw new InvalidSecretError({ details: 'Not a secp256k1 private key' })
  const secret = new Uint8Array(1 + 2 * KEY_BYTES)
  secret[0] = RAW_KEYS_SECRET
  secret.set(keys.secp256k1, 1)
  secret.set(keys.ed25519, 1 + KEY_BYTES)
  return secret
}

/**
 * Reads a secret's version and body, or throws {@link InvalidSecretError}.
 *
 * @example
 * const parsed = parseSecret(secret)
 * if (parsed.version === PHRASE_SECRET) parsed.entropy
 */
export function parseSecret(secret: WalletSecret): ParsedSecret {
  if (secret[0] === PHRASE_SECRET && secret.length === 1 + ENTROPY_BYTES)
    return { version: PHRASE_SECRET, entropy: secret.subarray(1) }
  if (secret[0] === RAW_KEYS_SECRET && secret.length === 1 + 2 * KEY_BYTES) {
    const evm = secret.subarray(1, 1 + KEY_BYTES)
    if (!secp256k1.utils.isValidPrivateKey(evm))
      throw new InvalidSecretError({ details: 'Not a secp256k1 private key' })
    return { version: RAW_KEYS_SECRET, secp256k1: evm, ed25519: secret.subarray(1 + KEY_BYTES) }
  }
  throw new InvalidSecretError({ details: `Version ${secret[0]}, ${secret.length} bytes` })
}

/**
 * The 12-word recovery phrase of a version-1 secret, for export on the frame's origin; undefined for
 * raw keys (export shows the keys). The phrase is a JavaScript string: it cannot be zeroed, so
 * only the export view asks for it.
 *
 * @example
 * phraseOf(secret) // 'legal winner thank year …'
 */
export function phraseOf(secret: WalletSecret): string | undefined {
  const parsed = parseSecret(secret)
  return parsed.version === PHRASE_SECRET ? entropyToMnemonic(parsed.entropy, wordlist) : undefined
}
