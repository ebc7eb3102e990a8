// The core actions end to end in node, against real parts: two Hardhat chains on loopback and the
// Demo Wallet (no document, so prompts are answered by autoApprove) behind the injected connector.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createPublicClient, http } from 'viem'
import {
  createDemoWallet,
  type ProviderListener,
  type RequestArguments,
} from '../../../demo/wallets/demo-wallet.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { createInjectedConnector } from '../../../src/connectors/injected/index.ts'
import type { Eip1193Provider } from '../../../src/connectors/types.ts'
import { close } from '../../../src/core/actions/close.ts'
import { connect } from '../../../src/core/actions/connect.ts'
import { disconnect } from '../../../src/core/actions/disconnect.ts'
import { fetchBalance } from '../../../src/core/actions/fetchBalance.ts'
import { getProvider } from '../../../src/core/actions/getProvider.ts'
import { open } from '../../../src/core/actions/open.ts'
import { reconnect } from '../../../src/core/actions/reconnect.ts'
import { switchNetwork } from '../../../src/core/actions/switchNetwork.ts'
import { balanceKey } from '../../../src/core/balanceKey.ts'
import type { ConnectionStatus } from '../../../src/core/connection/machine.ts'
import type { Config } from '../../../src/core/createConfig.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { WalletEventMap, WalletEventName } from '../../../src/core/events/types.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { STORAGE_PREFIX, StorageKey } from '../../../src/protocol/storage.ts'
import { formatBalance, shortAddress } from '../../../src/shared/format.ts'
import { freePort } from '../../support/net.ts'

const ORIGIN = 'http://127.0.0.1'
const DEMO_ID = 'dev.wallet-elements.demo'
const ALICE = devAccount(0).address
const BOB = devAccount(1).address
const TEN_THOUSAND_ETH = 10_000n * 10n ** 18n
const EVENT_NAMES: WalletEventName[] = [
  'connect',
  'disconnect',
  'account-change',
  'network-change',
  'open',
  'close',
  'request-close',
  'error',
]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

type DemoWallet = ReturnType<typeof createDemoWallet>
type Recorded = { [K in WalletEventName]: [K, WalletEventMap[K]] }[WalletEventName]

