/** JSON-RPC 2.0 envelopes (single and batch) shared by the HTTP and WebSocket fronts. */
import { RPC_ERROR, RpcError } from './errors.ts'

export type JsonRpcId = string | number | null

export interface JsonRpcResponse {
  jsonrpc: '2.0'
  id: JsonRpcId
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

/** Runs one method; `params` is whatever the request carried (undefined when absent). */
export type MethodHandler<Context> = (params: unknown, context: Context) => unknown

export type MethodTable<Context> = ReadonlyMap<string, MethodHandler<Context>>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isId = (value: unknown): value is JsonRpcId =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))

export function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id }
}

/** Calls for which the caller wants to know the method and its outcome (logging, tests). */
export type CallObserver = (method: string, error: RpcError | null) => void

function handleOne<Context>(
  request: unknown,
  methods: MethodTable<Context>,
  context: Context,
  observe?: CallObserver,
): JsonRpcResponse | null {
  const id = isRecord(request) && isId(request.id) ? request.id : null
  if (
    !isRecord(request) ||
    request.jsonrpc !== '2.0' ||
    typeof request.method !== 'string' ||
    ('id' in request && !isId(request.id)) ||
    (request.params != null && !Array.isArray(request.params) && !isRecord(request.params))
  ) {
    return errorResponse(id, RPC_ERROR.invalidRequest, 'Invalid request')
  }
  const notification = !('id' in request)
  const handler = methods.get(request.method)
  if (!handler) {
    observe?.(request.method, new RpcError(RPC_ERROR.methodNotFound, 'Method not found'))
    return notification ? null : errorResponse(id, RPC_ERROR.methodNotFound, 'Method not found')
  }
  try {
    const result = handler(request.params ?? undefined, context)
    observe?.(request.method, null)
    return notification ? null : { jsonrpc: '2.0', result, id }
  } catch (error) {
    const rpcError =
      error instanceof RpcError
        ? error
        : new RpcError(
            RPC_ERROR.internalError,
            `Internal error: ${error instanceof Error ? error.message : String(error)}`,
          )
    observe?.(request.method, rpcError)
    return notification ? null : errorResponse(id, rpcError.code, rpcError.message, rpcError.data)
  }
}

/**
 * Answers a JSON-RPC body (text): a response, an array of responses for a batch, or null when there is nothing
 * to answer (only notifications).
 */
export function handleJsonRpc<Context>(
  body: string,
  methods: MethodTable<Context>,
  context: Context,
  observe?: CallObserver,
): JsonRpcResponse | JsonRpcResponse[] | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return errorResponse(null, RPC_ERROR.parseError, 'Parse error')
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return errorResponse(null, RPC_ERROR.invalidRequest, 'Invalid request')
    const responses = parsed
      .map((request) => handleOne(request, methods, context, observe))
      .filter((response): response is JsonRpcResponse => response !== null)
    return responses.length > 0 ? responses : null
  }
  return handleOne(parsed, methods, context, observe)
}
