/** Byte encodings used on the Solana JSON-RPC wire: base58 (addresses, signatures, blockhashes) and base64. */

import { decodeBase58 as decodeOrNull, encodeBase58 } from '../../../src/protocol/siwx/index.ts'

/** Base58 (Bitcoin alphabet) text of bytes: the modal's own codec. */
export { encodeBase58 }

/** Bytes of base58 `text`; throws on a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array {
  const bytes = decodeOrNull(text)
  if (!bytes) throw new Error('invalid base58 text')
  return bytes
}

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Bytes of strict (padded, standard alphabet) base64 `text`; throws otherwise. */
export function decodeBase64(text: string): Uint8Array {
  if (!BASE64_RE.test(text)) throw new Error('invalid base64 encoding')
  return new Uint8Array(Buffer.from(text, 'base64'))
}

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
}

/** Little-endian u64 at `offset`. */
export function readU64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true)
}

/** Little-endian u32 at `offset`. */
export function readU32(data: Uint8Array, offset: number): number {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(offset, true)
}

/** `amount` (base units) as a decimal string with `decimals` places, trailing zeros trimmed ("10.5", "1"). */
export function formatUnits(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString()
  const negative = amount < 0n
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, -decimals)
  const fraction = digits.slice(-decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
