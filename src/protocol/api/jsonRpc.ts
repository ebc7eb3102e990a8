import * as z from 'zod/mini'
import { caip2NetworkId } from './common.ts'
import { apiLimits } from './limits.ts'

/** JSON-RPC 2.0 error codes the RPC proxy answers with itself. */
export const jsonRpcErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  /** Also for methods the proxy does not forward (its allow-list). */
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** EIP-1474 "limit exceeded": the proxy's rate limit. */
  limitExceeded: -32005,
} as const

/** A JSON-RPC 2.0 id: string, number or null. */
export const jsonRpcId = z.union([z.string(), z.number(), z.null()])
export type JsonRpcId = z.infer<typeof jsonRpcId>

/**
 * One JSON-RPC 2.0 request. Without `id` it is a notification.
 *
 * @example
 * jsonRpcRequest.parse({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })
 */
export const jsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.optional(jsonRpcId),
  method: z
    .string()
    .check(z.minLength(1, 'Expected a method name'), z.maxLength(256, 'Expected at most 256 characters')),
  params: z.optional(z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())])),
})

export type JsonRpcRequest = z.infer<typeof jsonRpcRequest>

/**
 * A JSON-RPC 2.0 batch: 1 to 1000 requests (SPEC section 9).
 *
 * @example
 * jsonRpcBatchRequest.parse([{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }])
 */
export const jsonRpcBatchRequest = z
  .array(jsonRpcRequest)
  .check(
    z.minLength(1, 'Expected at least one request'),
    z.maxLength(apiLimits.maxRpcBatch, `Expected at most ${apiLimits.maxRpcBatch} requests`),
  )

export type JsonRpcBatchRequest = z.infer<typeof jsonRpcBatchRequest>

/** Body of `POST /v1/`: a single request or a batch. */
export const jsonRpcRequestBody = z.union([jsonRpcRequest, jsonRpcBatchRequest])
export type JsonRpcRequestBody = z.infer<typeof jsonRpcRequestBody>

/** The `error` member of a JSON-RPC 2.0 error response. */
export const jsonRpcErrorObject = z.object({
  code: z.int(),
  message: z.string(),
  data: z.optional(z.unknown()),
})

export type JsonRpcErrorObject = z.infer<typeof jsonRpcErrorObject>

/** A JSON-RPC 2.0 error response. */
export const jsonRpcFailure = z.object({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId,
  error: jsonRpcErrorObject,
})

/** A JSON-RPC 2.0 success response. */
export const jsonRpcSuccess = z.object({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId,
  result: z.unknown(),
})

/**
 * A JSON-RPC 2.0 response (the error form is tried first, since `result` may itself be null).
 *
 * @example
 * const response = jsonRpcResponse.parse(await res.json())
 * if ('error' in response) throw new Error(response.error.message)
 */
export const jsonRpcResponse = z.union([jsonRpcFailure, jsonRpcSuccess])
export type JsonRpcResponse = z.infer<typeof jsonRpcResponse>

/** A JSON-RPC 2.0 batch response. */
export const jsonRpcBatchResponse = z.array(jsonRpcResponse)
export type JsonRpcBatchResponse = z.infer<typeof jsonRpcBatchResponse>

/**
 * Query parameters of `POST /v1/`: the CAIP-2 `chainId` (checked against the service's upstreams).
 *
 * @example
 * rpcQuery.parse({ chainId: 'eip155:31337' })
 */
export const rpcQuery = z.object({ chainId: caip2NetworkId })