interface Harness {
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

let chain: LocalChain
let chain2: LocalChain
let closedUrl: string

interface SetupParameters {
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
}

function setup(parameters: SetupParameters = {}): Harness {
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

const connector = (config: Config) => {
  const found = config.$connectors.get().find((candidate) => candidate.id === DEMO_ID)
  assert.ok(found, 'the Demo Wallet is registered')
  return found
}

const named = <K extends WalletEventName>(events: Recorded[], name: K): WalletEventMap[K][] =>
  events.filter((event) => event[0] === name).map(([, detail]) => detail as WalletEventMap[K])

/** Connects and waits for the balance fetch that a connection starts in the background. */
async function connected(harness: Harness): Promise<void> {
  await connect(harness.config, { connector: connector(harness.config) })
  await until(() => {
    const account = harness.config.$account.get()
    const network = harness.config.$network.get()
    if (!account || !network) return false
    const balance = harness.config.$balances.get()[balanceKey(network.caipNetworkId, account.address)]
    return balance !== undefined && balance.status !== 'loading'
  }, 'the first balance')
}

describe('core actions against a local chain and the Demo Wallet', { timeout: 60_000 }, () => {
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

  test('default: open picks Connect when disconnected, then Account once connected', async () => {
    const harness = setup()
    const { config, events } = harness
    await open(config)
    assert.equal(config.$modal.get().open, true)
    assert.deepEqual(config.$modal.get().router, { view: 'Connect', history: [], data: undefined })
    await connected(harness)
    assert.equal(config.$modal.get().open, false)
    await open(config)
    assert.equal(config.$modal.get().router.view, 'Account')
    assert.deepEqual(named(events, 'open'), [{ view: 'Connect' }, { view: 'Account' }])
  })

  test('behavior: open honours a forced view and its data', async () => {
    const { config } = setup()
    await open(config, { view: 'Networks', data: { from: 'button' } })
    assert.deepEqual(config.$modal.get().router, { view: 'Networks', history: [], data: { from: 'button' } })
  })

  test('behavior: connect emits connect, sets $account and $network, stores the connection, closes', async () => {
    const harness = setup()
    const { config, events } = harness
    await open(config)
    const waiting: unknown[] = []
    const stop = config.$connecting.listen((state) => waiting.push(state?.status))
    const state = await connect(config, { connector: connector(config) })
    stop()
    assert.deepEqual(state, { namespace: 'eip155', accounts: [ALICE], chainId: 'eip155:31337' })
    assert.deepEqual(waiting, ['waiting', undefined])
    assert.deepEqual(named(events, 'connect'), [
      {
        address: ALICE,
        caipAddress: `eip155:31337:${ALICE}`,
        chainId: 'eip155:31337',
        namespace: 'eip155',
        connector: { id: DEMO_ID, name: 'Demo Wallet', type: 'injected' },
      },
    ])
    assert.equal(config.$status.get(), 'connected')
    assert.deepEqual(config.$account.get(), {
      namespace: 'eip155',
      address: ALICE,
      caipAddress: `eip155:31337:${ALICE}`,
      type: 'eoa',
      connectorId: DEMO_ID,
    })
    const network = config.$network.get()
    assert.equal(network?.caipNetworkId, 'eip155:31337')
    assert.equal(network?.supported, true)
    assert.equal(network?.network?.name, 'Local Chain')
    assert.deepEqual(network?.network?.rpcUrls.default.http, [chain.url])
    assert.equal(harness.stored(StorageKey.connectionStatus), 'connected')
    assert.deepEqual(harness.stored(StorageKey.connector), { eip155: DEMO_ID })
    assert.deepEqual(harness.stored(StorageKey.connectedNamespaces), ['eip155'])
    assert.equal(harness.stored(StorageKey.lastChain), 'eip155:31337')
    assert.deepEqual(harness.stored(StorageKey.recentWallets), [{ id: DEMO_ID, name: 'Demo Wallet' }])
    assert.equal(harness.stored(StorageKey.disconnected), undefined)
    for (const key of harness.items.keys()) assert.ok(key.startsWith(STORAGE_PREFIX), key)
    assert.equal(config.$modal.get().open, false)
    assert.deepEqual(named(events, 'close'), [{}])
  })

  test('behavior: fetchBalance reads 10000 ETH from the chain and caches it for 30 s', async () => {
    const harness = setup()
    const { config } = harness
    await connected(harness)
    assert.equal(harness.fetches.length, 1, 'connect fetched the balance once')
    const balance = await fetchBalance(config)
    assert.equal(balance?.status, 'ready')
    assert.equal(balance?.value, TEN_THOUSAND_ETH)
    assert.equal(balance?.decimals, 18)
    assert.equal(balance?.symbol, 'ETH')
    assert.deepEqual(harness.fetches, [chain.url], 'the second call was served from the cache')

    harness.advance(29_000)
    await fetchBalance(config)
    assert.equal(harness.fetches.length, 1)
    harness.advance(1_000)
    const fresh = await fetchBalance(config)
    assert.equal(harness.fetches.length, 2, 'refetched after 30 s')
    assert.equal(fresh?.value, TEN_THOUSAND_ETH)
    await fetchBalance(config, { force: true })
    assert.equal(harness.fetches.length, 3, 'force skips the cache')
  })

  test('error: a failed balance blocks retries for 30 s and reports Token Balance Unavailable', async () => {
    const harness = setup({ rpcUrl: closedUrl })
    const { config, events } = harness
    await connected(harness)
    assert.deepEqual(harness.fetches, [closedUrl])
    const failed = await fetchBalance(config)
    assert.equal(failed?.status, 'error')
    assert.equal(failed?.value, undefined)
    assert.equal(harness.fetches.length, 1, 'no retry while blocked')
    assert.deepEqual(named(events, 'error'), [{ code: 5000, message: 'Token Balance Unavailable' }])

    harness.advance(29_000)
    await fetchBalance(config)
    assert.equal(harness.fetches.length, 1)
    harness.advance(1_000)
    assert.equal((await fetchBalance(config))?.status, 'error')
    assert.equal(harness.fetches.length, 2, 'retried once the 30 s were over')
    assert.equal(named(events, 'error').length, 2)
  })

  test('behavior: formatBalance and shortAddress', () => {
    assert.equal(formatBalance(TEN_THOUSAND_ETH, 18), '10,000.000')
    assert.equal(formatBalance(1_234_567_890_000_000_000n, 18), '1.234')
    assert.equal(formatBalance(999_999n, 6), '0.999')
    assert.equal(formatBalance(-1_500_000n, 6), '-1.500')
    assert.equal(formatBalance(1n, 18, { places: 5 }), '0.00000')
    assert.equal(formatBalance(10n ** 22n, 18, { locale: 'de' }), '10.000,000')
    // Every digit survives, however large (French groups with a narrow no-break space).
    assert.equal(
      formatBalance(123_456_789_012_345_678_901_234_567n, 2, { locale: 'fr' }),
      '1\u202f234\u202f567\u202f890\u202f123\u202f456\u202f789\u202f012\u202f345,670',
    )
    assert.equal(shortAddress(ALICE), '0xf39F…2266')
    assert.equal(shortAddress('0x1234'), '0x1234')
  })

  test('error: a rejected connection leaves disconnected, $connecting rejected 4001, and emits error', async () => {
    const harness = setup({ autoApprove: false })
    const { config, events, wallet } = harness
    await open(config)
    await assert.rejects(connect(config, { connector: connector(config) }), {
      name: 'UserRejectedRequestError',
      code: 4001,
      shortMessage: 'User rejected the request.',
    })
    // Without a document the Demo Wallet queues nothing: an unapproved prompt is rejected at once.
    assert.equal(wallet.controls.pending(), 0)
    assert.equal(wallet.controls.reject(), false)
    assert.equal(config.$status.get(), 'disconnected')
    assert.equal(config.$account.get(), undefined)
    assert.deepEqual(config.$connecting.get(), {
      connectorId: DEMO_ID,
      status: 'rejected',
      error: {
        code: 4001,
        message: 'User rejected the request.',
        messageId: 'UserRejectedRequestError',
        messageValues: undefined,
        fields: [],
      },
    })
    assert.deepEqual(named(events, 'error'), [{ code: 4001, message: 'User rejected the request.' }])
    assert.deepEqual(named(events, 'connect'), [])
    assert.equal(config.$modal.get().open, true, 'the modal stays open on the error')
    assert.equal(harness.stored(StorageKey.connectionStatus), undefined)
  })

  test('behavior: a wallet-side account switch emits account-change', async () => {
    const harness = setup()
    const { config, events, wallet } = harness
    await connected(harness)
    wallet.controls.switchAccount(1)
    assert.deepEqual(named(events, 'account-change'), [
      { address: BOB, caipAddress: `eip155:31337:${BOB}`, namespace: 'eip155' },
    ])
    assert.equal(config.$account.get()?.address, BOB)
    wallet.controls.switchAccount(1)
    assert.equal(named(events, 'account-change').length, 1, 'the same account again is no change')
  })

  test('behavior: a wallet-side switch to an unlisted chain emits network-change with supported false', async () => {
    const harness = setup()
    const { config, events, wallet } = harness
    await connected(harness)
    wallet.controls.switchChain(1)
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: 'eip155:1', namespace: 'eip155', supported: false },
    ])
    assert.equal(config.$network.get()?.supported, false)
    assert.equal(config.$network.get()?.network, undefined)
    assert.equal(config.$status.get(), 'connected')
    assert.equal(harness.stored(StorageKey.lastChain), 'eip155:1')
    assert.equal(await fetchBalance(config), undefined, 'no balance on a network the site does not list')
    await open(config)
    assert.equal(config.$modal.get().router.view, 'UnsupportedChain')
  })

