import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Address, Hex } from 'viem'
import * as z from 'zod/mini'
import type {
  NameCheckResponse,
  NameRecord,
  NameReleaseResponse,
  ProfileResponse,
} from '../../src/protocol/api/index.ts'
import {
  avatarUpdateBody,
  nameAddressQuery,
  nameCheckQuery,
  nameRegisterBody,
  nameReleaseBody,
  nameResolveQuery,
} from '../../src/protocol/api/index.ts'
import { ServiceError } from '../errors.ts'
import { projectOf } from '../http/access.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { parseInput } from '../http/validation.ts'
import { GATEWAY_MAX_CALL_BYTES, type NameGateway } from './gateway.ts'
import type { NameRegistry } from './registry.ts'

export interface NameRouteOptions {
  registry: NameRegistry
  /** The CCIP-read gateway of the offchain resolver; its routes are off when null (no `NAME_GATEWAY_KEY`). */
  gateway: NameGateway | null
  limits: { limiter: RateLimiter; rules: RateLimitRules }
}

/**
 * The name registry's API (`/names/v1/*`): check, register (or change), release, set the profile image, resolve, reverse and
 * profile. Project
 * routes (project id, origin); lookups take from the client's `data` rate limit, registrations from
 * their own per-minute counter. Answers are `no-store`: the modal keeps its own 5-minute caches.
 *
 * @example
 * await app.register(async (scope) => registerNameRoutes(scope, { registry, limits }))
 */
export function registerNameRoutes(app: FastifyInstance, options: NameRouteOptions): void {
  const { registry, gateway, limits } = options
  const config = { access: 'project' } as const
  // A project whose `names` feature is off has no registry (403), after the rate limit is taken.
  const take = async (request: FastifyRequest, rule: RateLimitRules['data']) => {
    const project = projectOf(request)
    await limits.limiter.take({ projectId: project.id, address: request.ip }, [[rule, 1]])
    if (!project.features.names)
      throw new ServiceError(403, 'NAMES_DISABLED', 'Names are turned off for this project')
  }

  app.get('/names/v1/check', { config }, async (request, reply): Promise<NameCheckResponse> => {
    const query = parseInput(nameCheckQuery, request.query, 'query')
    await take(request, limits.rules.data)
    reply.header('cache-control', 'no-store')
    return registry.check(query.name)
  })

  app.post('/names/v1/register', { config }, async (request, reply): Promise<NameRecord> => {
    const body = parseInput(nameRegisterBody, request.body, 'body')
    await take(request, limits.rules.writes('names:register'))
    reply.header('cache-control', 'no-store')
    return registry.register(projectOf(request), body)
  })

  // Giving up the name: signed like a registration, counted with them.
  app.post('/names/v1/release', { config }, async (request, reply): Promise<NameReleaseResponse> => {
    const body = parseInput(nameReleaseBody, request.body, 'body')
    await take(request, limits.rules.writes('names:register'))
    reply.header('cache-control', 'no-store')
    return registry.release(projectOf(request), body)
  })

  app.post('/names/v1/avatar', { config }, async (request, reply): Promise<NameRecord> => {
    const body = parseInput(avatarUpdateBody, request.body, 'body')
    await take(request, limits.rules.writes('names:avatar'))
    reply.header('cache-control', 'no-store')
    return registry.setAvatar(projectOf(request), body)
  })

  app.get('/names/v1/resolve', { config }, async (request, reply): Promise<NameRecord> => {
    const query = parseInput(nameResolveQuery, request.query, 'query')
    await take(request, limits.rules.data)
    reply.header('cache-control', 'no-store')
    const record = await registry.resolve(query.name)
    if (record === null)
      throw new ServiceError(404, 'NAME_NOT_FOUND', `${query.name} is not registered`, { field: 'name' })
    return record
  })

  app.get('/names/v1/reverse', { config }, async (request, reply) => {
    const query = parseInput(nameAddressQuery, request.query, 'query')
    await take(request, limits.rules.data)
    reply.header('cache-control', 'no-store')
    return { names: await registry.reverse(query.address) }
  })

  app.get('/names/v1/profile', { config }, async (request, reply): Promise<ProfileResponse> => {
    const query = parseInput(nameAddressQuery, request.query, 'query')
    await take(request, limits.rules.data)
    reply.header('cache-control', 'no-store')
    return registry.profile(query.address)
  })

  if (gateway) registerGatewayRoutes(app, gateway, limits)
}

const hexCall = z
  .string()
  .check(
    z.maxLength(2 + GATEWAY_MAX_CALL_BYTES * 2, `longer than ${GATEWAY_MAX_CALL_BYTES} bytes`),
    z.regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex bytes'),
  )
const gatewayRequest = z.object({
  sender: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address')),
  data: hexCall,
})

/**
 * EIP-3668's gateway: `GET /names/v1/gateway/{sender}/{data}.json` and `POST /names/v1/gateway` with
 * `{sender, data}`, answering `{data}`. Public (resolvers and ENS clients call it, not a project's
 * page), rate-limited per client address.
 */
function registerGatewayRoutes(
  app: FastifyInstance,
  gateway: NameGateway,
  limits: NameRouteOptions['limits'],
) {
  const config = { access: 'public' } as const
  const answer = async (request: FastifyRequest, input: z.output<typeof gatewayRequest>) => {
    await limits.limiter.take({ projectId: 'names-gateway', address: request.ip }, [[limits.rules.data, 1]])
    return { data: await gateway.answer(input.sender as Address, input.data as Hex) }
  }
  app.get('/names/v1/gateway/:sender/:data', { config }, async (request, reply) => {
    const params = request.params as { sender?: string; data?: string }
    const input = parseInput(
      gatewayRequest,
      { sender: params.sender, data: params.data?.replace(/\.json$/, '') },
      'path',
    )
    reply.header('cache-control', 'no-store')
    return answer(request, input)
  })
  app.post('/names/v1/gateway', { config, bodyLimit: 4 * GATEWAY_MAX_CALL_BYTES }, async (request, reply) => {
    const input = parseInput(gatewayRequest, request.body, 'body')
    reply.header('cache-control', 'no-store')
    return answer(request, input)
  })
}
