import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { etagMatches } from '../catalogue/imageRoutes.ts'
import {
  type OpenApiDocument,
  type OpenApiInfo,
  openApiDocument,
  type RegisteredRoute,
} from './openapiDocument.ts'
import { route } from './route.ts'

/** An app's routes and their description. */
export interface OpenApi {
  /** Every route the app registered, as Fastify's `onRoute` hook saw it (described or not). */
  readonly routes: readonly RegisteredRoute[]
  /** The OpenAPI 3.1 document of the described routes (what `GET /openapi.json` answers). */
  document(): OpenApiDocument
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The routes the app registered and their OpenAPI description. */
    openApi: OpenApi
  }
}

/** The service's version, from its package.json (read when an app is built, not at import). */
function serviceVersion(): string {
  const json = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: string
  }
  return json.version ?? '0.0.0'
}

/**
 * Collects every route registered after it (Fastify's `onRoute`), decorates the app with them as
 * `app.openApi`, and serves their description at `GET /openapi.json`: public, cacheable, with an ETag.
 * Call it before any route is registered.
 *
 * @example
 * registerOpenApi(app, { title: 'Wallet service API', description: 'The catalogue, analytics and RPC API.' })
 */
export function registerOpenApi(app: FastifyInstance, info: Omit<OpenApiInfo, 'version'>): void {
  const routes: (RegisteredRoute & { handler: unknown })[] = []
  app.addHook('onRoute', (options) => {
    const methods = typeof options.method === 'string' ? [options.method] : options.method
    for (const method of methods) {
      // Fastify's HEAD twin of a GET route shares the GET route's handler.
      const headTwin =
        method === 'HEAD' &&
        routes.some(
          (seen) => seen.method === 'GET' && seen.url === options.url && seen.handler === options.handler,
        )
      routes.push({
        method,
        url: options.url,
        config: options.config ?? {},
        headTwin,
        handler: options.handler,
      })
    }
  })
  const version = serviceVersion()
  const document = () => openApiDocument(routes, { ...info, version })
  app.decorate('openApi', { routes, document })

  // Built on the first request, when every route is in place; the same bytes after that.
  let served: { body: string; etag: string } | undefined
  route(
    app,
    {
      method: 'GET',
      url: '/openapi.json',
      config: { access: 'public' },
      summary: 'This description of the API',
      description:
        'An OpenAPI 3.1 document generated from the zod schemas the routes check their input with and ' +
        'the browser parses their answers with. Cached 5 minutes; revalidate with `If-None-Match`.',
      tags: ['service'],
      responses: {
        200: { description: 'The OpenAPI 3.1 document.', type: 'application/json' },
        304: { description: 'The copy whose ETag was sent is current.' },
      },
    },
    async (request, reply) => {
      if (served === undefined) {
        const body = JSON.stringify(document())
        served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
      }
      reply
        .header('access-control-allow-origin', '*')
        .header('cache-control', 'public, max-age=300')
        .header('etag', served.etag)
      if (etagMatches(request.headers['if-none-match'], served.etag)) return reply.code(304).send()
      return reply.type('application/json; charset=utf-8').send(served.body)
    },
  )
}
