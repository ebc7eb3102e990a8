import type { FastifyInstance, FastifyRequest } from 'fastify'
import type * as z from 'zod/mini'
import { ServiceError } from '../errors.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { route } from '../http/route.ts'
import type { Project } from '../projects/store.ts'
import { UpstreamError } from '../rpc/forward.ts'
import { dataError } from './errors.ts'

/** `RATE_LIMIT_DATA` requests per second per client and project. */
export interface DataLimits {
  limiter: RateLimiter
  rules: RateLimitRules
}

/** One GET route of the data API: its path under `/blockchain/v1/`, its query and answer, in words. */
export interface DataRouteDefinition<Schema extends z.ZodMiniType<{ chainId: string }>> {
  path: string
  summary: string
  description?: string
  query: Schema
  /** The answer's schema (the browser parses the answer with it). */
  response: z.ZodMiniType
}

/** Registers one GET route of the data API under `/blockchain/v1/`. */
export type DataRoute = <Schema extends z.ZodMiniType<{ chainId: string }>, Answer>(
  definition: DataRouteDefinition<Schema>,
  handle: (query: z.output<Schema>, project: Project) => Promise<Answer>,
) => void

/**
 * How every GET route of the data API (`/blockchain/v1/*`, blockchain data and history alike) behaves:
 * a project route that checks the query, takes from the client's `data` rate limit and answers what
 * `handle` resolves to. Swap routes answer 403 to a project whose `swaps` feature is off. Upstream
 * failures answer 502 or 504 without the upstream's URL.
 *
 * @example
 * const route = dataRoutes(app, limits)
 * route(
 *   { path: 'gas-price', summary: 'The gas price', query: chainQuery, response: gasPriceResponse },
 *   (query) => data.gasPrice(query.chainId),
 * )
 */
export function dataRoutes(app: FastifyInstance, limits: DataLimits): DataRoute {
  return ({ path, summary, description, query: schema, response }, handle) => {
    const swap = path.startsWith('swap/')
    route(
      app,
      {
        method: 'GET',
        url: `/blockchain/v1/${path}`,
        config: { access: 'project' },
        summary,
        ...(description === undefined ? {} : { description }),
        tags: ['blockchain'],
        query: schema,
        responses: {
          200: { description: 'The answer.', schema: response },
          ...(swap
            ? { 403: { description: "`SWAPS_DISABLED`: the project's `swaps` feature is off." } }
            : {}),
          502: { description: '`UPSTREAM_ERROR`: the network or the price source failed.' },
          504: { description: '`UPSTREAM_TIMEOUT`: the network or the price source did not answer in time.' },
        },
      },
      async (request: FastifyRequest, _reply, input) => {
        // The schema is generic here, so its output type is named rather than inferred.
        const query = input.query() as z.output<typeof schema>
        const { project } = request
        if (!project) throw new Error('The access hook did not run')
        await limits.limiter.take({ projectId: project.id, address: request.ip }, [[limits.rules.data, 1]])
        if (swap && !project.features.swaps) throw dataError('SWAPS_DISABLED', 403)
        try {
          return await handle(query, project)
        } catch (error) {
          if (!(error instanceof UpstreamError)) throw error
          request.log.warn(
            { chainId: query.chainId, failure: error.failure, upstream: error.detail },
            error.message,
          )
          throw new ServiceError(
            error.failure === 'timeout' ? 504 : 502,
            error.failure === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR',
            error.message,
          )
        }
      },
    )
  }
}