  test('behavior: switchNetwork to eip155:31338 makes the wallet add the chain and emits network-change', async () => {
    const harness = setup()
    const { config, events, wallet } = harness
    await connected(harness)
    harness.calls.length = 0
    await switchNetwork(config, { caipNetworkId: 'eip155:31338' })
    assert.deepEqual(harness.calls, [
      'wallet_switchEthereumChain 4902',
      'wallet_addEthereumChain ok',
      'eth_chainId ok',
    ])
    assert.equal(wallet.controls.chainId, 31338)
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: 'eip155:31338', namespace: 'eip155', supported: true },
    ])
    assert.equal(config.$network.get()?.caipNetworkId, 'eip155:31338')
    assert.equal(harness.stored(StorageKey.lastChain), 'eip155:31338')
    // The wallet now reads from the second chain, with the RPC URL it was given.
    assert.equal(await getProvider(config, 'eip155').request({ method: 'eth_chainId' }), '0x7a6a')
    const balance = await fetchBalance(config, { force: true })
    assert.equal(balance?.value, TEN_THOUSAND_ETH)
    assert.ok(harness.fetches.includes(chain2.url))

    harness.calls.length = 0
    await switchNetwork(config, { caipNetworkId: 'eip155:31337' })
    assert.deepEqual(harness.calls, ['wallet_switchEthereumChain ok'], 'a known chain is only switched to')
    assert.equal(named(events, 'network-change').length, 2)
  })

  test('behavior: connecting on an unlisted network keeps the modal open on UnsupportedChain until switched', async () => {
    const harness = setup({ chainId: 1 })
    const { config, events } = harness
    await open(config)
    await connect(config, { connector: connector(config) })
    assert.equal(named(events, 'connect')[0]?.chainId, 'eip155:1')
    assert.equal(config.$modal.get().open, true)
    assert.equal(config.$modal.get().router.view, 'UnsupportedChain')
    await switchNetwork(config, { caipNetworkId: 'eip155:31337' })
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: 'eip155:31337', namespace: 'eip155', supported: true },
    ])
    assert.equal(config.$modal.get().router.view, 'Account')
  })

  test('behavior: switchNetwork while disconnected selects the network for the next connection', async () => {
    const { config, events } = setup()
    await switchNetwork(config, { caipNetworkId: 'eip155:31338' })
    assert.equal(config.$network.get()?.caipNetworkId, 'eip155:31338')
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: 'eip155:31338', namespace: 'eip155', supported: true },
    ])
  })

  test('error: switchNetwork to an unlisted network rejects with Network Not Found', async () => {
    const harness = setup()
    const { config, events } = harness
    await connected(harness)
    harness.calls.length = 0
    await assert.rejects(switchNetwork(config, { caipNetworkId: 'eip155:10' }), {
      name: 'NetworkNotFoundError',
      shortMessage: 'Network Not Found',
    })
    assert.deepEqual(harness.calls, [], 'the wallet was not asked')
    assert.equal(config.$network.get()?.caipNetworkId, 'eip155:31337')
    assert.equal(named(events, 'error').at(-1)?.message, 'Network Not Found')
  })

  test('error: switchNetwork rejects with 4900 when the connected wallet is gone', async () => {
    const harness = setup()
    const { config, events } = harness
    await connected(harness)
    config.internal.connectorsExtra.set([])
    await assert.rejects(switchNetwork(config, { caipNetworkId: 'eip155:31338' }), {
      name: 'ProviderDisconnectedError',
      code: 4900,
    })
    assert.equal(config.$network.get()?.caipNetworkId, 'eip155:31337', 'no pretend switch')
    assert.deepEqual(named(events, 'network-change'), [])
    assert.equal(named(events, 'error').at(-1)?.code, 4900)
    assert.equal(harness.wallet.controls.chainId, 31337)
  })

  test('behavior: disconnect stores the explicit-disconnect flag and emits disconnect', async () => {
    const harness = setup()
    const { config, events, wallet } = harness
    await connected(harness)
    await open(config)
    await disconnect(config)
    assert.deepEqual(named(events, 'disconnect'), [{ namespace: 'eip155' }])
    assert.equal(harness.stored(StorageKey.disconnected), true)
    assert.equal(harness.stored(StorageKey.connectionStatus), 'disconnected')
    assert.deepEqual(harness.stored(StorageKey.connectedNamespaces), [])
    assert.deepEqual(harness.stored(StorageKey.connector), {})
    assert.equal(config.$status.get(), 'disconnected')
    assert.equal(config.$account.get(), undefined)
    assert.equal(config.$modal.get().open, false)
    assert.equal(wallet.controls.authorized, false, 'the wallet was asked to revoke the permission')
  })

  test('behavior: reconnect on a new config sharing storage and wallet restores connected without a prompt', async () => {
    const first = setup()
    await connected(first)
    first.wallet.controls.autoApprove(false)

    const second = setup({ wallet: first.wallet, items: first.items })
    const statuses: ConnectionStatus[] = []
    const stop = second.config.$status.listen((status) => statuses.push(status))
    await reconnect(second.config)
    stop()
    assert.deepEqual(statuses, ['reconnecting', 'connected'])
    assert.equal(second.config.$account.get()?.address, ALICE)
    assert.equal(second.config.$network.get()?.caipNetworkId, 'eip155:31337')
    assert.ok(!second.calls.includes('eth_requestAccounts ok'), 'no connect prompt')
    assert.deepEqual(second.calls.slice(0, 2), ['eth_accounts ok', 'eth_chainId ok'])
    assert.equal(first.wallet.controls.pending(), 0)
    assert.deepEqual(named(second.events, 'error'), [])
  })

  test('behavior: reconnect does nothing after an explicit disconnect', async () => {
    const first = setup()
    await connected(first)
    await disconnect(first.config)
    // The wallet would still allow it: only the stored flag stops the reconnect.
    await first.wallet.provider.request({ method: 'eth_requestAccounts' })
    first.items.set(STORAGE_PREFIX + StorageKey.connectionStatus, '"connected"')
    first.items.set(STORAGE_PREFIX + StorageKey.connector, JSON.stringify({ eip155: DEMO_ID }))

    const second = setup({ wallet: first.wallet, items: first.items })
    const statuses: ConnectionStatus[] = []
    const stop = second.config.$status.listen((status) => statuses.push(status))
    await reconnect(second.config)
    stop()
    assert.deepEqual(statuses, [])
    assert.equal(second.config.$status.get(), 'disconnected')
    assert.deepEqual(second.calls, [])
  })

  test('behavior: reconnect with a wallet that no longer knows the site ends disconnected', async () => {
    const first = setup()
    await connected(first)

    // A freshly installed wallet with the same id: it has never authorized the site.
    const second = setup({ autoApprove: false, items: first.items })
    const statuses: ConnectionStatus[] = []
    const stop = second.config.$status.listen((status) => statuses.push(status))
    await reconnect(second.config)
    stop()
    assert.deepEqual(statuses, ['reconnecting', 'disconnected'])
    assert.deepEqual(second.calls, ['eth_accounts ok'], 'no connect prompt')
    assert.equal(second.stored(StorageKey.connectionStatus), 'disconnected')
  })

  test('behavior: getProvider answers while connected and emits accountsChanged and chainChanged', async () => {
    const harness = setup()
    const { config, wallet } = harness
    const provider = getProvider(config, 'eip155')
    assert.equal(getProvider(config), provider, 'one provider per config and namespace')
    const seen: unknown[] = []
    provider.on?.('connect', ((info: unknown) => seen.push(['connect', info])) as never)
    provider.on?.('accountsChanged', ((accounts: unknown) =>
      seen.push(['accountsChanged', accounts])) as never)
    provider.on?.('chainChanged', ((chainId: unknown) => seen.push(['chainChanged', chainId])) as never)
    await connected(harness)
    assert.equal(await provider.request({ method: 'eth_chainId' }), '0x7a69')
    assert.deepEqual(await provider.request({ method: 'eth_accounts' }), [ALICE])
    wallet.controls.switchAccount(1)
    wallet.controls.switchChain(1)
    assert.deepEqual(seen, [
      ['connect', { chainId: 'eip155:31337' }],
      ['accountsChanged', [ALICE]],
      ['chainChanged', '0x7a69'],
      ['accountsChanged', [BOB]],
      ['chainChanged', '0x1'],
    ])
  })

  test('behavior: getProvider passes EIP-5792 through to the Demo Wallet, which sends calls one after another', async () => {
    const harness = setup()
    await connected(harness)
    const provider = getProvider(harness.config, 'eip155')
    const client = createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })
    const carol = devAccount(2).address
    assert.deepEqual(
      await provider.request({ method: 'wallet_getCapabilities', params: [ALICE, ['0x7a69']] }),
      {
        '0x7a69': { atomic: { status: 'unsupported' } },
      },
    )
    const before = await client.getBalance({ address: carol })
    const { id } = (await provider.request({
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          chainId: '0x7a69',
          from: ALICE,
          atomicRequired: false,
          calls: [
            { to: carol, value: '0x64' },
            { to: carol, value: '0xc8' },
          ],
        },
      ],
    })) as { id: string }
    const status = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] })) as {
      id: string
      status: number
      atomic: boolean
      receipts: { status: string; transactionHash: string }[]
    }
    assert.equal(status.id, id)
    assert.equal(status.status, 200)
    assert.equal(status.atomic, false)
    assert.equal(status.receipts.length, 2)
    assert.notEqual(
      status.receipts[0]?.transactionHash,
      status.receipts[1]?.transactionHash,
      'two transactions',
    )
    assert.equal((await client.getBalance({ address: carol })) - before, 300n)
  })

  test('error: the Demo Wallet refuses atomic batches (5760), other chains (5710) and unknown ids (5730)', async () => {
    const harness = setup()
    await connected(harness)
    const provider = getProvider(harness.config, 'eip155')
    const calls = [{ to: devAccount(2).address, value: '0x1' }]
    await assert.rejects(
      provider.request({
        method: 'wallet_sendCalls',
        params: [{ version: '2.0.0', atomicRequired: true, calls }],
      }),
      { code: 5760, message: 'The Demo Wallet sends calls one after another, not atomically.' },
    )
    await assert.rejects(
      provider.request({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x1', calls }] }),
      { code: 5710 },
    )
    await assert.rejects(
      provider.request({ method: 'wallet_getCallsStatus', params: [`0x${'00'.repeat(32)}`] }),
      {
        code: 5730,
        message: 'Unknown bundle id.',
      },
    )
  })

  test('error: getProvider rejects with 4900 while disconnected', async () => {
    const harness = setup()
    const provider = getProvider(harness.config, 'eip155')
    await assert.rejects(provider.request({ method: 'eth_chainId' }), {
      name: 'ProviderDisconnectedError',
      code: 4900,
    })
    await connected(harness)
    const disconnects: unknown[] = []
    provider.on?.('disconnect', ((error: unknown) => disconnects.push(error)) as never)
    await disconnect(harness.config)
    await assert.rejects(provider.request({ method: 'eth_chainId' }), { code: 4900 })
    await until(() => disconnects.length === 1, 'the provider disconnect event')
    assert.equal((disconnects[0] as { code?: number }).code, 4900)
  })

  test('behavior: close is blocked when a request-close listener returns false, and shakes for 500 ms', async () => {
    const { config, events } = setup({ register: false })
    await open(config)
    const stop = config.events.on('request-close', () => false)
    assert.equal(await close(config), false)
    assert.equal(config.$modal.get().open, true)
    assert.equal(config.$modal.get().shake, true)
    assert.deepEqual(named(events, 'request-close'), [{ view: 'Connect' }])
    assert.deepEqual(named(events, 'close'), [])
    await sleep(450)
    assert.equal(config.$modal.get().shake, true)
    await sleep(100)
    assert.equal(config.$modal.get().shake, false)

    stop()
    assert.equal(await close(config), true)
    assert.equal(config.$modal.get().open, false)
    assert.deepEqual(named(events, 'close'), [{}])
  })

  test('behavior: close is blocked on the sign-in view while sign-in is required', async () => {
    const { config, events } = setup({ register: false })
    config.update({ siwx: 'required' })
    await open(config, { view: 'SIWXSignMessage' })
    assert.equal(await close(config), false)
    assert.equal(config.$modal.get().shake, true)
    assert.deepEqual(named(events, 'request-close'), [], 'the page is not asked')
    assert.equal(await close(config, { force: true }), true)
  })
})
