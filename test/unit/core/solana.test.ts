// The core actions on Solana end to end in node, against real parts: the local Solana network
// (litesvm behind JSON-RPC) and a local EVM chain on loopback, the Demo Wallet's Solana side (a Wallet
// Standard wallet whose prompts a fake `ask` answers and counts) and, for the merged wallet, its EVM side.
// The config's `rpcUrls` point straight at the local networks; the companion service is involved only
// where a test starts one (prices). Connecting, balances and sending here; the provider, reconnecting
// and the merged wallet in solana-provider.test.ts.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, test } from 'node:test'
import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import { PublicKey } from '@solana/web3.js'
import { buildApp } from '../../../server/app.ts'
import { connect } from '../../../src/core/actions/connect.ts'
import { fetchBalance } from '../../../src/core/actions/fetchBalance.ts'
import { loadSwap } from '../../../src/core/actions/loadSwap.ts'
import { NATIVE_TOKEN, sendToken } from '../../../src/core/actions/sendToken.ts'
import { balanceKey } from '../../../src/core/balanceKey.ts'
import { openTestDatabase, testLogger } from '../server/helpers.ts'
import {
  ALICE,
  balanceSettled,
  confirmed,
  connected,
  key,
  LAMPORTS_PER_SOL,
  LOCAL,
  lamports,
  named,
  ORIGIN,
  rpc,
  STANDARD_ID,
  setup,
  solana,
  TEST_MINT,
  useLocalNetworks,
} from './solana-helpers.ts'

