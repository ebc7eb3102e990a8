import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import { socialProviders } from '../src/protocol/api/catalogue.ts'
import { apiLimits } from '../src/protocol/api/index.ts'
import { registerAnalyticsRoutes } from './analytics/routes.ts'
import { registerAuthRoutes } from './auth/routes.ts'
import { type AuthDependencies, createAuthService } from './auth/service.ts'
import { createSignatureChecker } from './auth/signatures.ts'
import { createChainReader } from './blockchain/chainReader.ts'
import { createBlockchainData } from './blockchain/data.ts'
import { httpPriceSource } from './blockchain/priceSource.ts'
import { registerBlockchainRoutes } from './blockchain/routes.ts'
import { createCatalogueReader } from './catalogue/catalogueCache.ts'
import { registerImageRoutes } from './catalogue/imageRoutes.ts'
import { registerCatalogueRoutes } from './catalogue/routes.ts'
import type { ServiceConfig } from './config.ts'
import { createDatabase, type ServiceDatabase } from './db/database.ts'
import { type HistoryIndexer, startHistoryIndexer } from './history/indexer.ts'
import { registerHistoryRoutes } from './history/routes.ts'
import { historyNetworkOf, historySourcesOf } from './history/sources.ts'
import { registerAccess } from './http/access.ts'
import { closeConnectionsOnClose } from './http/closing.ts'
import { registerErrorHandling } from './http/errorHandler.ts'
import { registerHealthRoute } from './http/health.ts'
import { registerOpenApi } from './http/openapi.ts'
import { createRateLimiter, rateLimitRules } from './http/rateLimit.ts'
import { createLogger, type Logger } from './logger.ts'
import { type Maintenance, startMaintenance } from './maintenance.ts'
import { createNameGateway, GATEWAY_MAX_CALL_BYTES } from './names/gateway.ts'
import { createNameRegistry } from './names/registry.ts'
import { registerNameRoutes } from './names/routes.ts'
import { checkoutApiProvider } from './onramp/provider.ts'
import { registerOnrampRoutes } from './onramp/routes.ts'
import { registerPaymasterRoutes } from './paymaster/routes.ts'
import { createPaymasterService } from './paymaster/sponsor.ts'
import { createProjectResolver } from './projects/resolver.ts'
import { ensureDevProject, listProjects } from './projects/store.ts'
import { createRpcForwarder } from './rpc/forward.ts'
import { bundlerMethodPolicy, riskyRpcMethodPrefixes, rpcMethodPolicy } from './rpc/methods.ts'
import { registerRpcRoutes } from './rpc/routes.ts'

/** What {@link buildApp} can be given instead of creating it. */
export interface AppDependencies {
  /** An open database (tests share one); the app then leaves closing it to the caller. */
  database?: ServiceDatabase
  /** A pino logger; one at `config.logLevel` otherwise. */
  logger?: Logger
  /** Sign-in: a clock or signature checker to use instead of the real ones (tests). */
  auth?: AuthDependencies
  /** The clock of rate limits and sign-in, in ms since the epoch; `Date.now` by default (tests move it). */
  now?: () => number
  /**
   * Routes the caller adds beside the service's own (the local stack's dev inbox at `/dev/inbox`):
   * production code knows nothing of `server/dev/`, the dev stack passes what it runs.
   */
  extraRoutes?: FastifyPluginAsync
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's database. */
    database: ServiceDatabase
    /** The history indexer of `HISTORY_NETWORKS` (stopped, its leases given back, on close). */
    historyIndexer: HistoryIndexer
    /** The periodic jobs (analytics retention, idle rate-limit buckets); `run()` runs them now. */
    maintenance: Maintenance
  }
}

/** What `GET /openapi.json` says of the API as a whole (the routes say the rest). */
const apiDescription = [
  'The wallet catalogue, analytics, RPC and bundler proxies, sign-in, blockchain data, names, on-ramp and',
  'paymaster API of the wallet-elements companion service, generated from the zod schemas its routes',
  'check requests with.',
  '',
  "Project routes need `projectId`, `st` and `sv` in the query and an `Origin` on the project's",
  'allow-list (requests without `Origin`, from servers, are allowed); public routes answer any origin.',
  'Errors are `{ error: { code, message, field? } }` (JSON-RPC error responses on the RPC routes).',
  '`HEAD` works wherever `GET` does, a trailing slash is optional, and CORS preflights (`OPTIONS`) are',
  "answered on every path. The embedded wallet's API is on the wallet frame's own origin, described by",
  "that origin's `/openapi.json`.",
].join('\n')

