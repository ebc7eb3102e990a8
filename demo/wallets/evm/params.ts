// Reading the Demo Wallet's request parameters (chain ids, quantities, typed data), showing them, and its
// RPC errors.
import { isHex } from 'viem'
import { DemoWalletRpcError, ErrorCodes, invalidParams } from '../errors.ts'

export function parseChainId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw)) {
    throw invalidParams(`Expected chainId as a 0x-prefixed hex string, got ${JSON.stringify(raw)}.`)
  }
  const id = Number.parseInt(raw, 16)
  if (!Number.isSafeInteger(id) || id <= 0) throw invalidParams(`Invalid chainId ${raw}.`)
  return id
}

export function quantity(raw: unknown, field: string): bigint | undefined {
  if (raw === undefined || raw === null) return undefined
  try {
    if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'bigint') return BigInt(raw)
  } catch {}
  throw invalidParams(`Invalid "${field}": ${JSON.stringify(raw)}.`)
}

export function shorten(hex: string): string {
  return hex.length > 42 ? `${hex.slice(0, 22)}…${hex.slice(-8)}` : hex
}

/** personal_sign messages usually arrive hex-encoded UTF-8; show the text when it is text. */
export function decodeMessage(message: string): string {
  if (!isHex(message)) return message
  try {
    const bytes = Uint8Array.from(message.slice(2).match(/../g) ?? [], (byte) => Number.parseInt(byte, 16))
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: binary payloads are shown as hex.
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? message : text
  } catch {
    return message
  }
}

type TypedDataInput = {
  domain?: Record<string, unknown>
  types: object
  primaryType: string
  message: object
}

export function parseTypedData(raw: unknown): TypedDataInput {
  let value: unknown = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      throw invalidParams('eth_signTypedData_v4 needs typed data as JSON.')
    }
  }
  const data = value as Partial<TypedDataInput> | null
  if (
    !data ||
    typeof data !== 'object' ||
    typeof data.primaryType !== 'string' ||
    !data.types ||
    typeof data.types !== 'object' ||
    !data.message ||
    typeof data.message !== 'object'
  ) {
    throw invalidParams('eth_signTypedData_v4 needs { types, primaryType, domain, message }.')
  }
  return data as TypedDataInput
}

/** Keeps the JSON-RPC code of a chain error (viem wraps it), else an internal error. */
export function toRpcError(error: unknown, fallbackCode: number = ErrorCodes.internal): DemoWalletRpcError {
  if (error instanceof DemoWalletRpcError) return error
  let cursor: unknown = error
  let message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  for (let depth = 0; cursor && typeof cursor === 'object' && depth < 10; depth++) {
    const { code, shortMessage, details } = cursor as {
      code?: unknown
      shortMessage?: unknown
      details?: unknown
    }
    if (typeof code === 'number' && code !== 0) {
      const text =
        typeof details === 'string' && details
          ? details
          : typeof shortMessage === 'string'
            ? shortMessage
            : message
      return new DemoWalletRpcError(code, text ?? 'Internal JSON-RPC error.')
    }
    if (typeof shortMessage === 'string') message = shortMessage
    cursor = (cursor as { cause?: unknown }).cause
  }
  return new DemoWalletRpcError(fallbackCode, message ?? 'Internal JSON-RPC error.')
}
