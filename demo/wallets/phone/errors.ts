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
/**
 * EIP-1474's "Invalid input". WalletConnect's JSON-RPC layer replaces the message of a reserved code
 * (-32700, -32600 to -32603) with the standard one ("Invalid params"), so a refusal whose reason the
 * dapp should see (a payment the coins do not cover, a wrong network's address) takes this code.
 */
export const INVALID_INPUT = -32000
/** EIP-1474's "Transaction rejected": the node refused what the wallet broadcast. */
export const TRANSACTION_REJECTED = -32003
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