describe('core actions on Solana against the local network and the Demo Wallet: connect, balances and sending', {
  timeout: 120_000,
}, () => {
  useLocalNetworks()

  test('default: connect on the local Solana network sets a base58 $account with namespace solana', async () => {
    const harness = setup()
    const { config, events, asked } = harness
    const state = await connect(config, { connector: harness.connector })
    assert.deepEqual(state, { namespace: 'solana', accounts: [key(0)], chainId: LOCAL })
    assert.deepEqual(config.$account.get(), {
      namespace: 'solana',
      address: key(0),
      caipAddress: `${LOCAL}:${key(0)}`,
      type: 'eoa',
      connectorId: STANDARD_ID,
    })
    assert.equal(config.$activeNamespace.get(), 'solana')
    assert.equal(config.$status.get(), 'connected')
    assert.equal(config.$network.get()?.caipNetworkId, LOCAL)
    assert.equal(config.$network.get()?.network?.name, 'Local Solana')
    assert.deepEqual(named(events, 'connect'), [
      {
        address: key(0),
        caipAddress: `${LOCAL}:${key(0)}`,
        chainId: LOCAL,
        namespace: 'solana',
        connector: { id: STANDARD_ID, name: 'Demo Wallet', type: 'walletStandard' },
      },
    ])
    assert.deepEqual(
      asked.map((prompt) => prompt.title),
      [`Connect to ${ORIGIN}`],
    )
    await balanceSettled(config)
  })

  test('behavior: fetchBalance reads 1000 SOL and the TEST token', async () => {
    const harness = setup()
    await connected(harness)
    const balance = await fetchBalance(harness.config, { force: true })
    assert.equal(balance?.status, 'ready')
    assert.equal(balance?.value, 1000n * LAMPORTS_PER_SOL)
    assert.equal(balance?.symbol, 'SOL')
    assert.equal(balance?.decimals, 9)
    // No companion service here: no prices, and none made up.
    assert.equal(balance?.nativePrice, null)
    assert.deepEqual(balance?.tokens, [
      {
        address: TEST_MINT,
        symbol: 'TEST',
        name: 'Test Token',
        decimals: 6,
        amount: 1_000_000n * 10n ** 6n,
        price: null,
      },
    ])
    assert.deepEqual(harness.config.$balances.get()[balanceKey(LOCAL, key(0))], balance)
  })

  test('behavior: with a companion service, SOL and SPL prices come from its price source; swaps are not supported', async () => {
    // The operator's price source, standing in for a real one: USD prices by address.
    const asked: string[] = []
    const prices = createServer((request, response) => {
      const addresses = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('addresses') ?? ''
      asked.push(addresses)
      const known: Record<string, number> = { native: 150.25, [TEST_MINT]: 0.5 }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ prices: Object.fromEntries(addresses.split(',').map((a) => [a, known[a]])) }))
    })
    await new Promise<void>((resolve) => prices.listen(0, '127.0.0.1', resolve))
    const testDb = await openTestDatabase('core_solana_prices')
    const app = await buildApp(
      testDb.config({
        rpcUpstreams: { [LOCAL]: solana.url },
        priceSourceUrl: `http://127.0.0.1:${(prices.address() as AddressInfo).port}/usd`,
      }),
      { database: testDb.database, logger: testLogger },
    )
    try {
      await app.listen({ host: '127.0.0.1', port: 0 })
      const harness = setup({ apiUrl: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` })
      await connected(harness)
      const balance = await fetchBalance(harness.config, { force: true })
      assert.equal(balance?.status, 'ready')
      assert.equal(balance?.nativePrice, 150.25)
      assert.deepEqual(
        balance?.tokens.map((token) => [token.symbol, token.price]),
        [['TEST', 0.5]],
      )
      assert.deepEqual(asked, [`${TEST_MINT},native`])

      // No Solana swap source: the SPEC message, and the service is not asked for a quote.
      const swap = await loadSwap(harness.config)
      assert.equal(swap.status, 'unsupported')
      assert.equal(swap.error?.message, 'Network not supported for Swaps')
      assert.deepEqual(swap.tokens, [])
    } finally {
      await app.close()
      await testDb.close()
      prices.close()
    }
  })

  test('behavior: sendToken of 0.5 SOL moves exactly 500000000 lamports', async () => {
    const harness = setup({ accountIndex: 2 })
    const { config, asked } = harness
    await connected(harness)
    const before = await lamports(key(1))
    const signature = await sendToken(config, { token: NATIVE_TOKEN, amount: '0.5', receiver: key(1) })
    assert.match(signature, /^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    assert.equal((await lamports(key(1))) - before, 500_000_000n)
    assert.deepEqual(config.$send.get(), {
      status: 'sent',
      error: undefined,
      hash: signature,
      form: { token: 'native', amount: '', receiver: '' },
      sent: { amount: '0.5', symbol: 'SOL', receiver: key(1) },
    })
    const prompt = asked.at(-1)
    assert.equal(prompt?.title, 'Sign a transaction on Local Solana')
    assert.ok(prompt?.details?.includes(`Send 0.5 SOL to ${key(1)}`), String(prompt?.details))
  })

  test('error: sendToken validation rejects with the exact message and sends nothing', async () => {
    const harness = setup({ accountIndex: 2 })
    const { config, asked, events } = harness
    await connected(harness)
    const prompts = asked.length
    const before = await lamports(key(2))
    const cases: [Parameters<typeof sendToken>[1], string][] = [
      [{ token: NATIVE_TOKEN, amount: '', receiver: key(1) }, 'An amount and receiver address are required'],
      [{ token: NATIVE_TOKEN, amount: '1', receiver: '  ' }, 'An amount and receiver address are required'],
      [{ token: undefined, amount: '1', receiver: key(1) }, 'A token is required'],
      [{ token: key(3), amount: '1', receiver: key(1) }, 'A token is required'],
      [{ token: NATIVE_TOKEN, amount: 'abc', receiver: key(1) }, 'Invalid amount'],
      [{ token: NATIVE_TOKEN, amount: '0', receiver: key(1) }, 'Invalid amount'],
      [{ token: NATIVE_TOKEN, amount: '0.0000000001', receiver: key(1) }, 'Invalid amount'],
      [{ token: NATIVE_TOKEN, amount: '1000.5', receiver: key(1) }, 'Insufficient balance'],
      [{ token: NATIVE_TOKEN, amount: '1', receiver: 'not-an-address' }, 'Invalid Solana address'],
      [{ token: NATIVE_TOKEN, amount: '1', receiver: ALICE }, 'Invalid Solana address'],
    ]
    for (const [input, message] of cases) {
      await assert.rejects(sendToken(config, input), { name: 'ValidationError', shortMessage: message })
      assert.equal(config.$send.get().status, 'error')
      assert.equal(config.$send.get().error?.message, message)
    }
    assert.equal(asked.length, prompts, 'the wallet was not asked')
    assert.equal(await lamports(key(2)), before, 'nothing was sent')
    assert.deepEqual(named(events, 'error'), [], 'validation errors are shown in the form, not reported')
  })

  test('behavior: sendToken of 10 TEST creates the receiver’s token account', async () => {
    const harness = setup({ accountIndex: 0 })
    const { config } = harness
    await connected(harness)
    const receiverAta = getAssociatedTokenAddressSync(
      new PublicKey(TEST_MINT),
      new PublicKey(key(3)),
    ).toBase58()
    const missing = (await rpc('getAccountInfo', [receiverAta, { encoding: 'base64' }])) as { value: unknown }
    assert.equal(missing.value, null, 'dev key 3 has no TEST account yet')

    const signature = await sendToken(config, { token: TEST_MINT, amount: '10', receiver: key(3) })
    await confirmed(signature)
    const received = (await rpc('getTokenAccountBalance', [receiverAta])) as {
      value: { amount: string; decimals: number }
    }
    assert.deepEqual(
      { amount: received.value.amount, decimals: received.value.decimals },
      { amount: '10000000', decimals: 6 },
    )
    const balance = await fetchBalance(config, { force: true })
    assert.equal(balance?.tokens[0]?.amount, 1_000_000n * 10n ** 6n - 10_000_000n)
  })
})