/**
 * Builds the companion service as a Fastify instance, ready for `inject` or `listen`: opens the database
 * (migrations and seed included) unless one is given, creates or updates the dev project, and registers
 * the catalogue, image, analytics, RPC, sign-in and health routes. `app.close()` closes the database it opened.
 *
 * @example
 * const app = await buildApp(loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }))
 * const response = await app.inject({ url: '/getWallets?projectId=dev-project&st=test&sv=1' })
 * await app.close()
 */
export async function buildApp(config: ServiceConfig, deps: AppDependencies = {}): Promise<FastifyInstance> {
  const logger = deps.logger ?? createLogger(config.logLevel)
  const ownsDatabase = deps.database === undefined
  const database = deps.database ?? (await createDatabase(config, { logger }))
  try {
    if (config.devProjectId !== null) {
      const project = await ensureDevProject(database.db, {
        id: config.devProjectId,
        origins: config.devOrigins,
      })
      logger.info({ projectId: project.id, origins: project.origins }, `Dev project: ${project.id}`)
    }
    await logProjects(database, config, logger)

    const app = Fastify({
      loggerInstance: logger as FastifyBaseLogger,
      // Long enough for an EIP-3668 gateway call in the path, so its limit answers 400, not 404.
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 4 * GATEWAY_MAX_CALL_BYTES },
      bodyLimit: apiLimits.maxAnalyticsBodyBytes,
      // X-Forwarded-For is believed for as many hops as there are proxies in front (0: none).
      trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
      // Lets `close()` finish promptly when keep-alive clients stay connected.
      forceCloseConnections: 'idle',
    })

    // First, so that it sees every route registered after it.
    registerOpenApi(app, {
      title: 'wallet-elements companion service',
      description: apiDescription,
    })
    closeConnectionsOnClose(app)
    app.decorate('database', database)
    if (ownsDatabase) app.addHook('onClose', async () => database.close())

    const projects = createProjectResolver(database.db, { ttlMs: config.cacheMs })
    registerErrorHandling(app)
    registerAccess(app, projects)
    registerHealthRoute(app, database)
    registerImageRoutes(app, database.db)
    registerCatalogueRoutes(app, createCatalogueReader(database.db, { ttlMs: config.cacheMs }), {
      socials:
        config.embedded.framePort === null
          ? []
          : socialProviders.filter((provider) => config.embedded.social.credentials[provider]),
    })
    const limits = {
      limiter: createRateLimiter(database, deps.now ? { now: deps.now } : {}),
      rules: rateLimitRules(config.rateLimits),
    }
    const maintenance = startMaintenance({
      db: database.db,
      limiter: limits.limiter,
      analyticsRetentionDays: config.analyticsRetentionDays,
      logger,
      ...(deps.now ? { now: deps.now } : {}),
    })
    app.decorate('maintenance', maintenance)
    app.addHook('onClose', async () => maintenance.stop())
    await app.register(async (scope) => registerAnalyticsRoutes(scope, database.db, limits))
    const forwarder = createRpcForwarder()
    app.addHook('onClose', async () => forwarder.close())
    const risky = config.rpcAllowMethods.filter((method) =>
      riskyRpcMethodPrefixes.some((prefix) => method.startsWith(prefix)),
    )
    if (risky.length > 0) {
      logger.warn({ methods: risky }, `RPC_ALLOW_METHODS lets any client call ${risky.join(', ')}`)
    }
    await app.register(async (scope) =>
      registerRpcRoutes(scope, {
        upstreams: config.rpcUpstreams,
        timeoutMs: config.rpcTimeoutMs,
        forwarder,
        allowed: rpcMethodPolicy(config.rpcAllowMethods),
        limits,
      }),
    )
    await app.register(async (scope) =>
      registerRpcRoutes(scope, {
        path: '/v1/bundler',
        upstreamName: 'bundler',
        proxyName: 'bundler proxy',
        upstreams: config.bundlerUpstreams,
        timeoutMs: config.rpcTimeoutMs,
        forwarder,
        allowed: bundlerMethodPolicy(),
        limits,
      }),
    )
    const reader = createChainReader({
      upstreams: config.rpcUpstreams,
      forwarder,
      timeoutMs: config.rpcTimeoutMs,
    })
    const data = createBlockchainData({
      tokenLists: config.tokenLists,
      reader,
      priceSource:
        config.priceSourceUrl === null ? undefined : httpPriceSource(config.priceSourceUrl, { logger }),
      ...(deps.now ? { now: deps.now } : {}),
    })
    for (const [chainId, list] of Object.entries(config.tokenLists)) {
      if (list.uniswapV2 && !data.swapNetworks.includes(chainId))
        logger.warn({ chainId }, `No RPC upstream for ${chainId}: its swaps are off`)
    }
    // One signature checker for sign-in and names: a name is signed for like a sign-in message.
    const signatures =
      deps.auth?.signatures ??
      createSignatureChecker({ upstreams: config.rpcUpstreams, timeoutMs: config.rpcTimeoutMs })
    await app.register(async (scope) => registerBlockchainRoutes(scope, { data, limits }))
    await app.register(async (scope) =>
      registerHistoryRoutes(scope, {
        limits,
        db: database.db,
        tokenLists: config.tokenLists,
        reader,
        historySources: historySourcesOf(config),
        bitcoin: { nodes: config.embedded.bitcoinNodes, timeoutMs: config.rpcTimeoutMs },
      }),
    )
    const historyIndexer = startHistoryIndexer({
      db: database.db,
      reader,
      networks: config.historyNetworks.map((chainId) => historyNetworkOf(config, chainId)),
      pollMs: config.historyPollMs,
      // Ten rounds without renewal: a holder that stopped renewing is gone. At least 5 s, so that a
      // round slowed by a busy node or machine (seconds, not rounds) does not hand the network over.
      leaseMs: Math.max(5_000, 10 * config.historyPollMs),
      logger,
    })
    app.decorate('historyIndexer', historyIndexer)
    // Before the forwarder and the database close, so the last round ends and the leases are given back.
    app.addHook('preClose', async () => historyIndexer.stop())
    const auth = await createAuthService(config, database.db, {
      ...(deps.now ? { now: deps.now } : {}),
      ...deps.auth,
      signatures,
      logger,
    })
    await app.register(async (scope) => registerAuthRoutes(scope, auth, limits))
    const registry = createNameRegistry(database.db, {
      suffix: config.nameSuffix,
      signatures,
      ...(deps.now ? { now: deps.now } : {}),
    })
    const gateway =
      config.nameGatewayKey === null
        ? null
        : createNameGateway({
            registry,
            privateKey: config.nameGatewayKey,
            ...(deps.now ? { now: deps.now } : {}),
          })
    // The address an offchain resolver must trust (never the key).
    if (gateway) logger.info({ signer: gateway.signer }, `The ENS gateway signs as ${gateway.signer}`)
    await app.register(async (scope) => registerNameRoutes(scope, { registry, gateway, limits }))
    const { providerUrl, apiKey, webhookSecret } = config.onramp
    await app.register(async (scope) =>
      registerOnrampRoutes(scope, {
        db: database.db,
        provider:
          providerUrl === null
            ? null
            : checkoutApiProvider({ url: providerUrl, apiKey, timeoutMs: config.rpcTimeoutMs }),
        webhookSecret,
        cacheMs: config.cacheMs,
        limits,
        ...(deps.now ? { now: deps.now } : {}),
      }),
    )
    const paymaster = createPaymasterService({
      db: database.db,
      signerKey: config.paymasterSignerKey,
      addresses: config.paymasterAddresses,
      ...(deps.now ? { now: deps.now } : {}),
    })
    // The address the paymaster contracts must trust (never the key).
    if (paymaster.signer)
      logger.info(
        { signer: paymaster.signer, networks: paymaster.networks },
        `The paymaster signs as ${paymaster.signer}`,
      )
    await app.register(async (scope) => registerPaymasterRoutes(scope, { paymaster, limits }))
    if (deps.extraRoutes) await app.register(deps.extraRoutes)
    await app.ready()
    return app
  } catch (error) {
    if (ownsDatabase) await database.close()
    throw error
  }
}

/** Says at start which projects the service serves, and warns about loopback origins in production. */
async function logProjects(database: ServiceDatabase, config: ServiceConfig, logger: Logger): Promise<void> {
  const projects = await listProjects(database.db)
  if (projects.length === 0) {
    logger.warn(
      { environment: config.environment },
      'Serving no project: create one with npm run project -- create --id ID --name NAME --origin ORIGIN',
    )
    return
  }
  const shown = projects.slice(0, 20).map((project) => project.id)
  const more = projects.length > shown.length ? `, and ${projects.length - shown.length} more` : ''
  logger.info(
    {
      environment: config.environment,
      projects: projects.slice(0, 20).map((project) => ({ id: project.id, origins: project.origins.length })),
    },
    `Serving ${projects.length} project${projects.length === 1 ? '' : 's'}: ${shown.join(', ')}${more}`,
  )
  if (config.environment !== 'production') return
  for (const project of projects) {
    const local = project.origins.filter((origin) =>
      /\/\/(localhost|127\.|\[::1\])|^localhost|^127\./.test(origin),
    )
    if (local.length > 0) {
      logger.warn(
        { projectId: project.id, origins: local },
        `Project ${project.id} allows local origins in production: ${local.join(', ')}`,
      )
    }
  }
}
