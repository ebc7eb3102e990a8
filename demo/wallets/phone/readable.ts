// Readable summaries of what a dapp asks the Demo Phone Wallet to sign, and the checks on its quantities.
import { hexToBigInt, hexToBytes, isHex } from 'viem'
import { INVALID_PARAMS, WalletRpcError } from './errors.ts'

/** UTF-8 text of a hex message when it is printable text, else a short description of the bytes. */
export function decodeMessage(message: string): string {
  if (!isHex(message)) return message
  const bytes = hexToBytes(message)
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    if (isPrintable(text)) return text
  } catch {
    // Not UTF-8: describe the bytes below.
  }
  return `${bytes.length} bytes of binary data: ${shorten(message)}`
}

function isPrintable(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    if ((code < 0x20 && char !== '\n' && char !== '\r' && char !== '\t') || code === 0x7f) return false
  }
  return true
}

export function shorten(hex: string, keep = 10): string {
  return hex.length > keep * 2 + 3 ? `${hex.slice(0, keep + 2)}…${hex.slice(-keep)}` : hex
}

export function display(value: unknown, max = 120): string {
  const text =
    typeof value === 'string'
      ? value
      : String(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}` : v)) ?? value)
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** A JSON-RPC quantity (0x-hex or decimal string, number, bigint) as a bigint; undefined when absent. */
export function quantity(value: unknown, field: string): bigint | undefined {
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && isHex(value)) return hexToBigInt(value)
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value)
  throw new WalletRpcError(INVALID_PARAMS, `Invalid ${field}: ${display(value, 40)}`)
}

export function chainNumber(caip2: string): number {
  const id = Number(caip2.split(':')[1])
  if (!caip2.startsWith('eip155:') || !Number.isSafeInteger(id) || id <= 0) {
    throw new WalletRpcError(INVALID_PARAMS, `Not an EVM chain: ${caip2}`)
  }
  return id
}
