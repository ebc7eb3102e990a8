// The core actions end to end in node (see actions.test.ts): disconnect, reconnect, the connected
// provider (EIP-1193 and EIP-5792 through the Demo Wallet) and closing the modal.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createPublicClient, http } from 'viem'
import { devAccount } from '../../../server/dev/chain/index.ts'
import { close } from '../../../src/core/actions/close.ts'
import { disconnect } from '../../../src/core/actions/disconnect.ts'
import { getProvider } from '../../../src/core/actions/getProvider.ts'
import { open } from '../../../src/core/actions/open.ts'
import { reconnect } from '../../../src/core/actions/reconnect.ts'
import type { ConnectionStatus } from '../../../src/core/connection/machine.ts'
import { STORAGE_PREFIX, StorageKey } from '../../../src/protocol/storage.ts'
import {
  ALICE,
  BOB,
  chain,
  connected,
  DEMO_ID,
  named,
  setup,
  sleep,
  until,
  useLocalChains,
} from './actions-helpers.ts'

describe('core actions against a local chain and the Demo Wallet: disconnect, reconnect, provider and close', {
  timeout: 60_000,
}, () => {
  useLocalChains()

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
