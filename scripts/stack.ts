/**
 * The local stack: everything `npm start` and the end-to-end tests run, on loopback only.
 *
 * Each part is a named {@link StackService} whose `start()` resolves to `{ url, stop }`. Services start
 * in parallel unless one names another in `dependsOn`; if one fails, those already started are
 * stopped and `startStack` rejects. `stop()` stops them in reverse order of the list.
 *
 * To add a service (the companion service, the relay, ...), add an entry to the list in
 * {@link startStack}, a key to {@link StackUrls}, and a port to {@link StackOptions}.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { parseTokenLists } from '../server/blockchain/tokenLists.ts'
import type { ServiceDatabase } from '../server/db/database.ts'
import { startBundler } from '../server/dev/bundler/index.ts'
import { deployEns, type LocalEns, planEns } from '../server/dev/chain/ens.ts'
import { deployErc4337 } from '../server/dev/chain/erc4337.ts'
import { devAccount, startChain } from '../server/dev/chain/index.ts'
import {
  deployMarket,
  type LocalMarket,
  marketTokenList,
  ONRAMP_SENDER_INDEX,
  planMarket,
  writeMarketFile,
} from '../server/dev/chain/market.ts'
import { type FarcasterStandIns, startFarcasterStandIns } from '../server/dev/farcaster/index.ts'
import { registerDevInbox } from '../server/dev/mail/inbox.ts'
import { type MailSink, startMailSink } from '../server/dev/mail/index.ts'
import {
  devAppleKey,
  socialProviderNames,
  standInClient,
  startOidcStandIn,
} from '../server/dev/oidc/index.ts'
import { startRelay } from '../server/dev/relay/index.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../src/chains/solana/networks.ts'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const HOST = '127.0.0.1'

export type RunningService = {
  url: string
  /** Shown after the URL by `npm start`, e.g. `eip155:31337`. */
  detail?: string
  stop(): Promise<void>
}

export type StackService = {
  name: string
  /** Names of services (earlier in the list) that must have started first. */
  dependsOn?: readonly string[]
  start(): Promise<RunningService>
}

export type StartedService = { name: string; url: string; detail?: string }

export type StackUrls = {
  /** Local EVM chain, eip155:31337. */
  chain: string
  /** Second local EVM chain, eip155:31338. */
  chain2: string
  /** The companion service. */
  service: string
  /** The embedded wallet's frame, on its own origin (served by the service). */
  frame: string
  /** The dev inbox page: the mail the stack sent (codes and approval links). */
  inbox: string
  /** The local SMTP server (`smtp://`). */
  smtp: string
  /** The social providers' stand-in: each provider at `<url>/<provider>`. */
  oidc: string
  /** The WalletConnect dev relay (ws://). */
  relay: string
  /** The local ERC-4337 bundler of eip155:31337 (EntryPoint v0.8). */
  bundler: string
  /** The local Solana network's JSON-RPC (empty when not started). */
  solana: string
  /** The local on-ramp stand-in (its API and checkout pages). */
  onramp: string
  /** The demo Farcaster app's page (opens a sign-in channel's link), with a trailing slash. */
  farcasterApp: string
  /** The Farcaster auth relay stand-in. */
  farcasterRelay: string
  /** The chain with chain id 10 holding the Farcaster registry stand-ins. */
  farcasterChain: string
  /** The demo page (vite dev server), with a trailing slash. */
  demo: string
}

