import { keccak_256 } from '@noble/hashes/sha3.js'

const hexAddress = /^0x[0-9a-fA-F]{40}$/

/**
 * An EVM address in EIP-55 mixed-case checksum form, or null when `address` is not `0x` and 40 hex
 * characters.
 *
 * @example
 * toChecksumAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2')
 * // '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'
 */
export function toChecksumAddress(address: string): `0x${string}` | null {
  if (!hexAddress.test(address)) return null
  const lower = address.slice(2).toLowerCase()
  const hash = keccak_256(new TextEncoder().encode(lower))
  let result = '0x'
  for (let index = 0; index < 40; index++) {
    const byte = hash[index >> 1] ?? 0
    const nibble = index % 2 === 0 ? byte >> 4 : byte & 0x0f
    const character = lower[index] ?? ''
    result += nibble >= 8 ? character.toUpperCase() : character
  }
  return result as `0x${string}`
}

/**
 * Whether an EVM address is written in its EIP-55 checksum form.
 *
 * @example
 * isChecksumAddress('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2') // true
 * isChecksumAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2') // false
 */
export function isChecksumAddress(address: string): boolean {
  return toChecksumAddress(address) === address
}
