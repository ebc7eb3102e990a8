import { RequestTimeoutError, toBaseError } from '../errors/index.ts'
import { RPC_TIMEOUT_MS } from '../protocol/constants.ts'

/**
 * One JSON-RPC 2.0 call over HTTP with the spec's 10 s timeout. Small on purpose: the button's
 * balance needs no RPC library.
 *
 * @example
 * const hex = await rpcRequest(fetch, 'http://127.0.0.1:8545', 'eth_chainId', [])
 */
export async function rpcRequest(
  fetchFn: typeof fetch,
  url: string,
  method: string,
  params: readonly unknown[],
  timeoutMs = RPC_TIMEOUT_MS,
): Promise<unknown> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  try {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // One call per HTTP request: its answer is the response, so the id needs no counter.
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: controller.signal,
    })
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
    if (body.error) throw toBaseError(body.error)
    if (!response.ok || !('result' in body))
      throw toBaseError({ code: -32603, message: `HTTP ${response.status}` })
    return body.result
  } catch (error) {
    if (controller.signal.aborted) throw new RequestTimeoutError({ method, timeoutMs })
    throw toBaseError(error)
  } finally {
    clearTimeout(timer)
  }
}
