/**
 * The wallet frame's own origin (`FRAME_PORT`, dev 8788): the frame app (built from `src/frame` into
 * `FRAME_DIR`), its device-approval page, and the embedded wallet's API. The frame page carries a
 * `Content-Security-Policy` whose `frame-ancestors` is the project's allow-list, so a site that is not
 * on it cannot even show the frame; the page also learns the list, and answers only an allowed parent.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, resolve } from 'node:path'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify'
import * as z from 'zod/mini'
import { withFrameConfig } from '../../src/protocol/embedded/frameIntegrity.ts'
import { embeddedLimits, frameQuery } from '../../src/protocol/embedded/index.ts'
import { SocialProviderSchema } from '../../src/protocol/rules.ts'
import type { ServiceConfig } from '../config.ts'
import type { ServiceDatabase } from '../db/database.ts'
import type { EmbeddedWallet } from '../embedded/index.ts'
import { embeddedWalletOn, registerEmbeddedRoutes } from '../embedded/routes.ts'
import { closeConnectionsOnClose } from '../http/closing.ts'
import { registerOpenApi } from '../http/openapi.ts'
import { createRateLimiter, rateLimitRules } from '../http/rateLimit.ts'
import { routes } from '../http/route.ts'
import type { Logger } from '../logger.ts'
import { createProjectResolver, type ProjectResolver } from '../projects/resolver.ts'
import { frameAncestorPatterns, frameCsp, inlineScriptHashes } from './ancestors.ts'

/** The id of the JSON the frame page reads its configuration from. */
export { FRAME_CONFIG_ID } from '../../src/protocol/embedded/frameIntegrity.ts'

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
}

/** Security headers of every answer of the frame's origin. */
function hardening(reply: { header(name: string, value: string): unknown }) {
  reply.header('x-content-type-options', 'nosniff')
  reply.header('referrer-policy', 'no-referrer')
  reply.header('cross-origin-resource-policy', 'same-origin')
  reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()')
}

/**
 * The frame's HTML pages are public code: any site may read them (`GET` only, no credentials), so a
 * site can check the page against the build's published hash before it loads the frame (its
 * `frame-integrity`). The API's routes stay without CORS.
 */
const readableByAnySite = (reply: FastifyReply) => reply.header('access-control-allow-origin', '*')

export interface FrameAppDependencies {
  wallet: EmbeddedWallet
  database: ServiceDatabase
  logger: Logger
  /** Shared with the API's instance in production; its own cache otherwise. */
  projects?: ProjectResolver
  now?: () => number
  /** Called when the app closes (the wallet's mail connections, its RPC forwarder). */
  onClose?: () => void | Promise<void>
}

/** What the frame origin's `GET /openapi.json` says of it as a whole (the routes say the rest). */
const frameDescription = [
  "The wallet frame's own origin: its pages, and the embedded wallet's API, which answers the frame",
  'only (requests from another origin are refused and CORS is never answered). Described here for',
  'those who operate or audit the service; a site talks to the frame through the modal, never to this',
  'API. Errors are `{ error: { code, message, field?, … } }`. `HEAD` works wherever `GET` does.',
].join('\n')

/** The frame's files are not where `FRAME_DIR` says (a configuration problem, reported in one line). */
export class FrameNotBuiltError extends Error {
  override name = 'FrameNotBuiltError'
}

/**
 * Builds the frame origin's Fastify instance. Throws when the frame has not been built.
 *
 * @example
 * const frame = await buildFrameApp(config, { wallet, db: database.db, logger })
 * await frame.listen({ host: '127.0.0.1', port: config.embedded.framePort ?? 8788 })
 */
