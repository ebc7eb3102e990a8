// The core actions on Solana end to end in node, against real parts: the local Solana network
// (litesvm behind JSON-RPC) and a local EVM chain on loopback, the Demo Wallet's Solana side (a Wallet
// Standard wallet whose prompts a fake `ask` answers and counts) and, for the merged wallet, its EVM side.
// The config's `rpcUrls` point straight at the local networks; the companion service is involved only
// where a test starts one (prices).
//
// Tests share one ledger, so each sender is picked so that no test depends on another's transfers:
// dev key 0 (the TEST token holder) only sends in the token test, after the balance test has read it;
// dev key 1 only receives; dev key 2 sends SOL; dev key 3 receives the token.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { getAssociatedTokenAddressSync } from '@solana/spl-token'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import {
  createDemoWallet,
  type DemoWalletProvider,
  type ProviderListener,
  type RequestArguments,
} from '../../../demo/wallets/demo-wallet.ts'
import type { PromptQueue, PromptRequest } from '../../../demo/wallets/prompt.ts'
import { createSolanaWallet } from '../../../demo/wallets/solana-wallet.ts'
import { buildApp } from '../../../server/app.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { devKeypair, type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import { createInjectedConnector } from '../../../src/connectors/injected/index.ts'
import type { Connector, Eip1193Provider } from '../../../src/connectors/types.ts'
import {
  createWalletStandardConnector,
  mergeConnectors,
} from '../../../src/connectors/walletStandard/index.ts'
import { connect } from '../../../src/core/actions/connect.ts'
import { disconnect } from '../../../src/core/actions/disconnect.ts'
import { fetchBalance } from '../../../src/core/actions/fetchBalance.ts'
import { getProvider } from '../../../src/core/actions/getProvider.ts'
import { loadSwap } from '../../../src/core/actions/loadSwap.ts'
import { open } from '../../../src/core/actions/open.ts'
import { reconnect } from '../../../src/core/actions/reconnect.ts'
import { NATIVE_TOKEN, sendToken } from '../../../src/core/actions/sendToken.ts'
import { switchNetwork } from '../../../src/core/actions/switchNetwork.ts'
import { balanceKey } from '../../../src/core/balanceKey.ts'
import type { Config } from '../../../src/core/createConfig.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { WalletEventMap, WalletEventName } from '../../../src/core/events/types.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { STORAGE_PREFIX, StorageKey } from '../../../src/protocol/storage.ts'
import { freePort } from '../../support/net.ts'
import { openTestDatabase, testLogger } from '../server/helpers.ts'

const ORIGIN = 'http://127.0.0.1'
const LOCAL = LOCAL_SOLANA_NETWORK_ID
const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const STANDARD_ID = 'walletStandard:Demo Wallet'
const DEMO_ID = 'dev.wallet-elements.demo'
const ALICE = devAccount(0).address
const TEST_MINT = '3NgR9cyptmChF72pCdDbrajWsehczWmp6iEbBnnFkHPU'
const KEY = [0, 1, 2, 3].map((index) => devKeypair(index).publicKey.toBase58())
const key = (index: number) => KEY[index] ?? ''
const LAMPORTS_PER_SOL = 10n ** 9n
const EVENT_NAMES: WalletEventName[] = ['connect', 'disconnect', 'account-change', 'network-change', 'error']

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

let solana: LocalSolana
let chain: LocalChain

/** JSON-RPC straight to the local Solana network, to check what landed. */
async function rpc(method: string, params: readonly unknown[]): Promise<unknown> {
  const response = await fetch(solana.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as { result?: unknown; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result
}

const lamports = async (address: string) =>
  BigInt(((await rpc('getBalance', [address, { commitment: 'confirmed' }])) as { value: number }).value)

async function confirmed(signature: string): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const { value } = (await rpc('getSignatureStatuses', [
      [signature],
      { searchTransactionHistory: true },
    ])) as {
      value: ({ confirmationStatus?: string; err: unknown } | null)[]
    }
    const status = value[0]
    if (status && status.confirmationStatus !== 'processed') {
      assert.equal(status.err, null, 'the transaction succeeded')
      return
    }
    if (Date.now() > deadline) throw new Error(`${signature} not confirmed`)
    await sleep(50)
  }
}

