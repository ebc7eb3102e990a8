import { type RpcForwarder, UpstreamError } from '../rpc/forward.ts'

/** One JSON-RPC call of a batch. */
export interface ChainCall {
  method: string
  params: readonly unknown[]
}

/** The answer to one call: its result, or the node's error (a revert, for example). */
export type ChainAnswer = { ok: true; result: unknown } | { ok: false; code: number; message: string }

export interface ChainReader {
  /** Whether the service has an upstream for this network. */
  has(chainId: string): boolean
  /**
   * Sends the calls to the network's upstream as one JSON-RPC batch (one round trip) and resolves to
   * their answers in order. Throws {@link UpstreamError} when the upstream fails as a whole.
   */
  batch(chainId: string, calls: readonly ChainCall[]): Promise<ChainAnswer[]>
}

export interface ChainReaderOptions {
  /** CAIP-2 network id -> upstream JSON-RPC URL (the RPC proxy's). */
  upstreams: Readonly<Record<string, string>>
  forwarder: RpcForwarder
  timeoutMs: number
}

/**
 * The data API's way to the chains: JSON-RPC batches to the RPC proxy's upstreams through the proxy's
 * forwarder (kept-alive connections, timeouts, errors that never name the upstream URL).
 *
 * @example
 * const reader = createChainReader({ upstreams: config.rpcUpstreams, forwarder, timeoutMs: 10_000 })
 * const [gasPrice] = await reader.batch('eip155:31337', [{ method: 'eth_gasPrice', params: [] }])
 */
export function createChainReader(options: ChainReaderOptions): ChainReader {
  return {
    has: (chainId) => options.upstreams[chainId] !== undefined,
    async batch(chainId, calls) {
      const upstreamUrl = options.upstreams[chainId]
      if (upstreamUrl === undefined) throw new Error(`No upstream for ${chainId}`)
      if (calls.length === 0) return []
      const { status, body } = await options.forwarder.forward({
        chainId,
        upstreamUrl,
        body: JSON.stringify(
          calls.map((call, id) => ({ jsonrpc: '2.0', id, method: call.method, params: call.params })),
        ),
        timeoutMs: options.timeoutMs,
      })
      let answers: unknown
      try {
        answers = JSON.parse(body)
      } catch {
        answers = undefined
      }
      if (!Array.isArray(answers)) {
        throw new UpstreamError(
          'bad-response',
          `The RPC upstream for ${chainId} answered HTTP ${status} without a batch answer`,
          { type: 'UpstreamError', status },
        )
      }
      const byId = new Map<unknown, { result?: unknown; error?: { code?: unknown; message?: unknown } }>()
      for (const answer of answers) {
        if (typeof answer === 'object' && answer !== null) byId.set((answer as { id?: unknown }).id, answer)
      }
      return calls.map((_call, id): ChainAnswer => {
        const answer = byId.get(id)
        if (answer && 'result' in answer) return { ok: true, result: answer.result }
        const error = answer?.error
        return {
          ok: false,
          code: typeof error?.code === 'number' ? error.code : -32603,
          message: typeof error?.message === 'string' ? error.message : 'No answer',
        }
      })
    },
  }
}