export type StackOptions = {
  /** Default `CHAIN_PORT` or 8545. */
  chainPort?: number
  /** Default `CHAIN2_PORT` or 8546. */
  chain2Port?: number
  /** Default `DEMO_PORT` or 5173. */
  demoPort?: number
  /** Default `SERVICE_PORT` or 8787. */
  servicePort?: number
  /** Default `RELAY_PORT` or 8789. */
  relayPort?: number
  /** Default `BUNDLER_PORT` or 4337. */
  bundlerPort?: number
  /** Default `FRAME_PORT` or 8788. */
  framePort?: number
  /** Default `SMTP_PORT` or 2525. */
  smtpPort?: number
  /** Default `ONRAMP_PORT` or 8795. */
  onrampPort?: number
  /** The social providers' stand-in (`oidc-provider`); default `OIDC_PORT` or 8790. */
  oidcPort?: number
  /** Default `SOLANA_PORT` or 8899 (WebSocket on the next port). */
  solanaPort?: number
  /** The Farcaster registries' chain (id 10); default `FARCASTER_CHAIN_PORT` or 8791. */
  farcasterChainPort?: number
  /** The Farcaster relay stand-in; default `FARCASTER_RELAY_PORT` or 8792. */
  farcasterRelayPort?: number
  /** The demo Farcaster app; default `FARCASTER_APP_PORT` or 8793. */
  farcasterAppPort?: number
  /** Run the Farcaster stand-ins (default true; end-to-end tests of other flows turn them off). */
  farcaster?: boolean
  /** Run the local Solana network (default true; end-to-end tests of EVM flows turn it off). */
  solana?: boolean
  /** The service's PGlite data folder; default `SERVICE_DATA_DIR` or `.data/service` (`memory://` in tests). */
  serviceDataDir?: string
  /**
   * Vite config of the demo, relative to the repository root or absolute.
   * Default `DEMO_VITE_CONFIG` or `vite.demo.config.ts`.
   */
  demoConfigFile?: string
  /** Vite's log level; `npm start` uses 'info', tests 'warn'. Default 'info'. */
  logLevel?: 'info' | 'warn' | 'error' | 'silent'
  /**
   * Where to write the local market's token list (the service's `TOKEN_LIST_FILE` format), for a
   * service started on its own; `npm start` writes `.data/local-market.json`. Nothing is written when absent.
   */
  marketFile?: string
}

export type Stack = {
  urls: StackUrls
  /** The local market on eip155:31337 (tokens, Uniswap V2, pools). */
  market: LocalMarket
  /** ENS on eip155:31337: the registry, the names' offchain resolver and the universal resolver. */
  ens: LocalEns
  /** In list order, for printing. */
  services: readonly StartedService[]
  /** The companion service's database, as its operator reaches it (tests look inside). */
  serviceDatabase: ServiceDatabase | undefined
  /**
   * Stops the companion service and starts it again with the same port, configuration and data folder,
   * running `between` (if given) while it is down.
   */
  restartService(between?: () => Promise<void>): Promise<void>
  /** Stops the ERC-4337 bundler and starts it again on the same port, running `between` while it is down. */
  restartBundler(between?: () => Promise<void>): Promise<void>
  /** Moves the Farcaster relay stand-in's clock forward (tests of an expired sign-in channel). */
  advanceFarcasterClock(ms: number): void
  /** Stops every service in reverse order; safe to call twice. */
  stop(): Promise<void>
}

export type StartStackErrorType = Error

