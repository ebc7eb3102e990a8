import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ApiErrorBody } from '../../src/protocol/api/index.ts'
import { jsonRpcErrorCodes } from '../../src/protocol/api/index.ts'
import { isDatabaseUnavailable } from '../db/database.ts'
import { databaseUnavailable, isServiceError, ServiceError } from '../errors.ts'
import { addVary } from './access.ts'

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as Partial<FastifyError>).statusCode === 'number'
}

const jsonBodyErrors = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY'])

/**
 * Turns anything thrown while handling a request into a {@link ServiceError}: our own as they are,
 * Fastify's body errors into 400, 413 and 415 naming `body`, the rest into a 500.
 *
 * @example
 * const serviceError = toServiceError(error)
 */
export function toServiceError(error: unknown, bodyLimit?: number): ServiceError {
  if (isServiceError(error)) return error
  if (isDatabaseUnavailable(error)) return databaseUnavailable(error)
  if (isFastifyError(error) && error.statusCode !== undefined && error.statusCode < 500) {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = bodyLimit === undefined ? '' : ` of ${bodyLimit} bytes`
      return new ServiceError(413, 'PAYLOAD_TOO_LARGE', `The body is over the limit${limit}`, {
        field: 'body',
      })
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return new ServiceError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json', {
        field: 'body',
      })
    }
    if (jsonBodyErrors.has(error.code) || error instanceof SyntaxError) {
      return new ServiceError(400, 'BAD_REQUEST', 'The body is not valid JSON', {
        field: 'body',
        cause: error,
      })
    }
    return new ServiceError(error.statusCode, 'BAD_REQUEST', error.message, { cause: error })
  }
  return new ServiceError(500, 'INTERNAL_ERROR', 'Internal server error', { cause: error })
}

/** The JSON-RPC 2.0 error code for a service error on the RPC proxy. */
function jsonRpcCode(error: ServiceError): number {
  if (error.field === 'body' && error.message === 'The body is not valid JSON')
    return jsonRpcErrorCodes.parseError
  if (error.field === 'chainId') return jsonRpcErrorCodes.invalidParams
  if (error.statusCode === 429) return jsonRpcErrorCodes.limitExceeded
  return error.statusCode >= 500 ? jsonRpcErrorCodes.internalError : jsonRpcErrorCodes.invalidRequest
}

/**
 * The body of an error answer: `{ error: { code, message, field? } }`, or a JSON-RPC 2.0 error response
 * (`id: null`, our code and field in `error.data`) on the RPC proxy.
 */
export function errorBody(error: ServiceError, jsonRpc: boolean) {
  const field = error.field === undefined ? {} : { field: error.field }
  const details = { code: error.code, ...field }
  if (jsonRpc) {
    return {
      jsonrpc: '2.0' as const,
      id: null,
      error: {
        code: jsonRpcCode(error),
        message: jsonRpcCode(error) === jsonRpcErrorCodes.parseError ? 'Parse error' : error.message,
        data: details,
      },
    }
  }
  const body: ApiErrorBody = { error: { code: error.code, message: error.message, ...field } }
  return body
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: ServiceError) {
  const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds
  if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter))
  // Error answers carry the caller's origin so a page can read why it was refused (the modal shows
  // "Invalid App Configuration"); they hold no project data, and successful answers still go only to
  // allowed origins.
  const origin = request.headers.origin
  if (origin !== undefined && !reply.hasHeader('access-control-allow-origin')) {
    reply.header('access-control-allow-origin', origin)
    addVary(reply, 'Origin')
  }
  return reply.code(error.statusCode).send(errorBody(error, request.routeOptions.config.jsonRpc === true))
}

/**
 * Installs the error and not-found handlers that answer in the API's error shape.
 *
 * @example
 * registerErrorHandling(app)
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const serviceError = toServiceError(error, request.routeOptions.bodyLimit)
    if (serviceError.code === 'SERVICE_UNAVAILABLE') {
      const code =
        (error as { code?: unknown; cause?: { code?: unknown } }).cause?.code ??
        (error as { code?: unknown }).code
      request.log.warn({ code }, serviceError.message)
    } else if (serviceError.statusCode >= 500) request.log.error({ err: error }, 'Request failed')
    else request.log.debug({ code: serviceError.code, field: serviceError.field }, serviceError.message)
    return sendError(request, reply, serviceError)
  })
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    return sendError(
      request,
      reply,
      new ServiceError(404, 'NOT_FOUND', `No route for ${request.method} ${path}`),
    )
  })
}
