import { pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { type AppDependencies, buildApp } from './app.ts'
import { loadConfig, loadConfigOrReport, type ServiceConfig, type ServiceEnv } from './config.ts'
import type { ServiceDatabase } from './db/database.ts'
import {
  createEmbeddedWallet,
  type EmbeddedWallet,
  type EmbeddedWalletDependencies,
} from './embedded/index.ts'
import { KekError } from './embedded/kek.ts'
import { buildFrameApp, FrameNotBuiltError } from './frame/app.ts'
import { createLogger, type Logger } from './logger.ts'
import { createRpcForwarder } from './rpc/forward.ts'

export interface StartServiceOptions {
  /** Environment to read the configuration from; `process.env` by default. */
  env?: ServiceEnv
  /** Values that win over the environment, for example `{ port: 0 }` or `{ rpcUpstreams }`. */
  config?: Partial<ServiceConfig>
  /** An open database to use (left open by `stop()`). */
  database?: ServiceDatabase
  logger?: Logger
  /** Routes added beside the service's own (the local stack's dev inbox). */
  extraRoutes?: AppDependencies['extraRoutes']
  /** The embedded wallet's mailer or KEKs instead of the configured ones (tests). */
  embedded?: Pick<EmbeddedWalletDependencies, 'mailer' | 'keks'>
}

export interface RunningService {
  /** Base URL, for example `http://127.0.0.1:8787` (the real port when 0 was asked for). */
  url: string
  /** The wallet frame's URL (its own origin), or null when `FRAME_PORT=off`. */
  frameUrl: string | null
  /** Stops listening, waits for requests in flight, then closes the database. */
  stop(): Promise<void>
  app: FastifyInstance
  config: ServiceConfig
}

/**
 * Starts the companion service: reads and checks the configuration, opens the database, and listens.
 * Used by `npm run server` (below) and in-process by `scripts/stack.ts` beside the chains and the demo.
 *
 * @example
 * const service = await startService({ config: { port: 0, logLevel: 'warn' } })
 * console.log(service.url)
 * await service.stop()
 */
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const config: ServiceConfig = { ...loadConfig(options.env ?? process.env), ...options.config }
  const logger = options.logger ?? createLogger(config.logLevel)
  const app = await buildApp(config, {
    logger,
    ...(options.database === undefined ? {} : { database: options.database }),
    ...(options.extraRoutes ? { extraRoutes: options.extraRoutes } : {}),
  })
  const host = config.host.includes(':') ? `[${config.host}]` : config.host
  let frame: FastifyInstance | undefined
  let frameUrl: string | null = null
  const framePort = config.embedded.framePort
  const forwarder = framePort === null ? undefined : createRpcForwarder()
  let wallet: EmbeddedWallet | undefined
  const closeWallet = () => {
    wallet?.close()
    forwarder?.close()
  }
  try {
    // Before anything listens: production without WALLET_KEK (or with a malformed one), or a frame
    // that was not built, stops here.
    if (forwarder) {
      wallet = await createEmbeddedWallet(config, app.database.db, { forwarder, logger, ...options.embedded })
      frame = await buildFrameApp(config, { wallet, database: app.database, logger, onClose: closeWallet })
    }
    await app.listen({ host: config.host, port: config.port })
    if (frame && wallet && framePort !== null) {
      await frame.listen({ host: config.host, port: framePort })
      const address = frame.server.address()
      frameUrl = `http://${host}:${typeof address === 'object' && address !== null ? address.port : framePort}`
      logger.info({ url: frameUrl, keks: wallet.keks.source }, `Wallet frame listening on ${frameUrl}`)
    }
  } catch (error) {
    if (frame) await frame.close()
    else closeWallet()
    await app.close()
    throw error
  }
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  const url = `http://${host}:${port}`
  logger.info({ url, database: app.database.kind }, `Wallet service listening on ${url}`)
  let stopped: Promise<void> | undefined
  return {
    url,
    frameUrl,
    app,
    config,
    stop: () => {
      // The frame first: it uses the API's database.
      stopped ??= (frame?.close() ?? Promise.resolve()).then(() => app.close())
      return stopped
    },
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrReport(process.env)
  if (!config) return
  const logger = createLogger(config.logLevel)
  let service: RunningService
  try {
    service = await startService({ config, logger })
  } catch (error) {
    // A missing or malformed key-encryption key, or an unbuilt frame, is a configuration problem:
    // one line, no stack.
    if (error instanceof KekError || error instanceof FrameNotBuiltError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  let stopping = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'Second signal: exiting now')
      process.exit(1)
    }
    stopping = true
    logger.info({ signal }, 'Shutting down')
    // Requests in flight get 8 s to finish (then their connections are cut: http/closing.ts); should
    // closing still hang, the process exits after 10 s.
    const force = setTimeout(() => {
      logger.error({}, 'Shutdown took over 10 s: exiting')
      process.exit(1)
    }, 10_000)
    force.unref()
    service.stop().then(
      () => {
        logger.info({}, 'Stopped')
        process.exit(0)
      },
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