/**
 * Starts the local stack: two Hardhat chains (31337, 31338, the first with the local market and
 * ERC-4337 v0.8 at its canonical addresses), the ERC-4337 bundler of 31337, the
 * local Solana, the companion service with the embedded wallet's frame on its own origin, the mail
 * sink (SMTP) behind its dev inbox, the WalletConnect relay, the Farcaster stand-ins (registries on a
 * chain with id 10, the auth relay, the demo Farcaster app) and the demo page's vite dev server.
 *
 * @example
 * const stack = await startStack({ demoPort: 5174 })
 * console.log(stack.urls.demo)
 * await stack.stop()
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const chainPort = options.chainPort ?? portFromEnv('CHAIN_PORT', 8545)
  const chain2Port = options.chain2Port ?? portFromEnv('CHAIN2_PORT', 8546)
  const demoPort = options.demoPort ?? portFromEnv('DEMO_PORT', 5173)
  const servicePort = options.servicePort ?? portFromEnv('SERVICE_PORT', 8787)
  const relayPort = options.relayPort ?? portFromEnv('RELAY_PORT', 8789)
  const bundlerPort = options.bundlerPort ?? portFromEnv('BUNDLER_PORT', 4337)
  const framePort = options.framePort ?? portFromEnv('FRAME_PORT', 8788)
  const smtpPort = options.smtpPort ?? portFromEnv('SMTP_PORT', 2525)
  const onrampPort = options.onrampPort ?? portFromEnv('ONRAMP_PORT', 8795)
  const onrampUrl = `http://${HOST}:${onrampPort}`
  // The stand-in and the service share these for this run only.
  const onrampApiKey = randomBytes(24).toString('hex')
  const onrampWebhookSecret = randomBytes(32).toString('hex')
  // Its own account (not the market's deployer, which funds every dev account's starting tokens).
  const onrampSender = devAccount(ONRAMP_SENDER_INDEX)
  const oidcPort = options.oidcPort ?? portFromEnv('OIDC_PORT', 8790)
  const farcasterPorts = {
    chainPort: options.farcasterChainPort ?? portFromEnv('FARCASTER_CHAIN_PORT', 8791),
    relayPort: options.farcasterRelayPort ?? portFromEnv('FARCASTER_RELAY_PORT', 8792),
    appPort: options.farcasterAppPort ?? portFromEnv('FARCASTER_APP_PORT', 8793),
  }
  let farcasterStandIns: FarcasterStandIns | undefined
  const frameUrl = `http://${HOST}:${framePort}`
  let mailSink: MailSink | undefined
  let serviceDatabase: ServiceDatabase | undefined
  let restartService: Stack['restartService'] = async () => {
    throw new Error('stack: the service did not start')
  }
  let restartBundler: Stack['restartBundler'] = async () => {
    throw new Error('stack: the bundler did not start')
  }
  const solanaPort = options.solanaPort ?? portFromEnv('SOLANA_PORT', 8899)
  const serviceDataDir = options.serviceDataDir ?? (process.env.SERVICE_DATA_DIR || '.data/service')
  const serviceUrl = `http://${HOST}:${servicePort}`
  const relayUrl = `ws://${HOST}:${relayPort}`
  const projectId = process.env.DEV_PROJECT_ID || 'dev-project'
  const demoConfigFile = path.resolve(
    repoRoot,
    options.demoConfigFile ?? (process.env.DEMO_VITE_CONFIG || 'vite.demo.config.ts'),
  )

  // The chain URLs are known from their ports, so the demo can start alongside the chains.
  const chainUrl = `http://${HOST}:${chainPort}`
  const chain2Url = `http://${HOST}:${chain2Port}`
  const bundlerUrl = `http://${HOST}:${bundlerPort}`
  const solanaUrl = `http://${HOST}:${solanaPort}`
  // The market's addresses are known before it is deployed, so the service and the demo start beside it.
  const market = planMarket(31337)
  const tokenList = marketTokenList(market)
  const ens = planEns()
  const { loadConfig } = await import('../server/config.ts')
  const base = loadConfig({ ...process.env, LOG_LEVEL: options.logLevel === 'info' ? 'info' : 'warn' })
  // The names' gateway key: made for this run (the resolver deployed below trusts its address).
  const nameGatewayKey = base.nameGatewayKey ?? generatePrivateKey()
  if (options.marketFile) await writeMarketFile(path.resolve(repoRoot, options.marketFile), market)

  const services: StackService[] = [
    {
      name: 'chain',
      start: async () => {
        const chain = await startChain({ port: chainPort, chainId: 31337, host: HOST })
        try {
          await deployMarket({ url: chain.url, chainId: chain.chainId })
          await deployErc4337({ url: chain.url })
          await deployEns({
            url: chain.url,
            suffix: base.nameSuffix,
            gatewayUrl: `${serviceUrl}/names/v1/gateway/{sender}/{data}.json`,
            signer: privateKeyToAddress(nameGatewayKey),
          })
        } catch (error) {
          await chain.stop()
          throw error
        }
        const { USDC, DEV, WETH } = market.tokens
        return {
          url: chain.url,
          detail: `eip155:${chain.chainId}, USDC ${USDC.address}, DEV ${DEV.address}, WETH ${WETH.address}, Uniswap V2 router ${market.uniswapV2.router}, EntryPoint v0.8 ${entryPoint08Address}, ENS universal resolver ${ens.universalResolver}`,
          stop: chain.stop,
        }
      },
    },
    {
      name: 'chain2',
      start: async () => {
        const chain = await startChain({ port: chain2Port, chainId: 31338, host: HOST })
        return { url: chain.url, detail: `eip155:${chain.chainId}`, stop: chain.stop }
      },
    },
    {
      name: 'bundler',
      dependsOn: ['chain'],
      start: async () => {
        const launch = () => startBundler({ rpcUrl: chainUrl, chainId: 31337, host: HOST, port: bundlerPort })
        let bundler = await launch()
        // Down and up again on the same port (tests of a bundler outage).
        restartBundler = async (between) => {
          await bundler.stop()
          await between?.()
          bundler = await launch()
        }
        return { url: bundler.url, detail: 'ERC-4337 on eip155:31337', stop: () => bundler.stop() }
      },
    },
    {
      name: 'mail',
      start: async () => {
        const sink = await startMailSink({ host: HOST, port: smtpPort })
        mailSink = sink
        return { url: sink.url, detail: `dev inbox ${serviceUrl}/dev/inbox`, stop: sink.stop }
      },
    },
    {
      name: 'oidc',
      start: async () => {
        const oidc = await startOidcStandIn({ host: HOST, port: oidcPort, redirectBase: frameUrl })
        return { url: oidc.url, detail: 'social providers: /google, /github, /apple, …', stop: oidc.stop }
      },
    },
    ...(options.farcaster === false
      ? []
      : [
          {
            name: 'farcaster',
            start: async () => {
              const farcaster = await startFarcasterStandIns({ host: HOST, ...farcasterPorts })
              farcasterStandIns = farcaster
              return {
                url: farcaster.appUrl,
                detail: `demo Farcaster app; relay ${farcaster.relayUrl}, registries on ${farcaster.chainUrl} (chain id 10)`,
                stop: farcaster.stop,
              }
            },
          } satisfies StackService,
        ]),
    {
      name: 'service',
      dependsOn: ['mail', 'oidc'],
      start: async () => {
        const { startService } = await import('../server/main.ts')
        // The frame app is built for this run (about a second), unless FRAME_DIR names a built one.
        const frame = process.env.FRAME_DIR ? undefined : await buildFrame()
        const sink = mailSink
        const launch = () =>
          startService({
            ...(sink ? { extraRoutes: async (scope) => registerDevInbox(scope, sink) } : {}),
            config: {
              ...base,
              // npm start is development: the dev project below, local origins without warnings.
              environment: 'development',
              nameGatewayKey,
              embedded: {
                ...base.embedded,
                framePort,
                framePublicUrl: frameUrl,
                frameDir: frame?.dir ?? base.embedded.frameDir,
                smtpUrl: mailSink?.url ?? base.embedded.smtpUrl,
                // Every social provider on the local stand-in, with its dev client.
                social: {
                  providerUrl: `http://${HOST}:${oidcPort}`,
                  redirectBase: frameUrl,
                  credentials: Object.fromEntries(
                    socialProviderNames.map((provider) => [provider, standInClient(provider)]),
                  ),
                  apple: {
                    teamId: devAppleKey.teamId,
                    keyId: devAppleKey.keyId,
                    privateKey: devAppleKey.privateKeyPem,
                  },
                },
                // Sign In With Farcaster through the local relay, against the local registries.
                farcaster: {
                  relayUrl: `http://${HOST}:${farcasterPorts.relayPort}`,
                  rpcUrl: `http://${HOST}:${farcasterPorts.chainPort}`,
                },
              },
              host: HOST,
              port: servicePort,
              dataDir: serviceDataDir,
              devProjectId: projectId,
              devOrigins: [
                `http://${HOST}:${demoPort}`,
                `http://localhost:${demoPort}`,
                'http://127.0.0.1:4173',
              ],
              tokenLists: parseTokenLists({ networks: { [market.caipNetworkId]: tokenList } }),
              onramp: {
                providerUrl: onrampUrl,
                apiKey: onrampApiKey,
                webhookSecret: onrampWebhookSecret,
                senderAddresses: { [market.caipNetworkId]: [onrampSender.address] },
              },
              rpcUpstreams: {
                'eip155:31337': chainUrl,
                'eip155:31338': chain2Url,
                [LOCAL_SOLANA_NETWORK_ID]: solanaUrl,
              },
              bundlerUpstreams: { 'eip155:31337': bundlerUrl },
              // The Activity list's history: the service indexes both local EVM chains itself.
              historyNetworks: ['eip155:31337', 'eip155:31338'],
            },
          })
        let service = await launch()
        serviceDatabase = service.app.database
        // Stops the service and starts it again on the same port and data folder (tests of restarts).
        restartService = async (between) => {
          await service.stop()
          await between?.()
          service = await launch()
          serviceDatabase = service.app.database
        }
        return {
          url: service.url,
          detail: `project ${projectId}, wallet frame ${service.frameUrl}`,
          stop: async () => {
            await service.stop()
            await frame?.remove()
          },
        }
      },
    },
    {
      name: 'onramp',
      dependsOn: ['chain'],
      start: async () => {
        const { startOnrampStandin } = await import('../server/dev/onramp/index.ts')
        const { USDC } = market.tokens
        const onramp = await startOnrampStandin({
          host: HOST,
          port: onrampPort,
          chains: { [market.caipNetworkId]: chainUrl },
          sender: onrampSender,
          tokens: [{ id: 'USDC', ...USDC, network: market.caipNetworkId, usdPrice: 1 }],
          apiKey: onrampApiKey,
          webhookUrl: `${serviceUrl}/onramp/v1/webhook`,
          webhookSecret: onrampWebhookSecret,
        })
        return {
          url: onramp.url,
          detail: `on-ramp stand-in, delivers from ${onrampSender.address}`,
          stop: onramp.stop,
        }
      },
    },
    {
      name: 'relay',
      start: async () => {
        const relay = await startRelay({ host: HOST, port: relayPort })
        return { url: relay.url, detail: 'WalletConnect', stop: relay.stop }
      },
    },
    ...(options.solana === false
      ? []
      : [
          {
            name: 'solana',
            start: async () => {
              const { startSolana } = await import('../server/dev/solana/index.ts')
              const solana = await startSolana({ host: HOST, port: solanaPort })
              return {
                url: solana.url,
                detail: `WebSocket ${solana.wsUrl}, test token ${solana.mint.address.toBase58()}`,
                stop: solana.stop,
              }
            },
          } satisfies StackService,
        ]),
    {
      name: 'demo',
      start: () =>
        startDemo({
          configFile: demoConfigFile,
          port: demoPort,
          logLevel: options.logLevel ?? 'info',
          env: {
            VITE_LOCAL_RPC_URL: chainUrl,
            VITE_LOCAL2_RPC_URL: chain2Url,
            VITE_LOCAL_SOLANA_RPC_URL: solanaUrl,
            VITE_API_URL: serviceUrl,
            VITE_RELAY_URL: relayUrl,
            VITE_PROJECT_ID: projectId,
            VITE_FRAME_URL: frameUrl,
            VITE_LOCAL_MARKET: JSON.stringify({
              router: market.uniswapV2.router,
              tokens: Object.values(market.tokens),
            }),
          },
        }),
    },
  ]

  const running = await startServices(services)
  const url = (name: string) => running.find((service) => service.name === name)?.url ?? ''
  return {
    market,
    ens,
    urls: {
      chain: url('chain'),
      chain2: url('chain2'),
      service: url('service'),
      frame: url('service') ? frameUrl : '',
      inbox: url('service') ? `${url('service')}/dev/inbox` : '',
      smtp: url('mail'),
      oidc: url('oidc'),
      relay: url('relay'),
      bundler: url('bundler'),
      solana: url('solana'),
      onramp: url('onramp'),
      farcasterApp: url('farcaster'),
      farcasterRelay: farcasterStandIns?.relayUrl ?? '',
      farcasterChain: farcasterStandIns?.chainUrl ?? '',
      demo: url('demo'),
    },
    advanceFarcasterClock: (ms) => farcasterStandIns?.advanceClock(ms),
    services: running.map(({ name, url, detail }) => ({ name, url, ...(detail ? { detail } : {}) })),
    get serviceDatabase() {
      return serviceDatabase
    },
    restartService: (between) => restartService(between),
    restartBundler: (between) => restartBundler(between),
    stop: running.stop,
  }
}

/**
 * Starts services in parallel, honouring `dependsOn`. All or nothing: when one fails, the others
 * (those started, and those still starting once they finish) are stopped and the first error thrown.
 *
 * @example
 * const running = await startServices([{ name: 'relay', start: () => startRelay({ port }) }])
 * await running.stop()
 */
