import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { summarizeUpstreamFailure, type UpstreamFailureSummary } from './redact.ts'

/** Why forwarding failed: the upstream did not answer in time, could not be reached, or answered badly. */
export type UpstreamFailure = 'timeout' | 'unreachable' | 'bad-response'

/**
 * Thrown by {@link RpcForwarder.forward}; `message` is safe to show clients (it never holds the upstream
 * URL). It keeps no `cause`: the HTTP client's errors quote host names and addresses. `detail` says what
 * may be logged.
 */
export class UpstreamError extends Error {
  override name = 'UpstreamError'
  readonly failure: UpstreamFailure
  readonly detail: UpstreamFailureSummary | undefined
  constructor(failure: UpstreamFailure, message: string, detail?: UpstreamFailureSummary) {
    super(message)
    this.failure = failure
    this.detail = detail
  }
}

export interface ForwardParameters {
  /** CAIP-2 id, for messages. */
  chainId: string
  /** What the upstream is, for messages: 'RPC upstream' (the default) or 'bundler'. */
  upstreamName?: string
  upstreamUrl: string
  /** The JSON-RPC body, already validated, sent as is. */
  body: string
  timeoutMs: number
  /** Aborts the upstream call (for example when the client goes away). */
  signal?: AbortSignal
}

export interface ForwardResult {
  status: number
  /** The upstream's JSON text, untouched. */
  body: string
}

export interface RpcForwarder {
  /**
   * Posts a JSON-RPC body upstream and resolves to the upstream's JSON answer as is, within `timeoutMs`
   * (connection, headers and body). Throws {@link UpstreamError} on timeout, when the upstream cannot be
   * reached, or when it answers something other than JSON.
   */
  forward(parameters: ForwardParameters): Promise<ForwardResult>
  /** Closes the kept-alive upstream connections. */
  close(): void
}

export interface RpcForwarderOptions {
  /** Most open connections per upstream. Default 64. */
  maxSockets?: number
  /** Largest upstream answer accepted, in bytes. Default 64 MiB. */
  maxResponseBytes?: number
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * The RPC proxy's upstream client: plain `node:http(s)` requests over kept-alive connections (about
 * twice as fast as `fetch` here), a timeout through an AbortController, and errors that name the network
 * but never the upstream URL, which may hold an API key.
 *
 * @example
 * const forwarder = createRpcForwarder()
 * const { status, body } = await forwarder.forward({
 *   chainId: 'eip155:31337', upstreamUrl: 'http://127.0.0.1:8545', timeoutMs: 10_000,
 *   body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}',
 * })
 * forwarder.close()
 */
export function createRpcForwarder(options: RpcForwarderOptions = {}): RpcForwarder {
  const maxSockets = options.maxSockets ?? 64
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets })
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets })

  function forward(parameters: ForwardParameters): Promise<ForwardResult> {
    const { chainId, upstreamName = 'RPC upstream' } = parameters
    return new Promise<ForwardResult>((resolve, reject) => {
      const controller = new AbortController()
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        controller.abort()
      }, parameters.timeoutMs)
      const onAbort = () => controller.abort()
      parameters.signal?.addEventListener('abort', onAbort, { once: true })
      const finish = () => {
        clearTimeout(timer)
        parameters.signal?.removeEventListener('abort', onAbort)
      }
      const fail = (error: unknown) => {
        finish()
        if (error instanceof UpstreamError) return reject(error)
        const detail = summarizeUpstreamFailure(error, [parameters.upstreamUrl])
        if (timedOut) return reject(new UpstreamError('timeout', 'Request timed out', detail))
        if (controller.signal.aborted) {
          return reject(new UpstreamError('unreachable', 'Request was aborted', detail))
        }
        const code = detail.code
        reject(
          new UpstreamError(
            'unreachable',
            `The ${upstreamName} for ${chainId} is unreachable${code ? ` (${code})` : ''}`,
            detail,
          ),
        )
      }
      let url: URL
      try {
        url = new URL(parameters.upstreamUrl)
      } catch (error) {
        return fail(error)
      }
      const secure = url.protocol === 'https:'
      const onResponse = (response: IncomingMessage) => {
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxResponseBytes) {
            response.destroy(
              new UpstreamError(
                'bad-response',
                `The ${upstreamName} for ${chainId} answered more than ${maxResponseBytes} bytes`,
                { type: 'UpstreamError', status: response.statusCode ?? 0 },
              ),
            )
            return
          }
          chunks.push(chunk)
        })
        response.on('error', fail)
        response.on('end', () => {
          finish()
          const text = Buffer.concat(chunks).toString('utf8')
          const contentType = String(response.headers['content-type'] ?? '')
          if (!(contentType.includes('json') && text.trim() !== '') && !looksLikeJson(text)) {
            reject(
              new UpstreamError(
                'bad-response',
                `The ${upstreamName} for ${chainId} answered HTTP ${response.statusCode} without JSON`,
                { type: 'UpstreamError', status: response.statusCode ?? 0 },
              ),
            )
            return
          }
          resolve({ status: response.statusCode ?? 502, body: text })
        })
      }
      // A kept-alive connection can be closed by the upstream (its idle timeout) just as a request is
      // written on it: the request then fails with ECONNRESET (or EPIPE) before the upstream read it.
      // Sent once more on a connection of its own (not the pool's: the upstream closes its idle
      // connections together, so the pool's next one is likely closed too); a failure on a new
      // connection is the upstream's.
      const send = (retried: boolean) => {
        let responded = false
        const request = (secure ? httpsRequest : httpRequest)(
          url,
          {
            method: 'POST',
            agent: retried ? false : secure ? httpsAgent : httpAgent,
            signal: controller.signal,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json',
              'content-length': Buffer.byteLength(parameters.body),
            },
          },
          (response) => {
            responded = true
            onResponse(response)
          },
        )
        request.on('error', (error: NodeJS.ErrnoException) => {
          const closedIdle = error.code === 'ECONNRESET' || error.code === 'EPIPE'
          if (closedIdle && request.reusedSocket && !responded && !retried && !controller.signal.aborted) {
            send(true)
            return
          }
          fail(error)
        })
        request.end(parameters.body)
      }
      send(false)
    })
  }

  return {
    forward,
    close() {
      httpAgent.destroy()
      httpsAgent.destroy()
    },
  }
}
