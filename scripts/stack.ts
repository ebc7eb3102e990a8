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
import path from 'node:path'
import type { Address } from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { memoryDataDir } from '../server/db/config.ts'
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
import { deployPaymaster, planPaymaster } from '../server/dev/chain/paymaster.ts'
import { type FarcasterStandIns, startFarcasterStandIns } from '../server/dev/farcaster/index.ts'
import { registerDevInbox } from '../server/dev/mail/inbox.ts'
import { type MailSink, startMailSink } from '../server/dev/mail/index.ts'
import { startOidcStandIn } from '../server/dev/oidc/index.ts'
import { startRelay } from '../server/dev/relay/index.ts'
import { createLogger } from '../server/logger.ts'
import { memoryDatabases } from './stack/database.ts'
import {
  FRAME_HOST,
  HOST,
  portFromEnv,
  repoRoot,
  type StackOptions,
  type StackUrls,
} from './stack/options.ts'
import { stackServiceConfig } from './stack/serviceConfig.ts'
import { type StackService, type StartedService, startServices } from './stack/services.ts'
import { buildFrame, startDemo } from './stack/vite.ts'

export type { StackOptions, StackUrls } from './stack/options.ts'
export {
  type RunningService,
  type StackService,
  type StartedService,
  startServices,
} from './stack/services.ts'

export type Stack = {
  urls: StackUrls
  /** The local market on eip155:31337 (tokens, Uniswap V2, pools). */
  market: LocalMarket
  /** ENS on eip155:31337: the registry, the names' offchain resolver and the universal resolver. */
  ens: LocalEns
  /** The WalletPaymaster on eip155:31337 and the address of this run's `PAYMASTER_SIGNER_KEY`. */
  paymaster: { address: Address; signer: Address }
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
  /**
   * Puts the stack back as it was once started, for the next test file that shares it: the EVM chains
   * reverted to their state after the deployments (`evm_revert`), the service and the bundler started
   * again (the service on a new database), the mail forgotten, the Farcaster clock on the real time.
   * The local Solana and Bitcoin nodes, which have no snapshots, are started again on their ports from
   * the same genesis. Only for a service database in memory (`serviceDataDir: 'memory://'`).
   */
  reset(): Promise<void>
  /** Stops every service in reverse order; safe to call twice. */
  stop(): Promise<void>
}

export type StartStackErrorType = Error

