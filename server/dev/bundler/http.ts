// The bundler's HTTP side: JSON-RPC 2.0 requests and batches in, answers or JSON-RPC errors out.
import type { IncomingMessage, ServerResponse } from 'node:http'
import * as z from 'zod/mini'
import { BundlerRpcError, bundlerErrorCodes } from './errors.ts'

const MAX_BODY_BYTES = 1_000_000

const jsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.optional(z.union([z.string().check(z.maxLength(128)), z.number(), z.null()])),
  method: z.string().check(z.maxLength(128)),
  params: z.optional(z.array(z.unknown())),
})

/**
 * The answer to one JSON-RPC request: `call`'s result, or its error (a `BundlerRpcError` as it is,
 * anything else as an internal error, logged).
 *
 * @example
 * const answer = answerWith(call)
 * await answer({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' })
 */
export function answerWith(call: (method: string, params: unknown[]) => Promise<unknown>) {
  const answer = async (entry: unknown) => {
    const parsed = z.safeParse(jsonRpcRequest, entry)
    if (!parsed.success)
      return {
        jsonrpc: '2.0',
        id: null,
        error: { code: bundlerErrorCodes.invalidRequest, message: 'Invalid request' },
      }
    const { id = null, method, params = [] } = parsed.data
    try {
      return { jsonrpc: '2.0', id, result: await call(method, params) }
    } catch (error) {
      const known =
        error instanceof BundlerRpcError
          ? error
          : new BundlerRpcError(bundlerErrorCodes.internalError, 'The bundler failed to handle the request')
      if (!(error instanceof BundlerRpcError)) console.error('bundler:', error)
      return {
        jsonrpc: '2.0',
        id,
        error: {
          code: known.code,
          message: known.message,
          ...(known.data === undefined ? {} : { data: known.data }),
        },
      }
    }
  }

  return answer
}

/** Reads a POSTed JSON-RPC request or batch (up to 100) and writes the answers. */
export async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  answer: (entry: unknown) => Promise<unknown>,
): Promise<void> {
  const reply = (status: number, body: unknown) => {
    const text = JSON.stringify(body)
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    response.end(text)
  }
  if (request.method !== 'POST') {
    reply(405, {
      jsonrpc: '2.0',
      id: null,
      error: { code: bundlerErrorCodes.invalidRequest, message: 'POST a JSON-RPC request' },
    })
    return
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) {
      reply(413, {
        jsonrpc: '2.0',
        id: null,
        error: { code: bundlerErrorCodes.invalidRequest, message: 'The body is too large' },
      })
      request.destroy()
      return
    }
    chunks.push(chunk)
  }
  let payload: unknown
  try {
    payload = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    reply(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
    return
  }
  if (Array.isArray(payload)) {
    if (payload.length === 0 || payload.length > 100) {
      reply(400, {
        jsonrpc: '2.0',
        id: null,
        error: { code: bundlerErrorCodes.invalidRequest, message: 'A batch holds 1 to 100 requests' },
      })
      return
    }
    const answers = []
    for (const entry of payload) answers.push(await answer(entry))
    reply(200, answers)
    return
  }
  reply(200, await answer(payload))
}
