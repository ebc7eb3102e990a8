import { fallback, http, type Transport } from 'viem'
import { RequestAbortedError, RequestTimeoutError, toBaseError, ValidationError } from '../errors/index.ts'
import { RPC_BATCH_MAX, RPC_FALLBACK_PING_MS, RPC_TIMEOUT_MS } from '../protocol/constants.ts'

/**
 * Methods that only read. They never take an abort signal (SPEC section 9: exempt from abort): viem
 * batches requests per signal, so reads without one share a batch, and their answers are cached for
 * whoever asks next anyway.
 */
const READ_METHOD =
  /^(eth_(blockNumber|call|chainId|estimateGas|feeHistory|gasPrice|get\w+|maxPriorityFeePerGas)|net_\w+|web3_clientVersion|get\w+|isBlockhashValid|minimumLedgerSlot)$/

/** Whether a JSON-RPC method only reads, so an abort never stops it. */
export const isReadMethod = (method: string): boolean => READ_METHOD.test(method)

export interface RpcTransportParameters {
  /** Tried in this order until the ranking has samples (the service's proxy first by default). */
  urls: readonly string[]
  fetchFn: typeof fetch
  /** Resolves while the page wants its upstreams ranked; the pings wait on it otherwise. */
  whenActive: () => Promise<void>
  /** Told when a request fails on one URL (the fallback then tries the next one, if any). */
  onFallback?: ((url: string, method: string, error: unknown) => void) | undefined
}

export interface RpcTransport {
  request(method: string, params: readonly unknown[], options?: { signal?: AbortSignal }): Promise<unknown>
}

/**
 * JSON-RPC to a network over viem's transports (SPEC section 9): each URL is an `http` transport
 * with a 10 s timeout that sends concurrent requests as one batch of up to 1000; with several
 * URLs, a `fallback` ranks them by a ping every 4 s (`eth_blockNumber`) and moves to the next on
 * failure. Errors come back as the catalogue's.
 *
 * @example
 * const rpc = createRpcTransport({ urls: [proxy, upstream], fetchFn: fetch, whenActive: async () => {} })
 * const block = await rpc.request('eth_blockNumber', [])
 */
export function createRpcTransport({
  urls,
  fetchFn,
  whenActive,
  onFallback,
}: RpcTransportParameters): RpcTransport {
  const one = (url: string) =>
    http(url, {
      batch: { batchSize: RPC_BATCH_MAX },
      timeout: RPC_TIMEOUT_MS,
      retryCount: 0,
      fetchFn: (input, init) => fetchFn(input, init),
    })
  const transports = urls.map(one)
  const [first] = transports
  if (!first) throw new ValidationError('No RPC URL')
  const factory: Transport =
    transports.length === 1
      ? first
      : fallback(transports, {
          retryCount: 0,
          rank: {
            interval: RPC_FALLBACK_PING_MS,
            timeout: RPC_TIMEOUT_MS,
            ping: async ({ transport }) => {
              await whenActive()
              return transport.request({ method: 'eth_blockNumber' })
            },
          },
        })
  const transport = factory({ retryCount: 0 })
  const value = transport.value as { onResponse?: unknown } | undefined
  if (onFallback && typeof value?.onResponse === 'function') {
    const onResponse = value.onResponse as (
      listener: (response: {
        status: string
        method: string
        error?: Error
        transport: { value?: unknown }
      }) => void,
    ) => void
    onResponse((response) => {
      if (response.status !== 'error') return
      const url = (response.transport.value as { url?: string } | undefined)?.url ?? ''
      onFallback(url, response.method, response.error)
    })
  }
  return {
    async request(method, params, options = {}) {
      const signal = isReadMethod(method) ? undefined : options.signal
      if (signal?.aborted) throw new RequestAbortedError()
      try {
        return await transport.request(
          { method, params: [...params] } as never,
          signal ? { signal } : undefined,
        )
      } catch (error) {
        if (signal?.aborted) throw new RequestAbortedError({ cause: error })
        if ((error as { name?: unknown }).name === 'TimeoutError')
          throw new RequestTimeoutError({ method, timeoutMs: RPC_TIMEOUT_MS, cause: error })
        throw toBaseError(error, { method })
      }
    },
  }
}