/**
 * Starts the local stack: two Hardhat chains (31337, 31338, the first with the local market and
 * ERC-4337 v0.8 at its canonical addresses), the ERC-4337 bundler of 31337, the
 * local Solana, the Bitcoin regtest node, the companion service with the embedded wallet's frame on its own origin, the mail
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
  const frameUrl = `http://${FRAME_HOST}:${framePort}`
  let mailSink: MailSink | undefined
  let serviceDatabase: ServiceDatabase | undefined
  let restartService: Stack['restartService'] = async () => {
    throw new Error('stack: the service did not start')
  }
  // The local Solana and Bitcoin nodes keep no snapshot: a reset starts each again, empty, on the same
  // ports. Their genesis is the same each time (fixed dev keys, the test token's fixed mint), so a reset
  // node holds what the stack started with.
  const freshNodes: (() => Promise<void>)[] = []
  let restartBundler: Stack['restartBundler'] = async () => {
    throw new Error('stack: the bundler did not start')
  }
  const solanaPort = options.solanaPort ?? portFromEnv('SOLANA_PORT', 8899)
  const bitcoinPort = options.bitcoinPort ?? portFromEnv('BITCOIN_PORT', 8794)
  const serviceDataDir = options.serviceDataDir ?? (process.env.SERVICE_DATA_DIR || '.data/service')
  const inMemory = serviceDataDir === memoryDataDir
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
  const bitcoinUrl = `http://${HOST}:${bitcoinPort}`
  // The market's addresses are known before it is deployed, so the service and the demo start beside it.
  const market = planMarket(31337)
  const tokenList = marketTokenList(market)
  const ens = planEns()
  const { loadConfig } = await import('../server/config.ts')
  const base = loadConfig({
    ...process.env,
    LOG_LEVEL: options.logLevel === 'info' ? 'info' : 'warn',
    ...(options.walletKek ? { WALLET_KEK: options.walletKek } : {}),
  })
  // The names' gateway key: made for this run (the resolver deployed below trusts its address).
  const nameGatewayKey = base.nameGatewayKey ?? generatePrivateKey()
  // The paymaster's signing key: made for this run (the paymaster deployed below trusts its address).
  const paymasterSignerKey = base.paymasterSignerKey ?? generatePrivateKey()
  const paymaster = { address: planPaymaster(), signer: privateKeyToAddress(paymasterSignerKey) }
  if (options.marketFile) await writeMarketFile(path.resolve(repoRoot, options.marketFile), market)

  const services: StackService[] = [
    {
      name: 'chain',
      start: async () => {
        const chain = await startChain({ port: chainPort, chainId: 31337, host: HOST })
        try {
          await deployMarket({ url: chain.url, chainId: chain.chainId })
          await deployErc4337({ url: chain.url })
          const deployed = await deployPaymaster({
            url: chain.url,
            chainId: chain.chainId,
            signer: paymaster.signer,
          })
          if (deployed !== paymaster.address)
            throw new Error(`stack: the paymaster landed at ${deployed}, not at ${paymaster.address}`)
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
          detail: `eip155:${chain.chainId}, USDC ${USDC.address}, DEV ${DEV.address}, WETH ${WETH.address}, Uniswap V2 router ${market.uniswapV2.router}, EntryPoint v0.8 ${entryPoint08Address}, paymaster ${paymaster.address} (signer ${paymaster.signer}), ENS universal resolver ${ens.universalResolver}`,
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
        // The frame app is built for this run (a few seconds), unless a built one is named.
        const frame = options.frameDir || process.env.FRAME_DIR ? undefined : await buildFrame()
        const sink = mailSink
        const config = stackServiceConfig({
          base,
          nameGatewayKey,
          paymaster: { signerKey: paymasterSignerKey, address: paymaster.address },
          frame: { port: framePort, url: frameUrl, dir: options.frameDir ?? frame?.dir },
          smtpUrl: mailSink?.url,
          oidcPort,
          farcasterPorts,
          servicePort,
          serviceDataDir,
          projectId,
          demoPort,
          siteOrigins: options.siteOrigins ?? [],
          market,
          tokenList,
          onramp: {
            url: onrampUrl,
            apiKey: onrampApiKey,
            webhookSecret: onrampWebhookSecret,
            sender: onrampSender.address,
          },
          upstreams: { chainUrl, chain2Url, solanaUrl, bundlerUrl },
          bitcoinUrl: options.bitcoin === false ? undefined : `http://${HOST}:${bitcoinPort}`,
        })
        // In memory, each start of the service gets a new database (as a new process would), loaded
        // from an image of the migrated one instead of migrating again.
        const databases = inMemory ? memoryDatabases(config, createLogger(config.logLevel)) : undefined
        const launch = async () => {
          const database = await databases?.open()
          try {
            const started = await startService({
              ...(sink ? { extraRoutes: async (scope) => registerDevInbox(scope, sink) } : {}),
              ...(database ? { database } : {}),
              config,
            })
            return {
              started,
              stop: async () => {
                await started.stop()
                await database?.close()
              },
            }
          } catch (error) {
            await database?.close()
            throw error
          }
        }
        let service = await launch()
        serviceDatabase = service.started.app.database
        // Stops the service and starts it again on the same port and data folder (tests of restarts).
        restartService = async (between) => {
          await service.stop()
          await between?.()
          service = await launch()
          serviceDatabase = service.started.app.database
        }
        return {
          url: service.started.url,
          detail: `project ${projectId}, wallet frame ${service.started.frameUrl === null ? 'off' : frameUrl}`,
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
              let solana = await startSolana({ host: HOST, port: solanaPort })
              freshNodes.push(async () => {
                await solana.stop()
                solana = await startSolana({ host: HOST, port: solanaPort })
              })
              return {
                url: solana.url,
                detail: `WebSocket ${solana.wsUrl}, test token ${solana.mint.address.toBase58()}`,
                stop: () => solana.stop(),
              }
            },
          } satisfies StackService,
        ]),
    ...(options.bitcoin === false
      ? []
      : [
          {
            name: 'bitcoin',
            start: async () => {
              const { startBitcoinNode } = await import('../server/dev/bitcoin/index.ts')
              const blockIntervalMs =
                options.bitcoinBlockIntervalMs ?? Number(process.env.BITCOIN_BLOCK_INTERVAL_MS ?? 5000)
              let node = await startBitcoinNode({ host: HOST, port: bitcoinPort, blockIntervalMs })
              freshNodes.push(async () => {
                await node.stop()
                node = await startBitcoinNode({ host: HOST, port: bitcoinPort, blockIntervalMs })
              })
              return {
                url: node.url,
                detail: `regtest, dev address ${node.devKeys[0]?.address} (100 BTC)`,
                stop: () => node.stop(),
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
            VITE_LOCAL_BITCOIN_URL: bitcoinUrl,
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
  // The EVM chains as the deployments left them, for reset(): each revert uses up its snapshot, so a
  // new one is taken at once.
  const chainUrls = [url('chain'), url('chain2'), farcasterStandIns?.chainUrl ?? ''].filter(Boolean)
  const snapshots = new Map<string, string>()
  const takeSnapshots = async () => {
    for (const chain of chainUrls) snapshots.set(chain, await chainRpc<string>(chain, 'evm_snapshot'))
  }
  if (inMemory)
    await takeSnapshots().catch(async (error: unknown) => {
      await running.stop()
      throw error
    })
  let resetting: Promise<void> | undefined
  const reset = async () => {
    if (!inMemory)
      throw new Error('stack: reset() needs the service database in memory (serviceDataDir memory://)')
    // Nothing writes while the chains go back: the service and the bundler stop first.
    await restartService(() =>
      restartBundler(async () => {
        for (const chain of chainUrls) {
          const reverted = await chainRpc<boolean>(chain, 'evm_revert', [snapshots.get(chain)])
          if (!reverted) throw new Error(`stack: ${chain} did not revert to its snapshot`)
          // The node's clock after a revert runs ahead by the time the snapshot was kept, and a file's
          // blocks would carry tomorrow's dates after a few files (a paymaster's or a session's window
          // then opens in the future for the bundler, which reads the real time). A block now puts the
          // chain's time back on the real one (or just after the snapshot's block, when that is later).
          const latest = await chainRpc<{ timestamp: string }>(chain, 'eth_getBlockByNumber', [
            'latest',
            false,
          ])
          const now = Math.floor(Date.now() / 1000)
          await chainRpc(chain, 'evm_setNextBlockTimestamp', [Math.max(now, Number(latest.timestamp) + 1)])
          await chainRpc(chain, 'evm_mine')
        }
        await takeSnapshots()
        for (const fresh of freshNodes) await fresh()
      }),
    )
    mailSink?.clear()
    farcasterStandIns?.resetClock()
  }
  return {
    market,
    ens,
    paymaster,
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
      bitcoin: url('bitcoin'),
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
    reset: () => {
      // One reset at a time; a second caller waits for the one running and then starts its own.
      const next = (resetting ?? Promise.resolve()).catch(() => {}).then(reset)
      resetting = next
      return next
    },
    stop: running.stop,
  }
}

/** One JSON-RPC call to a local chain (the test chain's own methods, such as `evm_snapshot`). */
async function chainRpc<Result>(url: string, method: string, params: unknown[] = []): Promise<Result> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: Result; error?: { message: string } }
  if (body.error || body.result === undefined)
    throw new Error(`stack: ${method} on ${url} failed: ${body.error?.message ?? `HTTP ${response.status}`}`)
  return body.result
}
