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
  nameCheckResponse,
  nameRecord,
  nameRegisterBody,
  nameReleaseBody,
  nameReleaseResponse,
  nameResolveQuery,
  nameReverseResponse,
  profileResponse,
} from '../../src/protocol/api/index.ts'
import { ServiceError } from '../errors.ts'
import { projectOf } from '../http/access.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { routes } from '../http/route.ts'
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
  // A project whose `names` feature is off has no registry (403), after the rate limit is taken.
  const take = async (request: FastifyRequest, rule: RateLimitRules['data']) => {
    const project = projectOf(request)
    await limits.limiter.take({ projectId: project.id, address: request.ip }, [[rule, 1]])
    if (!project.features.names)
      throw new ServiceError(403, 'NAMES_DISABLED', 'Names are turned off for this project')
  }

  const route = routes(app, { tags: ['names'], config: { access: 'project' } })
  const noName = { description: '`NAME_NOT_FOUND`: the account has no name.' }
  const off = { 403: { description: "`NAMES_DISABLED`: the project's `names` feature is off." } }
  const signed = "Signed by the account (its message rebuilt from the body's fields and matched exactly)."

  route(
    {
      method: 'GET',
      url: '/names/v1/check',
      summary: 'Whether a name is free',
      query: nameCheckQuery,
      responses: {
        ...off,
        200: {
          description: 'The full name, whether it is free, and free names like it.',
          schema: nameCheckResponse,
        },
      },
    },
    async (request, reply, input): Promise<NameCheckResponse> => {
      const query = input.query()
      await take(request, limits.rules.data)
      reply.header('cache-control', 'no-store')
      return registry.check(query.name)
    },
  )

  route(
    {
      method: 'POST',
      url: '/names/v1/register',
      summary: 'Register a name (or move the account to another)',
      description: signed,
      body: nameRegisterBody,
      responses: {
        ...off,
        200: { description: 'The record.', schema: nameRecord },
        409: { description: '`NAME_TAKEN`: another account holds the name.' },
      },
    },
    async (request, reply, input): Promise<NameRecord> => {
      const body = input.body()
      await take(request, limits.rules.writes('names:register'))
      reply.header('cache-control', 'no-store')
      return registry.register(projectOf(request), body)
    },
  )

  // Giving up the name: signed like a registration, counted with them.
  route(
    {
      method: 'POST',
      url: '/names/v1/release',
      summary: "Release the account's name",
      description: signed,
      body: nameReleaseBody,
      responses: {
        ...off,
        200: { description: 'The name now free.', schema: nameReleaseResponse },
        404: noName,
      },
    },
    async (request, reply, input): Promise<NameReleaseResponse> => {
      const body = input.body()
      await take(request, limits.rules.writes('names:register'))
      reply.header('cache-control', 'no-store')
      return registry.release(projectOf(request), body)
    },
  )

  route(
    {
      method: 'POST',
      url: '/names/v1/avatar',
      summary: "Set or clear the name's profile image",
      description: signed,
      body: avatarUpdateBody,
      responses: {
        ...off,
        200: { description: 'The record with its new image.', schema: nameRecord },
        404: noName,
      },
    },
    async (request, reply, input): Promise<NameRecord> => {
      const body = input.body()
      await take(request, limits.rules.writes('names:avatar'))
      reply.header('cache-control', 'no-store')
      return registry.setAvatar(projectOf(request), body)
    },
  )

  route(
    {
      method: 'GET',
      url: '/names/v1/resolve',
      summary: 'The record of a name',
      query: nameResolveQuery,
      responses: {
        ...off,
        200: { description: 'The record.', schema: nameRecord },
        404: { description: '`NAME_NOT_FOUND`: the name is not registered.' },
      },
    },
    async (request, reply, input): Promise<NameRecord> => {
      const query = input.query()
      await take(request, limits.rules.data)
      reply.header('cache-control', 'no-store')
      const record = await registry.resolve(query.name)
      if (record === null)
        throw new ServiceError(404, 'NAME_NOT_FOUND', `${query.name} is not registered`, { field: 'name' })
      return record
    },
  )

  route(
    {
      method: 'GET',
      url: '/names/v1/reverse',
      summary: "An account's names",
      query: nameAddressQuery,
      responses: {
        ...off,
        200: { description: 'The names (empty when none).', schema: nameReverseResponse },
      },
    },
    async (request, reply, input) => {
      const query = input.query()
      await take(request, limits.rules.data)
      reply.header('cache-control', 'no-store')
      return { names: await registry.reverse(query.address) }
    },
  )

  route(
    {
      method: 'GET',
      url: '/names/v1/profile',
      summary: "An account's name and profile image",
      query: nameAddressQuery,
      responses: {
        ...off,
        200: { description: 'The profile, nulls when none.', schema: profileResponse },
      },
    },
    async (request, reply, input): Promise<ProfileResponse> => {
      const query = input.query()
      await take(request, limits.rules.data)
      reply.header('cache-control', 'no-store')
      return registry.profile(query.address)
    },
  )

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
const gatewayResponse = z.object({ data: z.string() })

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
  const route = routes(app, { tags: ['names'], config: { access: 'public' } })
  const answer = async (request: FastifyRequest, input: z.output<typeof gatewayRequest>) => {
    await limits.limiter.take({ projectId: 'names-gateway', address: request.ip }, [[limits.rules.data, 1]])
    return { data: await gateway.answer(input.sender as Address, input.data as Hex) }
  }
  const responses = {
    200: {
      description: '`abi.encode(bytes result, uint64 expires, bytes signature)`, signed by the gateway key.',
      schema: gatewayResponse,
    },
  }
  route(
    {
      method: 'GET',
      url: '/names/v1/gateway/:sender/:data',
      summary: "The ENS offchain resolver's gateway (EIP-3668)",
      description: '`data` (the ENSIP-10 `resolve(bytes,bytes)` call) may end in `.json`.',
      params: gatewayRequest,
      responses,
    },
    async (request, reply, input) => {
      const params = request.params as { sender?: string; data?: string }
      const call = input.params({ sender: params.sender, data: params.data?.replace(/\.json$/, '') })
      reply.header('cache-control', 'no-store')
      return answer(request, call)
    },
  )
  route(
    {
      method: 'POST',
      url: '/names/v1/gateway',
      bodyLimit: 4 * GATEWAY_MAX_CALL_BYTES,
      summary: "The ENS offchain resolver's gateway (EIP-3668), by POST",
      body: gatewayRequest,
      responses,
    },
    async (request, reply, input) => {
      const call = input.body()
      reply.header('cache-control', 'no-store')
      return answer(request, call)
    },
  )
}