export async function startServices(
  services: readonly StackService[],
): Promise<(StartedService & { stop(): Promise<void> })[] & { stop(): Promise<void> }> {
  const started = new Map<string, Promise<RunningService>>()
  for (const service of services) {
    if (started.has(service.name)) throw new Error(`stack: two services are named "${service.name}"`)
    const dependencies = (service.dependsOn ?? []).map((name) => {
      const dependency = started.get(name)
      if (!dependency)
        throw new Error(`stack: "${service.name}" depends on "${name}", which is not listed before it`)
      return dependency
    })
    started.set(
      service.name,
      Promise.all(dependencies).then(
        () =>
          service.start().catch((error: unknown) => {
            throw new ServiceStartError(service.name, error)
          }),
        () => {
          throw new DependencyFailed(service.name)
        },
      ),
    )
  }

  const results = await Promise.allSettled(started.values())
  const entries = services.map((service, index) => ({ service, result: results[index]! }))

  const stopInReverse = async (list: { name: string; running: RunningService }[]) => {
    const errors: unknown[] = []
    for (const { name, running } of [...list].reverse()) {
      try {
        await running.stop()
      } catch (error) {
        errors.push(new Error(`stack: stopping ${name} failed: ${errorMessage(error)}`, { cause: error }))
      }
    }
    if (errors.length === 1) throw errors[0]
    if (errors.length > 1) throw new AggregateError(errors, 'stack: some services failed to stop')
  }

  const ok = entries.flatMap(({ service, result }) =>
    result.status === 'fulfilled' ? [{ name: service.name, running: result.value }] : [],
  )
  const failures = entries.flatMap(({ result }) =>
    result.status === 'rejected' && !(result.reason instanceof DependencyFailed)
      ? [result.reason as Error]
      : [],
  )
  if (failures.length > 0) {
    await stopInReverse(ok).catch((error: unknown) => console.error(errorMessage(error)))
    if (failures.length === 1) throw failures[0]
    throw new AggregateError(failures, failures.map((failure) => failure.message).join('\n'))
  }

  let stopping: Promise<void> | undefined
  const list = ok.map(({ name, running }) => ({
    name,
    url: running.url,
    ...(running.detail ? { detail: running.detail } : {}),
    stop: running.stop,
  }))
  return Object.assign(list, {
    stop: () => {
      stopping ??= stopInReverse(ok)
      return stopping
    },
  })
}

