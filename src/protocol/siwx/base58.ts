/** Bitcoin's base58 alphabet, which Solana uses for addresses, keys and signatures. */
const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

const digitOf = new Map([...alphabet].map((character, index) => [character, index]))

/**
 * Encodes bytes as base58 (Solana addresses and signatures). Leading zero bytes become `1`s.
 *
 * @example
 * encodeBase58(new Uint8Array(32)) // '11111111111111111111111111111111'
 */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  // Base-58 digits, least significant first.
  const digits: number[] = []
  for (let index = zeros; index < bytes.length; index++) {
    let carry = bytes[index] ?? 0
    for (let position = 0; position < digits.length; position++) {
      carry += (digits[position] ?? 0) * 256
      digits[position] = carry % 58
      carry = Math.floor(carry / 58)
    }
    while (carry > 0) {
      digits.push(carry % 58)
      carry = Math.floor(carry / 58)
    }
  }
  let text = '1'.repeat(zeros)
  for (let position = digits.length - 1; position >= 0; position--) text += alphabet[digits[position] ?? 0]
  return text
}

/**
 * Decodes base58 text into bytes, or returns null when it holds a character outside the alphabet.
 *
 * @example
 * decodeBase58('11111111111111111111111111111111')?.length // 32
 */
export function decodeBase58(text: string): Uint8Array | null {
  let zeros = 0
  while (zeros < text.length && text[zeros] === '1') zeros++
  // Bytes, least significant first.
  const bytes: number[] = []
  for (let index = zeros; index < text.length; index++) {
    const digit = digitOf.get(text[index] ?? '')
    if (digit === undefined) return null
    let carry = digit
    for (let position = 0; position < bytes.length; position++) {
      carry += (bytes[position] ?? 0) * 58
      bytes[position] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  const result = new Uint8Array(zeros + bytes.length)
  for (let position = 0; position < bytes.length; position++) {
    result[result.length - 1 - position] = bytes[position] ?? 0
  }
  return result
}
