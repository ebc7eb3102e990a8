// How the Demo Phone Wallet answers a request with an error: its JSON-RPC codes and messages.

/** A JSON-RPC error to answer a request with. */
export class WalletRpcError extends Error {
  override name = 'WalletRpcError'
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}

export const INVALID_PARAMS = -32602
export const INTERNAL_ERROR = -32603
export const UNAUTHORIZED = 4100

/** The short message of an error (viem's `shortMessage`, else the first line). */
export function errorMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown }
    if (typeof shortMessage === 'string') return shortMessage
    if (typeof message === 'string') return message.split('\n')[0] ?? message
  }
  return String(error)
}

export function rpcError(error: unknown): { code: number; message: string } {
  const code = (error as { code?: unknown } | null)?.code
  return {
    code: typeof code === 'number' && Number.isInteger(code) ? code : INTERNAL_ERROR,
    message: errorMessage(error),
  }
}
