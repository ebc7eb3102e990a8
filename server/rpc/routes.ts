import type { FastifyInstance } from 'fastify'
import type { JsonRpcRequest } from '../../src/protocol/api/index.ts'
import {
  apiLimits,
  jsonRpcErrorCodes,
  jsonRpcRequest,
  jsonRpcRequestBody,
  rpcQuery,
} from '../../src/protocol/api/index.ts'
import { badRequest, ServiceError } from '../errors.ts'
import { projectOf } from '../http/access.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { route } from '../http/route.ts'
import { checkInput } from '../http/validation.ts'
import { type RpcForwarder, UpstreamError } from './forward.ts'
import type { RpcMethodPolicy } from './methods.ts'

export interface RpcRouteOptions {
  /** Where the route listens: `/v1` (the RPC proxy, the default) or `/v1/bundler` (the bundler proxy). */
  path?: string
  /** What the upstream is, in messages: 'RPC upstream' (the default) or 'bundler'. */
  upstreamName?: string
  /** What the route is, in refusals: 'RPC proxy' (the default) or 'bundler proxy'. */
  proxyName?: string
  /** CAIP-2 network id -> upstream JSON-RPC URL. */
  upstreams: Readonly<Record<string, string>>
  timeoutMs: number
  forwarder: RpcForwarder
  /** Which methods are forwarded (server/rpc/methods.ts); the others answer -32601 here. */
  allowed: RpcMethodPolicy
  /** Requests and JSON-RPC calls per second per client and project. */
  limits: { limiter: RateLimiter; rules: RateLimitRules }
}

/** The JSON-RPC answer to a request whose method the proxy does not forward. */
function methodNotAllowed(request: JsonRpcRequest, proxyName: string) {
  return {
    jsonrpc: '2.0' as const,
    id: request.id ?? null,
    error: {
      code: jsonRpcErrorCodes.methodNotFound,
      message: `The method ${request.method} is not available through this ${proxyName}`,
      data: { code: 'METHOD_NOT_ALLOWED' },
    },
  }
}

/** The key a JSON-RPC answer is matched to its request by. */
const idKey = (id: unknown) => JSON.stringify(id ?? null)

/**
 * One batch answer from the upstream's answers to the forwarded requests and the proxy's own refusals,
 * in the order of the requests (answers the upstream gave that match no request go last).
 */
function mergeBatch(
  requests: readonly JsonRpcRequest[],
  refused: ReadonlySet<number>,
  upstream: unknown,
  proxyName: string,
) {
  const answers = Array.isArray(upstream) ? [...upstream] : [upstream]
  const merged: unknown[] = []
  requests.forEach((request, index) => {
    if (request.id === undefined) return
    if (refused.has(index)) {
      merged.push(methodNotAllowed(request, proxyName))
      return
    }
    const found = answers.findIndex(
      (answer) =>
        typeof answer === 'object' &&
        answer !== null &&
        idKey((answer as { id?: unknown }).id) === idKey(request.id),
    )
    if (found !== -1) merged.push(...answers.splice(found, 1))
  })
  return [...merged, ...answers]
}

