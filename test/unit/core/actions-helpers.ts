// What the core-actions tests share: two local chains, and a config with the Demo Wallet behind the
// injected connector, its storage, fetches and events recorded.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  createDemoWallet,
  type ProviderListener,
  type RequestArguments,
} from '../../../demo/wallets/demo-wallet.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { createInjectedConnector } from '../../../src/connectors/injected/index.ts'
import type { Eip1193Provider } from '../../../src/connectors/types.ts'
import { connect } from '../../../src/core/actions/connect.ts'
import { balanceKey } from '../../../src/core/balanceKey.ts'
import type { Config } from '../../../src/core/createConfig.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { WalletEventMap, WalletEventName } from '../../../src/core/events/types.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { STORAGE_PREFIX, type StorageKey } from '../../../src/protocol/storage.ts'
import { freePort } from '../../support/net.ts'

export const ORIGIN = 'http://127.0.0.1'

export const DEMO_ID = 'dev.wallet-elements.demo'

export const ALICE = devAccount(0).address

export const BOB = devAccount(1).address

export const TEN_THOUSAND_ETH = 10_000n * 10n ** 18n

export const EVENT_NAMES: WalletEventName[] = [
  'connect',
  'disconnect',
  'account-change',
  'network-change',
  'open',
  'close',
  'request-close',
  'error',
]

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

export type DemoWallet = ReturnType<typeof createDemoWallet>

export type Recorded = { [K in WalletEventName]: [K, WalletEventMap[K]] }[WalletEventName]

export interface Harness {
  config: Config
  wallet: DemoWallet
  /** The storage backend the config writes to (full keys, JSON values). */
  items: Map<string, string>
  /** URLs the config fetched through `platform.fetch`. */
  fetches: string[]
  /** Wallet requests, in order, with `ok` or the error code. */
  calls: string[]
  events: Recorded[]
  /** Moves the config's clock forward. */
  advance(ms: number): void
  stored(key: StorageKey): unknown
}

export let chain: LocalChain

export let chain2: LocalChain

export let closedUrl: string

export interface SetupParameters {
  /** RPC URL of eip155:31337 for the config (the wallet always uses the running chain). */
  rpcUrl?: string
  autoApprove?: boolean
  /** Share a wallet (and its authorization) with an earlier harness. */
  wallet?: DemoWallet
  /** Share a storage backend with an earlier harness. */
  items?: Map<string, string>
  /** Register the wallet as a connector (default true). */
  register?: boolean
  /** The chain the new wallet starts on (default 31337). */
  chainId?: number
  /** Methods the wallet answers as unknown (4200), like a wallet that lacks them. */
  lacks?: RegExp
  /** Parts of the platform of the harness's own (a window, a storage that tells other tabs). */
  platform?: Partial<Platform>
}

export function setup(parameters: SetupParameters = {}): Harness {
  const items = parameters.items ?? new Map<string, string>()
  const fetches: string[] = []
  const calls: string[] = []
  const events: Recorded[] = []
  let skew = 0
  const platform: Platform = {
    window: undefined,
    storage: {
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void items.set(key, value),
      removeItem: (key) => void items.delete(key),
    },
    fetch: (input, init) => {
      // Origins: viem writes a bare origin with a trailing slash.
      fetches.push(new URL(String(input)).origin)
      return fetch(input, init)
    },
    now: () => Date.now() + skew,
    isMobile: () => false,
    prefersDark: () => false,
    ...parameters.platform,
  }
  const wallet =
    parameters.wallet ??
    createDemoWallet({
      origin: ORIGIN,
      autoApprove: parameters.autoApprove ?? true,
      localRpcUrl: chain.url,
      ...(parameters.chainId === undefined ? {} : { chainId: parameters.chainId }),
    })
  // A spy in front of the wallet: records each request and how it ended.
  const provider: Eip1193Provider = {
    request: async (args) => {
      if (parameters.lacks?.test(args.method)) {
        calls.push(`${args.method} 4200`)
        throw Object.assign(new Error(`Unsupported method: ${args.method}`), { code: 4200 })
      }
      try {
        const result = await wallet.provider.request(args as RequestArguments)
        calls.push(`${args.method} ok`)
        return result
      } catch (error) {
        calls.push(`${args.method} ${(error as { code?: number }).code}`)
        throw error
      }
    },
    on: (event, listener) => wallet.provider.on(event, listener as ProviderListener),
    removeListener: (event, listener) => wallet.provider.removeListener(event, listener as ProviderListener),
  }
  const config = createConfig(
    {
      networks: 'eip155:31337,eip155:31338',
      rpcUrls: { 'eip155:31337': parameters.rpcUrl ?? chain.url, 'eip155:31338': chain2.url },
      connectors:
        parameters.register === false
          ? []
          : [createInjectedConnector({ id: DEMO_ID, name: 'Demo Wallet', provider })],
    },
    platform,
  )
  assert.deepEqual(config.issues, [])
  for (const name of EVENT_NAMES) {
    config.events.on(name, (detail) => {
      events.push([name, detail] as Recorded)
      return undefined
    })
  }
  return {
    config,
    wallet,
    items,
    fetches,
    calls,
    events,
    advance: (ms) => {
      skew += ms
    },
    stored: (key) => {
      const raw = items.get(STORAGE_PREFIX + key)
      return raw === undefined ? undefined : JSON.parse(raw)
    },
  }
}

export const connector = (config: Config) => {
  const found = config.$connectors.get().find((candidate) => candidate.id === DEMO_ID)
  assert.ok(found, 'the Demo Wallet is registered')
  return found
}

export const named = <K extends WalletEventName>(events: Recorded[], name: K): WalletEventMap[K][] =>
  events.filter((event) => event[0] === name).map(([, detail]) => detail as WalletEventMap[K])

/** Connects and waits for the balance fetch that a connection starts in the background. */

export async function connected(harness: Harness): Promise<void> {
  await connect(harness.config, { connector: connector(harness.config) })
  await until(() => {
    const account = harness.config.$account.get()
    const network = harness.config.$network.get()
    if (!account || !network) return false
    const balance = harness.config.$balances.get()[balanceKey(network.caipNetworkId, account.address)]
    return balance !== undefined && balance.status !== 'loading'
  }, 'the first balance')
}

/**
 * Starts chains 31337 and 31338 on free ports before the tests of the calling describe, and stops them after.
 */
export function useLocalChains(): void {
  before(async () => {
    const [port, port2, closedPort] = await Promise.all([freePort(), freePort(), freePort()])
    closedUrl = `http://127.0.0.1:${closedPort}`
    ;[chain, chain2] = await Promise.all([
      startChain({ port, chainId: 31337 }),
      startChain({ port: port2, chainId: 31338 }),
    ])
  })
  after(async () => {
    await Promise.all([chain?.stop(), chain2?.stop()])
  })
}