/** The Demo Wallet's EVM provider in the connectors' EIP-1193 shape (its listener type is wider). */
const eip1193 = (provider: DemoWalletProvider): Eip1193Provider => ({
  request: (args) => provider.request(args as RequestArguments),
  on: (event, listener) => provider.on(event, listener as ProviderListener),
  removeListener: (event, listener) => provider.removeListener(event, listener as ProviderListener),
})

type Recorded = { [K in WalletEventName]: [K, WalletEventMap[K]] }[WalletEventName]

const named = <K extends WalletEventName>(events: Recorded[], name: K): WalletEventMap[K][] =>
  events.filter((event) => event[0] === name).map(([, detail]) => detail as WalletEventMap[K])

/** Prompts of both sides of the Demo Wallet, recorded and answered by `answer` (approve by default). */
function promptQueue(answer: (request: PromptRequest) => boolean = () => true) {
  const asked: PromptRequest[] = []
  const queue: PromptQueue = {
    ask: async (request) => {
      asked.push(request)
      return answer(request)
    },
    pending: () => 0,
    answer: () => false,
    setAutoApprove: () => {},
    autoApprove: false,
  }
  return { queue, asked }
}

interface SetupParameters {
  /** Dev key of the Solana wallet (default 0). */
  accountIndex?: number
  /** Also register the Demo Wallet's EVM side, merged with the Solana side into one connector. */
  merged?: boolean
  /** Extra networks after eip155:31337 and the local Solana network. */
  networks?: readonly string[]
  answer?: (request: PromptRequest) => boolean
  /** Share a Solana wallet (and its authorization) with an earlier harness. */
  wallet?: ReturnType<typeof createSolanaWallet>
  /** Share a storage backend with an earlier harness. */
  items?: Map<string, string>
  /** A companion service (its data API: prices, swaps) for the dev project. */
  apiUrl?: string
}

