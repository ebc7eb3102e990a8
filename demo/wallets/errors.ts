/**
 * The Demo Wallet's errors: EIP-1193 / JSON-RPC shaped (`code`, `message`, optional `data`), for both
 * its EVM and its Solana side. Phantom rejects Solana requests with the same 4001 error, so the modal
 * maps both to its user-rejected error.
 */

/**
 * EIP-1193 / JSON-RPC error: `code` and `message`, optional `data`.
 *
 * @example
 * throw new DemoWalletRpcError(ErrorCodes.invalidParams, 'personal_sign needs a message.')
 */
export class DemoWalletRpcError extends Error {
  override name = 'DemoWalletRpcError'
  readonly code: number
  readonly data?: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    if (data !== undefined) this.data = data
  }
}

export const ErrorCodes = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  unrecognizedChain: 4902,
  /** EIP-5792: the wallet does not serve the calls' chain. */
  unsupportedChainId: 5710,
  /** EIP-5792: no batch with this id. */
  unknownBundleId: 5730,
  /** EIP-5792: the calls must be atomic and this wallet cannot do that. */
  atomicityNotSupported: 5760,
  invalidRequest: -32600,
  invalidParams: -32602,
  internal: -32603,
} as const

/**
 * What the wallet throws when the person clicks Reject.
 *
 * @example
 * if (!(await prompts.ask(request))) throw userRejected()
 */
export const userRejected = (): DemoWalletRpcError =>
  new DemoWalletRpcError(ErrorCodes.userRejected, 'User rejected the request.')

/**
 * What the wallet throws for a request from a site it has not connected, or for an account it did not give.
 *
 * @example
 * if (!isAuthorized()) throw unauthorized()
 */
export const unauthorized = (
  what = 'The requested account and/or method has not been authorized by the user.',
): DemoWalletRpcError => new DemoWalletRpcError(ErrorCodes.unauthorized, what)

/**
 * What the wallet throws for malformed parameters.
 *
 * @example
 * throw invalidParams('Invalid "to" address.')
 */
export const invalidParams = (message: string): DemoWalletRpcError =>
  new DemoWalletRpcError(ErrorCodes.invalidParams, message)

let nextRpcId = 0

/**
 * One JSON-RPC call from the wallet to a node: the node's own error (code, message, data) is thrown
 * as it came; an unreachable node or a non-JSON answer is an internal error naming the URL.
 *
 * @example
 * const hash = await nodeRequest(fetch, 'http://127.0.0.1:8545', 'eth_sendRawTransaction', [raw])
 */
export async function nodeRequest(
  fetchFn: typeof fetch,
  url: string,
  method: string,
  params: unknown,
): Promise<unknown> {
  let response: Response
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++nextRpcId, method, params }),
    })
  } catch (error) {
    throw new DemoWalletRpcError(ErrorCodes.internal, `Demo Wallet could not reach ${url}.`, {
      cause: String(error),
    })
  }
  let body: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
  try {
    body = (await response.json()) as typeof body
  } catch {
    throw new DemoWalletRpcError(ErrorCodes.internal, `Demo Wallet got HTTP ${response.status} from ${url}.`)
  }
  if (body.error) {
    const { code, message, data } = body.error
    throw new DemoWalletRpcError(
      typeof code === 'number' ? code : ErrorCodes.internal,
      typeof message === 'string' ? message : 'Internal JSON-RPC error.',
      data,
    )
  }
  return body.result
}
