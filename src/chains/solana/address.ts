import { decodeBase58 } from '../../protocol/siwx/base58.ts'

const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * True for a Solana address: 32 to 44 base58 characters that decode to a 32-byte public key.
 * The pattern alone lets through strings that decode to 31 or 33 bytes; the decode catches them.
 *
 * @example
 * isSolanaAddress('oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96') // true
 * isSolanaAddress('0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb') // false
 */
export function isSolanaAddress(value: string): boolean {
  return BASE58_ADDRESS.test(value) && decodeBase58(value)?.length === 32
}