function setup(parameters: SetupParameters = {}) {
  const items = parameters.items ?? new Map<string, string>()
  const events: Recorded[] = []
  const platform: Platform = {
    window: undefined,
    storage: {
      getItem: (name) => items.get(name) ?? null,
      setItem: (name, value) => void items.set(name, value),
      removeItem: (name) => void items.delete(name),
    },
    fetch: (input, init) => fetch(input, init),
    now: () => Date.now(),
    isMobile: () => false,
    prefersDark: () => false,
  }
  const extra = parameters.networks ?? []
  const { queue, asked } = promptQueue(parameters.answer)
  const wallet =
    parameters.wallet ??
    createSolanaWallet({
      origin: ORIGIN,
      accountIndex: parameters.accountIndex ?? 0,
      localRpcUrl: solana.url,
      ask: queue.ask,
    })
  const standard = createWalletStandardConnector({ wallet: wallet.wallet })
  const evm = createDemoWallet({ origin: ORIGIN, localRpcUrl: chain.url, prompts: queue })
  const connectors: Connector[] = parameters.merged
    ? mergeConnectors(
        [createInjectedConnector({ id: DEMO_ID, name: 'Demo Wallet', provider: eip1193(evm.provider) })],
        [standard],
      )
    : [standard]
  const config = createConfig(
    {
      networks: ['eip155:31337', LOCAL, ...extra].join(','),
      rpcUrls: {
        'eip155:31337': chain.url,
        [LOCAL]: solana.url,
        // Any other Solana network reads from the local one too: nothing leaves loopback.
        ...Object.fromEntries(extra.map((id) => [id, solana.url])),
      },
      ...(parameters.apiUrl ? { apiUrl: parameters.apiUrl, projectId: 'dev-project' } : {}),
      connectors,
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
  const connector = connectors[0]
  assert.ok(connector)
  return { config, connector, wallet, evm, asked, events, items }
}

type Harness = ReturnType<typeof setup>

/** Waits until the balance a connection fetches in the background has settled. */
async function balanceSettled(config: Config): Promise<void> {
  await until(() => {
    const account = config.$account.get()
    const network = config.$network.get()
    if (!account || !network) return false
    const balance = config.$balances.get()[balanceKey(network.caipNetworkId, account.address)]
    return balance !== undefined && balance.status !== 'loading'
  }, 'the balance')
}

/** Connects through core `connect` and waits for the first balance. */
async function connected(harness: Harness): Promise<void> {
  await connect(harness.config, { connector: harness.connector })
  await balanceSettled(harness.config)
}

describe('core actions on Solana against the local network and the Demo Wallet', { timeout: 120_000 }, () => {
  before(async () => {
    const port = await freePort()
    ;[solana, chain] = await Promise.all([startSolana({ port: 0 }), startChain({ port, chainId: 31337 })])
  })
  after(async () => {
    await Promise.all([solana?.stop(), chain?.stop()])
  })

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

  test('behavior: getProvider signMessage returns 64 bytes that verify', async () => {
    const harness = setup({ accountIndex: 2 })
    await connected(harness)
    const provider = getProvider(harness.config, 'solana')
    assert.equal(provider.address, key(2))
    const message = new TextEncoder().encode('hello from wallet-elements')
    const signature = await provider.signMessage(message)
    assert.ok(signature instanceof Uint8Array)
    assert.equal(signature.length, 64)
    assert.equal(ed25519.verify(signature, message, devKeypair(2).publicKey.toBytes()), true)
  })

  test('behavior: sendTransaction fills fee payer and blockhash of a web3.js Transaction, and it lands', async () => {
    const harness = setup({ accountIndex: 2 })
    await connected(harness)
    const receiver = Keypair.generate().publicKey
    const transaction = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: new PublicKey(key(2)), toPubkey: receiver, lamports: 10_000_000 }),
    )
    assert.equal(transaction.recentBlockhash, undefined)
    assert.equal(transaction.feePayer, undefined)
    const signature = await getProvider(harness.config, 'solana').sendTransaction(transaction)
    await confirmed(signature)
    assert.equal(await lamports(receiver.toBase58()), 10_000_000n)
  })

  test('behavior: signTransaction of a web3.js Transaction returns a Transaction with a valid signature', async () => {
    const harness = setup({ accountIndex: 2 })
    await connected(harness)
    const transaction = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(key(2)),
        toPubkey: new PublicKey(key(1)),
        lamports: 1_000,
      }),
    )
    const before = await lamports(key(1))
    const signed = await getProvider(harness.config, 'solana').signTransaction(transaction)
    assert.ok(signed instanceof Transaction)
    assert.equal(signed.feePayer?.toBase58(), key(2))
    assert.equal(typeof signed.recentBlockhash, 'string')
    assert.equal(signed.signatures.length, 1)
    assert.equal(signed.verifySignatures(), true)
    assert.equal(await lamports(key(1)), before, 'signing sent nothing')
  })

  test('error: getProvider rejects with 4900 while disconnected', async () => {
    const harness = setup({ accountIndex: 2 })
    const provider = getProvider(harness.config, 'solana')
    assert.equal(provider.address, undefined)
    const disconnected = { name: 'ProviderDisconnectedError', code: 4900 }
    await assert.rejects(provider.signMessage(new Uint8Array([1])), disconnected)
    await assert.rejects(
      provider.request({ method: 'solana_signMessage', params: { message: '2' } }),
      disconnected,
    )
    await assert.rejects(provider.signTransaction(new Transaction()), disconnected)
    assert.equal(harness.asked.length, 0)

    await connected(harness)
    await disconnect(harness.config)
    assert.equal(provider.address, undefined)
    await assert.rejects(provider.signMessage(new Uint8Array([1])), disconnected)
    assert.equal(harness.wallet.controls.authorized, false, 'the wallet forgot the site')
  })

  test('behavior: a wallet-side account switch and disconnect reach $account and the events', async () => {
    const harness = setup({ accountIndex: 2 })
    const { config, events, wallet } = harness
    await connected(harness)
    wallet.controls.switchAccount(3)
    assert.equal(config.$account.get()?.address, key(3))
    assert.deepEqual(named(events, 'account-change'), [
      { address: key(3), caipAddress: `${LOCAL}:${key(3)}`, namespace: 'solana' },
    ])
    wallet.controls.disconnect()
    assert.equal(config.$account.get(), undefined)
    assert.deepEqual(named(events, 'disconnect'), [{ namespace: 'solana' }])
  })

  test('behavior: reconnect on a new config restores the Solana connection without a prompt', async () => {
    const first = setup({ accountIndex: 2 })
    await connected(first)
    const second = setup({ wallet: first.wallet, items: first.items })
    await reconnect(second.config)
    assert.equal(second.config.$status.get(), 'connected')
    assert.equal(second.config.$account.get()?.address, key(2))
    assert.equal(second.config.$network.get()?.caipNetworkId, LOCAL)
    assert.equal(first.asked.length, 1, 'only the first connect prompted')
    assert.deepEqual(JSON.parse(second.items.get(STORAGE_PREFIX + StorageKey.connector) ?? 'null'), {
      solana: STANDARD_ID,
    })
    await balanceSettled(second.config)
  })

  test('behavior: one merged wallet connects Solana on switchNetwork and switches back without a prompt', async () => {
    const harness = setup({ merged: true })
    const { config, events, asked } = harness
    assert.deepEqual(harness.connector.namespaces, ['eip155', 'solana'])
    await connected(harness)
    assert.equal(config.$account.get()?.address, ALICE)
    assert.equal(asked.length, 1)

    await open(config, { view: 'Networks' })
    await switchNetwork(config, { caipNetworkId: LOCAL })
    assert.equal(config.$activeNamespace.get(), 'solana')
    assert.deepEqual(config.$connections.get().solana, {
      status: 'connected',
      connectorId: DEMO_ID,
      accounts: [key(0)],
      chainId: LOCAL,
    })
    assert.equal(config.$connections.get().eip155?.status, 'connected', 'EVM stays connected')
    assert.equal(config.$account.get()?.address, key(0))
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: LOCAL, namespace: 'solana', supported: true },
    ])
    assert.equal(named(events, 'connect').at(-1)?.connector.id, DEMO_ID)
    assert.deepEqual(
      asked.map((prompt) => prompt.title),
      [`Connect to ${ORIGIN}`, `Connect to ${ORIGIN}`],
      'one prompt on each side',
    )
    assert.equal(config.$modal.get().open, true, 'the network switch kept the modal open')
    await balanceSettled(config)

    await switchNetwork(config, { caipNetworkId: 'eip155:31337' })
    assert.equal(config.$activeNamespace.get(), 'eip155')
    assert.equal(config.$account.get()?.address, ALICE)
    assert.deepEqual(named(events, 'network-change').at(-1), {
      chainId: 'eip155:31337',
      namespace: 'eip155',
      supported: true,
    })
    await switchNetwork(config, { caipNetworkId: LOCAL })
    assert.equal(config.$activeNamespace.get(), 'solana')
    assert.equal(asked.length, 2, 'switching between connected namespaces asks nothing')
    await balanceSettled(config)
  })

  test('behavior: switchNetwork to a second Solana network connects the merged wallet on that network', async () => {
    const harness = setup({ merged: true, networks: [DEVNET] })
    const { config, events } = harness
    await connected(harness)
    await switchNetwork(config, { caipNetworkId: DEVNET })
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: DEVNET, namespace: 'solana', supported: true },
    ])
    assert.equal(config.$connections.get().solana?.chainId, DEVNET)
    assert.equal(config.$network.get()?.caipNetworkId, DEVNET, 'the page shows the network it was told')
    await balanceSettled(config)
  })

  test('behavior: a wallet-side change in the inactive namespace is reported for that namespace', async () => {
    const harness = setup({ merged: true })
    const { config, events, wallet } = harness
    await connected(harness)
    await switchNetwork(config, { caipNetworkId: LOCAL })
    await switchNetwork(config, { caipNetworkId: 'eip155:31337' })
    await balanceSettled(config)
    wallet.controls.switchAccount(1)
    assert.deepEqual(config.$connections.get().solana?.accounts, [key(1)])
    assert.equal(config.$account.get()?.address, ALICE, 'the EVM account is still the one shown')
    assert.deepEqual(named(events, 'account-change'), [
      { address: key(1), caipAddress: `${LOCAL}:${key(1)}`, namespace: 'solana' },
    ])
  })
})