export async function buildFrameApp(
  config: ServiceConfig,
  deps: FrameAppDependencies,
): Promise<FastifyInstance> {
  const dir = resolve(config.embedded.frameDir)
  const page = async (name: string) => {
    const file = join(dir, name)
    if (!existsSync(file)) {
      throw new FrameNotBuiltError(
        `The wallet frame is not built: ${file} is missing (npm run build:frame, or set FRAME_DIR)`,
      )
    }
    return readFile(file, 'utf8')
  }
  const [framePage, devicePage, socialPage, approvePage] = await Promise.all([
    page('index.html'),
    page('device.html'),
    page('social.html'),
    page('approve.html'),
  ])
  // Each page's import map (its chunks' integrity) is its one inline script: allowed by its hash.
  const [frameScripts, deviceScripts, socialScripts, approveScripts] = [
    framePage,
    devicePage,
    socialPage,
    approvePage,
  ].map(inlineScriptHashes)
  const frameOrigin = new URL(config.embedded.framePublicUrl).origin
  const projects = deps.projects ?? createProjectResolver(deps.database.db, { ttlMs: config.cacheMs })

  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: embeddedLimits.maxBodyBytes,
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    forceCloseConnections: 'idle',
  })
  // First, so that it sees every route registered after it.
  registerOpenApi(app, { title: 'wallet-elements wallet frame', description: frameDescription })
  closeConnectionsOnClose(app)
  app.addHook('onRequest', async (_request, reply) => hardening(reply))
  const pageRoute = routes(app, { tags: ['frame'], errors: false })
  const html = (description: string) => ({ description, type: 'text/html' })
  const onClose = deps.onClose
  if (onClose) app.addHook('onClose', async () => onClose())

  // The frame page, per project: its allow-list in the CSP and in the page.
  pageRoute(
    {
      method: 'GET',
      url: '/',
      summary: 'The frame page of a project',
      description:
        "Its `Content-Security-Policy` lets only the project's allowed sites frame it. Readable by any site, " +
        "so a site can check it against the build's published hash (`frame-integrity`).",
      query: frameQuery,
      responses: {
        200: html('The frame page.'),
        404: { description: 'No such project, or its embedded wallet is off.' },
      },
    },
    async (request, reply) => {
      readableByAnySite(reply).header('cache-control', 'no-store')
      const query = frameQuery.safeParse(request.query)
      const project = query.success ? await projects.resolve(query.data.projectId) : null
      if (!project || !embeddedWalletOn(project)) {
        reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
        return reply.code(404).type('text/plain; charset=utf-8').send('Unknown project')
      }
      const origins = frameAncestorPatterns(project, config.environment === 'development')
      const settings = { projectId: project.id, origins, frameOrigin }
      return reply
        .header('content-security-policy', frameCsp(origins, frameScripts))
        .type('text/html; charset=utf-8')
        .send(withFrameConfig(framePage, settings))
    },
  )

  /** A page of the frame's origin that is a top-level window, never framed (no page can cover it). */
  const sendTopLevelPage = (reply: FastifyReply, scripts: Parameters<typeof frameCsp>[1], page: string) =>
    readableByAnySite(reply)
      .header('cache-control', 'no-store')
      .header('content-security-policy', frameCsp([], scripts))
      .header('x-frame-options', 'DENY')
      .type('text/html; charset=utf-8')
      .send(page)

  // The page a mailed approval link opens: never inside a frame.
  pageRoute(
    {
      method: 'GET',
      url: '/device',
      summary: 'The page a mailed approval link opens',
      description: 'Never inside a frame (`X-Frame-Options: DENY`).',
      responses: { 200: html('The approval page.') },
    },
    async (_request, reply) => sendTopLevelPage(reply, deviceScripts, devicePage),
  )

  // The approval window the frame opens where the engine cannot say what is drawn (no IOv2: Firefox,
  // Safari), against clickjacking: a top-level window no page can restyle or cover, so never framed.
  pageRoute(
    {
      method: 'GET',
      url: '/approve',
      summary: 'The approval window the frame opens where it cannot tell what is drawn over it',
      description: 'A top-level window, never framed (`X-Frame-Options: DENY`).',
      responses: { 200: html('The approval window.') },
    },
    async (_request, reply) => sendTopLevelPage(reply, approveScripts, approvePage),
  )

  // A social provider sends the person back here (GET, or Apple's form POST): the service finishes
  // the exchange, and the page tells the window that opened it (the site, exact origin) that it is done.
  const limiter = createRateLimiter(deps.database, deps.now ? { now: deps.now } : {})
  const limitRules = rateLimitRules(config.rateLimits)
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16_384 },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  )
  const callbackParams = z.object({ provider: SocialProviderSchema })
  const socialCallback = async (request: FastifyRequest, reply: FastifyReply) => {
    const provider = SocialProviderSchema.safeParse((request.params as { provider?: string }).provider)
    if (!provider.success) return reply.code(404).type('text/plain; charset=utf-8').send('Not found')
    await limiter.take({ projectId: '-', address: request.ip }, [[limitRules.wallet('/social/callback'), 1]])
    const parameters =
      request.body instanceof URLSearchParams
        ? request.body
        : new URLSearchParams((request.query ?? {}) as Record<string, string>)
    const outcome = await deps.wallet.social.callback(provider.data, parameters)
    return reply
      .code(outcome.site ? 200 : 400)
      .header('cache-control', 'no-store')
      .header('content-security-policy', frameCsp([], socialScripts))
      .header('x-frame-options', 'DENY')
      .type('text/html; charset=utf-8')
      .send(withFrameConfig(socialPage, outcome))
  }
  pageRoute(
    {
      method: ['GET', 'POST'],
      url: '/social/callback/:provider',
      summary: 'Where a social provider sends the person back',
      description:
        "The provider's answer in the query (GET) or as a form (Apple's POST). The page tells the window that " +
        'opened the sign-in, at its exact origin, that it is done.',
      params: callbackParams,
      responses: {
        200: html('The sign-in is finished: the page tells the site.'),
        400: html('The sign-in failed: the page says why.'),
        404: { description: 'No such provider.' },
      },
    },
    socialCallback,
  )

  // Built assets: hashed names, so cached for a year; nothing outside the assets folder.
  app.get('/assets/*', async (request, reply) => {
    const name = (request.params as { '*': string })['*']
    const file = normalize(join(dir, 'assets', name))
    const type = contentTypes[extname(file)]
    if (!file.startsWith(join(dir, 'assets')) || !type || !existsSync(file)) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found')
    }
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(type)
      .send(await readFile(file))
  })

  await app.register(async (scope) =>
    registerEmbeddedRoutes(scope, {
      wallet: deps.wallet,
      projects,
      frameOrigin,
      devFrameAncestors: config.environment === 'development',
      limits: {
        limiter: createRateLimiter(deps.database, deps.now ? { now: deps.now } : {}),
        rules: rateLimitRules(config.rateLimits),
      },
    }),
  )
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type('text/plain; charset=utf-8').send('Not found'),
  )
  await app.ready()
  return app
}
