import type { RpcForwarder } from '../rpc/forward.ts'
import { UpstreamError } from '../rpc/forward.ts'
import { EmbeddedError } from './errors.ts'

/** JSON-RPC calls the wallet makes on the service's upstreams (never naming their URLs in errors). */
export interface Upstream {
  call(chainId: string, method: string, params: unknown): Promise<unknown>
}

/**
 * The embedded wallet's JSON-RPC client over the RPC proxy's forwarder. An upstream's JSON-RPC error
 * comes back as a 400 with its `rpcCode`, message and data (execution reverted, insufficient funds, …);
 * an unreachable or slow upstream as a 502.
 *
 * @example
 * const upstream = createUpstream({ upstreams: config.rpcUpstreams, forwarder, timeoutMs: 10_000 })
 * const nonce = await upstream.call('eip155:31337', 'eth_getTransactionCount', [address, 'pending'])
 */
export function createUpstream(options: {
  upstreams: Readonly<Record<string, string>>
  forwarder: RpcForwarder
  timeoutMs: number
  /** What the upstreams are, in messages: 'RPC upstream' (the default) or 'bundler'. */
  upstreamName?: string
}): Upstream {
  // This client's own ids (in the upstream's logs), not shared with other instances.
  let nextId = 1
  return {
    async call(chainId, method, params) {
      const upstreamUrl = options.upstreams[chainId]
      if (!upstreamUrl)
        throw new EmbeddedError(400, 'BAD_REQUEST', 'Chain is not supported', { field: 'chainId' })
      const id = nextId++
      let body: string
      try {
        ;({ body } = await options.forwarder.forward({
          chainId,
          upstreamUrl,
          ...(options.upstreamName ? { upstreamName: options.upstreamName } : {}),
          timeoutMs: options.timeoutMs,
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        }))
      } catch (error) {
        // -32603 as the RPC proxy answers it: without an RPC code the page would read it as a rejection (5000).
        if (error instanceof UpstreamError)
          throw new EmbeddedError(502, 'UPSTREAM_ERROR', error.message, { rpcCode: -32603 })
        throw error
      }
      const answer = JSON.parse(body) as {
        result?: unknown
        error?: { code?: unknown; message?: unknown; data?: unknown }
      }
      if (answer.error) {
        const code = typeof answer.error.code === 'number' ? answer.error.code : -32603
        const message =
          typeof answer.error.message === 'string' ? answer.error.message.slice(0, 500) : 'RPC error'
        throw new EmbeddedError(400, 'UPSTREAM_ERROR', message, { rpcCode: code, rpcData: answer.error.data })
      }
      return answer.result
    },
  }
}