function failureResponse(requests: readonly JsonRpcRequest[], isBatch: boolean, error: UpstreamError) {
  const errorObject = {
    code: jsonRpcErrorCodes.internalError,
    message: error.message,
    data: { code: error.failure === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR' },
  }
  if (!isBatch) return { jsonrpc: '2.0', id: requests[0]?.id ?? null, error: errorObject }
  // Each caller in a batch learns the outcome of its own request, matched by id.
  const answers = requests
    .filter((request) => request.id !== undefined)
    .map((request) => ({ jsonrpc: '2.0', id: request.id ?? null, error: errorObject }))
  return answers.length > 0 ? answers : { jsonrpc: '2.0', id: null, error: errorObject }
}

/** Upstream failure answers for the forwarded requests, beside the refusals of the others. */
function mergeFailure(
  requests: readonly JsonRpcRequest[],
  refused: ReadonlySet<number>,
  isBatch: boolean,
  error: UpstreamError,
  proxyName: string,
) {
  if (refused.size === 0) return failureResponse(requests, isBatch, error)
  const failed = failureResponse(
    requests.filter((_request, index) => !refused.has(index)),
    true,
    error,
  )
  return mergeBatch(requests, refused, failed, proxyName)
}

/**
 * `POST /v1/?chainId={caip2}&projectId={id}`: checks a JSON-RPC 2.0 request or batch (1 to 1000) and
 * forwards it to the network's upstream, answering with the upstream's JSON as is. Register it in its
 * own scope: it keeps JSON bodies as text so the checked body goes upstream untouched.
 *
 * @example
 * await app.register(async (scope) => registerRpcRoutes(scope, { upstreams, timeoutMs: 10_000, forwarder }))
 */
export function registerRpcRoutes(app: FastifyInstance, options: RpcRouteOptions): void {
  const { path = '/v1', upstreamName = 'RPC upstream', proxyName = 'RPC proxy' } = options
  const supported = Object.keys(options.upstreams).sort()
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  )

  const bundler = upstreamName === 'bundler'
  route(
    app,
    {
      method: 'POST',
      url: path,
      config: { access: 'project', sdkOptional: true, jsonRpc: true },
      bodyLimit: apiLimits.maxRpcBodyBytes,
      summary: bundler
        ? "JSON-RPC 2.0 to the network's ERC-4337 bundler"
        : "JSON-RPC 2.0 to the network's node",
      description:
        `One request or a batch of up to ${apiLimits.maxRpcBatch}, forwarded as sent to the ${upstreamName} ` +
        `of \`chainId\`. Methods off the ${proxyName}'s allow-list are answered here with -32601; ` +
        'errors of the proxy itself are JSON-RPC error responses.',
      tags: ['rpc'],
      query: rpcQuery,
      body: jsonRpcRequestBody,
      responses: {
        200: {
          description: `The ${upstreamName}'s answer as it is: a JSON-RPC response, or an array of them for a batch.`,
          type: 'application/json',
        },
        204: { description: 'The body held only notifications, all refused: nothing to answer.' },
        502: { description: `\`UPSTREAM_ERROR\`: the ${upstreamName} failed.` },
        504: { description: `\`UPSTREAM_TIMEOUT\`: the ${upstreamName} did not answer in time.` },
      },
    },
    async (request, reply, input) => {
      const { chainId } = input.query({ chainId: (request.query as Record<string, unknown>).chainId })
      const upstreamUrl = options.upstreams[chainId]
      if (upstreamUrl === undefined) {
        throw badRequest(
          'chainId',
          `Unsupported chainId ${chainId}: this service proxies ${supported.length > 0 ? supported.join(', ') : 'no networks'}`,
        )
      }
      const raw = typeof request.body === 'string' ? request.body : ''
      let payload: unknown
      try {
        payload = JSON.parse(raw)
      } catch (error) {
        throw new ServiceError(400, 'BAD_REQUEST', 'The body is not valid JSON', {
          field: 'body',
          cause: error,
        })
      }
      const isBatch = Array.isArray(payload)
      // The body is text (forwarded untouched), parsed here: a batch's entries are checked one by one with
      // the batch option of `jsonRpcRequestBody`, so a refusal names the request at fault by its index.
      let requests: JsonRpcRequest[]
      if (Array.isArray(payload)) {
        if (payload.length > apiLimits.maxRpcBatch) {
          throw new ServiceError(
            400,
            'BAD_REQUEST',
            `Batch of ${payload.length} requests is over the limit of ${apiLimits.maxRpcBatch} requests per batch`,
            { field: 'body' },
          )
        }
        if (payload.length === 0)
          throw new ServiceError(400, 'BAD_REQUEST', 'The batch is empty', { field: 'body' })
        requests = payload.map((entry, index) => {
          const checked = checkInput(jsonRpcRequest, entry, 'body')
          if (checked.success) return checked.data
          const { field, problem } = checked.problem
          const what =
            field === '' ? problem : problem === 'missing' ? `${field} is missing` : `${field}: ${problem}`
          throw badRequest(
            `[${index}]${field === '' ? '' : `.${field}`}`,
            `Invalid request [${index}] of the batch: ${what}`,
          )
        })
      } else {
        // Not an array: checked against the union's one-request option.
        requests = [input.body(payload) as JsonRpcRequest]
      }

      await options.limits.limiter.take({ projectId: projectOf(request).id, address: request.ip }, [
        [options.limits.rules.rpc, 1],
        [options.limits.rules.rpcEntries, requests.length],
      ])

      // Methods off the allow-list are answered here, each on its own, and never reach the upstream.
      const refused = new Set<number>()
      requests.forEach((entry, index) => {
        if (!options.allowed(chainId, entry.method)) refused.add(index)
      })
      if (refused.size > 0) {
        request.log.info(
          { chainId, refused: [...new Set([...refused].map((index) => requests[index]?.method))] },
          'RPC methods refused',
        )
      }
      if (refused.size === requests.length) {
        const answers = requests
          .filter((entry) => entry.id !== undefined)
          .map((entry) => methodNotAllowed(entry, proxyName))
        // Notifications get no answer (JSON-RPC 2.0), so a body of only notifications gets none at all.
        if (answers.length === 0) return reply.code(204).send()
        return reply.type('application/json; charset=utf-8').send(isBatch ? answers : answers[0])
      }
      const forwarded =
        refused.size === 0
          ? raw
          : JSON.stringify((payload as unknown[]).filter((_entry, index) => !refused.has(index)))

      // Stop waiting on the upstream when the client goes away.
      const clientGone = new AbortController()
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) clientGone.abort()
      })
      try {
        const result = await options.forwarder.forward({
          chainId,
          upstreamName,
          upstreamUrl,
          body: forwarded,
          timeoutMs: options.timeoutMs,
          signal: clientGone.signal,
        })
        if (refused.size === 0) {
          return reply.code(result.status).type('application/json; charset=utf-8').send(result.body)
        }
        let upstreamAnswer: unknown
        try {
          upstreamAnswer = JSON.parse(result.body)
        } catch {
          throw new UpstreamError(
            'bad-response',
            `The ${upstreamName} for ${chainId} answered HTTP ${result.status} without JSON`,
            { type: 'UpstreamError', status: result.status },
          )
        }
        return reply
          .code(result.status)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(mergeBatch(requests, refused, upstreamAnswer, proxyName)))
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error
        request.log.warn({ chainId, failure: error.failure, upstream: error.detail }, error.message)
        return reply
          .code(error.failure === 'timeout' ? 504 : 502)
          .send(mergeFailure(requests, refused, isBatch, error, proxyName))
      }
    },
  )
}
