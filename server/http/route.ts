import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, LogLevel } from 'fastify'
import type * as z from 'zod/mini'
import { parseInput } from './validation.ts'

/** The areas of the API: the tags of its description (`GET /openapi.json`). */
export type ApiTag =
  | 'catalogue'
  | 'images'
  | 'analytics'
  | 'rpc'
  | 'blockchain'
  | 'auth'
  | 'names'
  | 'onramp'
  | 'paymaster'
  | 'service'
  | 'embedded wallet'
  | 'frame'

/** How a caller proves who it is, beyond the project: a SIWX session token, or an embedded wallet's session. */
export type ApiSecurity = 'sessionToken' | 'walletSession'

/** One answer of a route, as its description shows it. */
export interface ResponseDocs {
  description: string
  /** The schema the browser parses the body with; absent: the body is described in words only. */
  schema?: z.ZodMiniType
  /** Media type of the body: `application/json` by default. */
  type?: string
}

/** A request header a route reads. */
export interface HeaderDocs {
  name: string
  description: string
  required?: boolean
}

/**
 * What the description says about a route besides its path and method. The schemas are the ones the
 * route checks its input with ({@link route} parses with them), so the two cannot drift apart.
 */
export interface OperationDocs {
  summary: string
  /** More words, in Markdown, where the summary is not enough. */
  description?: string
  tags: readonly ApiTag[]
  query?: z.ZodMiniType
  params?: z.ZodMiniType
  body?: z.ZodMiniType
  /** Media types of the body: `application/json` by default. */
  bodyTypes?: readonly string[]
  headers?: readonly HeaderDocs[]
  security?: readonly ApiSecurity[]
  /** The route needs `projectId` in the query, read by a hook of its scope (the embedded wallet's). */
  projectId?: boolean
  /** Answers by status; errors in the shape of `errors` are added for the route's access rules. */
  responses: Readonly<Partial<Record<number, ResponseDocs>>>
  /**
   * The body of the route's error answers: `apiErrorBody` by default, JSON-RPC errors on `jsonRpc`
   * routes; `false` for pages, whose errors are plain text.
   */
  errors?: z.ZodMiniType | false
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's description (set by {@link route}); routes without one are not in `/openapi.json`. */
    openapi?: OperationDocs
  }
}

type Schema = z.ZodMiniType | undefined

/** Parses one part of the request with the route's schema; `value` replaces the request's own. */
type InputParser<S extends Schema> = S extends z.ZodMiniType ? (...value: [unknown?]) => z.output<S> : never

/**
 * The parts of a request checked with the schemas of the route's definition: each throws the 400
 * `ServiceError` of `parseInput`. They parse when called, so a handler keeps its own order of checks
 * (a session before the body, say).
 */
export interface RouteInput<Q extends Schema, P extends Schema, B extends Schema> {
  query: InputParser<Q>
  params: InputParser<P>
  body: InputParser<B>
}

type Method = 'GET' | 'POST'

/** A route: its method and path, the Fastify options it needs, and its description. */
export interface RouteDefinition<Q extends Schema, P extends Schema, B extends Schema>
  extends Omit<OperationDocs, 'query' | 'params' | 'body'> {
  method: Method | readonly Method[]
  url: string
  query?: Q
  params?: P
  body?: B
  config?: Omit<FastifyContextConfig, 'openapi'>
  bodyLimit?: number
  logLevel?: LogLevel
  exposeHeadRoute?: boolean
}

export type RouteHandler<Q extends Schema, P extends Schema, B extends Schema> = (
  request: FastifyRequest,
  reply: FastifyReply,
  input: RouteInput<Q, P, B>,
) => unknown

/**
 * Registers a route and its description at once: the schemas it declares are the ones `input` parses
 * with, and the ones `/openapi.json` shows.
 *
 * @example
 * route(
 *   app,
 *   {
 *     method: 'GET',
 *     url: '/getWallets',
 *     config: { access: 'project' },
 *     summary: 'One page of the wallet catalogue',
 *     tags: ['catalogue'],
 *     query: getWalletsQuery,
 *     responses: { 200: { description: 'The page', schema: getWalletsResponse } },
 *   },
 *   async (_request, _reply, input) => catalogue.getWallets(input.query()),
 * )
 */
export function route<
  Q extends Schema = undefined,
  P extends Schema = undefined,
  B extends Schema = undefined,
>(app: FastifyInstance, definition: RouteDefinition<Q, P, B>, handler: RouteHandler<Q, P, B>): void {
  const { method, url, config, bodyLimit, logLevel, exposeHeadRoute, query, params, body, ...docs } =
    definition
  const openapi: OperationDocs = {
    ...docs,
    ...(query === undefined ? {} : { query }),
    ...(params === undefined ? {} : { params }),
    ...(body === undefined ? {} : { body }),
  }
  const parser =
    (schema: Schema, location: 'query' | 'path' | 'body', own: () => unknown) =>
    (...value: [unknown?]) => {
      if (schema === undefined) throw new Error(`${url} declares no ${location} schema`)
      return parseInput(schema, value.length > 0 ? value[0] : own(), location)
    }
  app.route({
    method: typeof method === 'string' ? method : [...method],
    url,
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    ...(logLevel === undefined ? {} : { logLevel }),
    ...(exposeHeadRoute === undefined ? {} : { exposeHeadRoute }),
    config: { ...config, openapi },
    handler: (request, reply) =>
      handler(request, reply, {
        query: parser(query, 'query', () => request.query),
        params: parser(params, 'path', () => request.params),
        body: parser(body, 'body', () => request.body),
      } as RouteInput<Q, P, B>),
  })
}

/** What every route of a group shares (merged under each definition; `config` merged key by key). */
export type RouteDefaults = Partial<
  Pick<
    RouteDefinition<undefined, undefined, undefined>,
    'tags' | 'config' | 'bodyLimit' | 'errors' | 'security'
  >
>

/** A group's {@link route}: definitions may leave out what the group's defaults give. */
export type GroupRoute = <
  Q extends Schema = undefined,
  P extends Schema = undefined,
  B extends Schema = undefined,
>(
  definition: Omit<RouteDefinition<Q, P, B>, 'tags'> & { tags?: readonly ApiTag[] },
  handler: RouteHandler<Q, P, B>,
) => void

/**
 * A {@link route} for a group of routes that share tags, access, body limit or error shape.
 *
 * @example
 * const route = routes(app, { tags: ['names'], config: { access: 'project' } })
 * route({ method: 'GET', url: '/names/v1/check', summary: 'Whether a name is free', query: nameCheckQuery, responses }, handler)
 */
export function routes(app: FastifyInstance, defaults: RouteDefaults): GroupRoute {
  return (definition, handler) => {
    const tags = definition.tags ?? defaults.tags
    if (tags === undefined) throw new Error(`${definition.url} has no tags`)
    route(
      app,
      { ...defaults, ...definition, tags, config: { ...defaults.config, ...definition.config } },
      handler,
    )
  }
}
