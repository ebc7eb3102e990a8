// The core actions end to end in node, against real parts: two Hardhat chains on loopback and the
// Demo Wallet (no document, so prompts are answered by autoApprove) behind the injected connector.
// Opening, connecting, balances and networks here; disconnect, reconnect, the provider and close in
// actions-session.test.ts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { connect } from '../../../src/core/actions/connect.ts'
import { fetchBalance } from '../../../src/core/actions/fetchBalance.ts'
import { getProvider } from '../../../src/core/actions/getProvider.ts'
import { open } from '../../../src/core/actions/open.ts'
import { switchNetwork } from '../../../src/core/actions/switchNetwork.ts'
import { STORAGE_PREFIX, StorageKey } from '../../../src/protocol/storage.ts'
import { formatBalance, shortAddress } from '../../../src/shared/format.ts'
import {
  ALICE,
  BOB,
  chain,
  chain2,
  closedUrl,
  connected,
  connector,
  DEMO_ID,
  named,
  setup,
  TEN_THOUSAND_ETH,
  until,
  useLocalChains,
} from './actions-helpers.ts'

describe('core actions against a local chain and the Demo Wallet: open, connect, balances and networks', {
  timeout: 60_000,
}, () => {
  useLocalChains()

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
    // The view follows the network (core/follow/view.ts, loaded with the first connection attempt:
    // a switch that quick can come before it, and it then starts from what it finds).
    await until(() => config.$modal.get().router.view === 'Account', 'the Account view')
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
})