class ServiceStartError extends Error {
  override name = 'ServiceStartError'
  constructor(service: string, cause: unknown) {
    super(`stack: ${service} failed to start: ${errorMessage(cause)}`, { cause })
  }
}

class DependencyFailed extends Error {
  override name = 'DependencyFailed'
  constructor(service: string) {
    super(`stack: ${service} was not started because a service it depends on failed`)
  }
}

/** Builds the wallet frame (src/frame) into a temporary folder for this run of the stack. */
async function buildFrame(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wallet-frame-'))
  const { build } = await import('vite')
  await build({
    configFile: path.join(repoRoot, 'vite.frame.config.ts'),
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true },
  })
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

type StartDemoParameters = {
  configFile: string
  port: number
  logLevel: NonNullable<StackOptions['logLevel']>
  env: Record<string, string>
}

async function startDemo({ configFile, port, logLevel, env }: StartDemoParameters): Promise<RunningService> {
  if (!existsSync(configFile)) {
    throw new Error(
      `the demo's vite config ${path.relative(repoRoot, configFile) || configFile} does not exist yet; ` +
        'create it, or point DEMO_VITE_CONFIG (or the demoConfigFile option) at another config',
    )
  }
  // Vite inlines VITE_* variables from process.env into import.meta.env of the demo.
  Object.assign(process.env, env)

  const { createServer } = await import('vite')
  // Vite installs its own SIGTERM (and stdin 'end') handler that calls process.exit() once vite alone
  // is closed; whoever owns the process (scripts/start.ts, a test) stops the whole stack instead.
  const sigtermBefore = new Set(process.listeners('SIGTERM'))
  const stdinEndBefore = new Set(process.stdin.listeners('end'))
  const server = await createServer({
    configFile,
    logLevel,
    clearScreen: false,
    server: { host: HOST, port, strictPort: true },
  })
  for (const listener of process.listeners('SIGTERM')) {
    if (!sigtermBefore.has(listener)) process.off('SIGTERM', listener)
  }
  for (const listener of process.stdin.listeners('end')) {
    if (!stdinEndBefore.has(listener)) process.stdin.off('end', listener as (...args: unknown[]) => void)
  }

  try {
    await server.listen()
  } catch (error) {
    await server.close()
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE' || /already in use/i.test(errorMessage(error))) {
      throw new Error(`port ${port} on ${HOST} is already in use (DEMO_PORT); choose another port`, {
        cause: error,
      })
    }
    throw error
  }
  const url = server.resolvedUrls?.local[0] ?? `http://${HOST}:${port}/`
  return { url, stop: () => server.close() }
}

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name}="${raw}" is not a TCP port`)
  return port
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
