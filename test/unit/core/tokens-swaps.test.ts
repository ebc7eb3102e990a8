// Token balances with prices, ERC-20 sends and swaps, end to end in node against real parts: the local
// market on a Hardhat chain, the companion service (its data API and RPC proxy) on loopback, and the
// Demo Wallet behind the injected connector.
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { createPublicClient, erc20Abi, http, parseEther, parseUnits } from 'viem'
import {
  createDemoWallet,
  type ProviderListener,
  type RequestArguments,
} from '../../../demo/wallets/demo-wallet.ts'
import { buildApp } from '../../../server/app.ts'
import { parseTokenLists } from '../../../server/blockchain/tokenLists.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  DEV_ACCOUNT_TOKENS,
  deployMarket,
  type LocalMarket,
  marketTokenList,
} from '../../../server/dev/chain/market.ts'
import { createInjectedConnector } from '../../../src/connectors/injected/index.ts'
import type { Eip1193Provider } from '../../../src/connectors/types.ts'
import { connect } from '../../../src/core/actions/connect.ts'
import { fetchBalance } from '../../../src/core/actions/fetchBalance.ts'
import { loadSwap } from '../../../src/core/actions/loadSwap.ts'
import { maxSendAmount } from '../../../src/core/actions/maxSendAmount.ts'
import { quoteSwap } from '../../../src/core/actions/quoteSwap.ts'
import { NATIVE_TOKEN, sendToken } from '../../../src/core/actions/sendToken.ts'
import { swapTokens } from '../../../src/core/actions/swapTokens.ts'
import { balanceKey } from '../../../src/core/balanceKey.ts'
import { type Config, createConfig } from '../../../src/core/createConfig.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { usdValue } from '../../../src/core/usd.ts'
import { blockchainApi } from '../../../src/services/blockchain.ts'
import { createHttpClient } from '../../../src/services/http.ts'
import { freePort, openTestDatabase, type TestDatabase, testLogger } from '../server/helpers.ts'

const PROJECT = 'dev-project'
let chain: LocalChain
let chain2: LocalChain
let market: LocalMarket
let testDb: TestDatabase
let app: FastifyInstance
let apiUrl: string

before(
  async () => {
    ;[chain, chain2] = await Promise.all([
      startChain({ port: await freePort(), chainId: 31337 }),
      startChain({ port: await freePort(), chainId: 31338 }),
    ])
    market = await deployMarket({ url: chain.url, chainId: 31337 })
    testDb = await openTestDatabase('core_tokens_swaps')
    app = await buildApp(
      testDb.config({
        rpcUpstreams: { 'eip155:31337': chain.url, 'eip155:31338': chain2.url },
        tokenLists: parseTokenLists({ networks: { 'eip155:31337': marketTokenList(market) } }),
      }),
      { database: testDb.database, logger: testLogger },
    )
    await app.listen({ host: '127.0.0.1', port: 0 })
    apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  },
  { timeout: 90_000 },
)

after(async () => {
  await app?.close()
  await testDb?.close()
  await Promise.all([chain?.stop(), chain2?.stop()])
})

interface Harness {
  config: Config
  wallet: ReturnType<typeof createDemoWallet>
  /** Paths of the service the config asked, in order (`/v1/` is the RPC proxy). */
  fetches: string[]
  /** Wallet requests that need consent, in order. */
  requests: string[]
  errors: { code: number; message: string }[]
  advance(ms: number): void
}

async function connected(
  options: { account?: number; chainId?: number; apiUrl?: string } = {},
): Promise<Harness> {
  const fetches: string[] = []
  const requests: string[] = []
  const errors: Harness['errors'] = []
  let skew = 0
  const platform: Platform = {
    window: undefined,
    storage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
    fetch: (input, init) => {
      fetches.push(new URL(String(input)).pathname)
      return fetch(input, init)
    },
    now: () => Date.now() + skew,
    isMobile: () => false,
    prefersDark: () => false,
  }
  const wallet = createDemoWallet({
    origin: 'http://127.0.0.1',
    autoApprove: true,
    localRpcUrl: chain.url,
    accountIndex: options.account ?? 0,
    ...(options.chainId ? { chainId: options.chainId } : {}),
  })
  const provider: Eip1193Provider = {
    request: (args) => {
      if (args.method === 'eth_sendTransaction') requests.push(args.method)
      return wallet.provider.request(args as RequestArguments)
    },
    on: (event, listener) => wallet.provider.on(event, listener as ProviderListener),
    removeListener: (event, listener) => wallet.provider.removeListener(event, listener as ProviderListener),
  }
  const config = createConfig(
    {
      networks: 'eip155:31337,eip155:31338',
      apiUrl: options.apiUrl ?? apiUrl,
      projectId: PROJECT,
      connectors: [createInjectedConnector({ id: 'demo', name: 'Demo Wallet', provider })],
    },
    platform,
  )
  config.events.on('error', (detail) => {
    errors.push(detail)
    return undefined
  })
  const connector = config.$connectors.get().find((candidate) => candidate.id === 'demo')
  assert.ok(connector)
  await connect(config, { connector })
  // Connecting starts a balance fetch in the background: let it land first.
  const key = balanceKey(config.$network.get()?.caipNetworkId ?? '', config.$account.get()?.address ?? '')
  while (config.$balances.get()[key]?.status === 'loading' || !config.$balances.get()[key]) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return { config, wallet, fetches, requests, errors, advance: (ms) => (skew += ms) }
}

const client = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })
const tokenBalance = (token: `0x${string}`, owner: `0x${string}`) =>
  client().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

describe('balances with prices', { timeout: 60_000 }, () => {
  test('default: ETH and the held tokens of the list with USD prices, in one multicall through the RPC proxy', async () => {
    const harness = await connected({ account: 2 })
    harness.fetches.length = 0
    const balance = await fetchBalance(harness.config, { force: true })
    assert.equal(balance?.status, 'ready')
    assert.equal(balance?.value, parseEther('10000'))
    assert.equal(balance?.nativePrice, 3000)
    // WETH is listed but not held: only what the account holds.
    assert.deepEqual(
      balance?.tokens.map((token) => [token.symbol, token.amount, token.price, token.imageId]),
      [
        ['USDC', DEV_ACCOUNT_TOKENS.USDC, 1, 'USDC'],
        ['DEV', DEV_ACCOUNT_TOKENS.DEV, 1.5, 'DEV'],
      ],
    )
    // The token list was cached by connect's own fetch; the balances are one request to the proxy.
    assert.deepEqual(harness.fetches, ['/v1/'])
    const total =
      (usdValue(balance?.value ?? 0n, 18, balance?.nativePrice) ?? 0) +
      (balance?.tokens ?? []).reduce(
        (sum, token) => sum + (usdValue(token.amount, token.decimals, token.price) ?? 0),
        0,
      )
    assert.equal(total, 30_011_500)
  })

  test('behavior: the token list is kept 30 s (SPEC portfolio cache), then asked again', async () => {
    const harness = await connected({ account: 2 })
    harness.fetches.length = 0
    harness.advance(30_000)
    await fetchBalance(harness.config)
    assert.deepEqual(harness.fetches, ['/blockchain/v1/tokens', '/v1/'])
    harness.advance(10_000)
    await fetchBalance(harness.config, { force: true })
    assert.deepEqual(harness.fetches, ['/blockchain/v1/tokens', '/v1/', '/v1/'])
  })

  test('error: the data API down gives Token Balance Unavailable and blocks retries for 30 s', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`
    const harness = await connected({ account: 2, apiUrl: closed })
    const failed = await fetchBalance(harness.config)
    assert.equal(failed?.status, 'error')
    assert.deepEqual(harness.errors, [{ code: 5000, message: 'Token Balance Unavailable' }])
    const asked = harness.fetches.length
    harness.advance(29_000)
    await fetchBalance(harness.config)
    assert.deepEqual(harness.fetches.slice(asked), [], 'no retry while blocked')
  })
})

describe('sending tokens', { timeout: 60_000 }, () => {
  test('default: 25 USDC to another dev account, an ERC-20 transfer through the active connector', async () => {
    const harness = await connected({ account: 3 })
    const receiver = devAccount(4).address
    const before = await tokenBalance(market.tokens.USDC.address, receiver)
    await sendToken(harness.config, { token: market.tokens.USDC.address, amount: '25', receiver })
    assert.equal((await tokenBalance(market.tokens.USDC.address, receiver)) - before, parseUnits('25', 6))
    assert.deepEqual(harness.requests, ['eth_sendTransaction'])
    const key = balanceKey('eip155:31337', devAccount(3).address)
    await fetchBalance(harness.config, { force: true })
    const usdc = harness.config.$balances.get()[key]?.tokens.find((token) => token.symbol === 'USDC')
    assert.equal(usdc?.amount, DEV_ACCOUNT_TOKENS.USDC - parseUnits('25', 6))
  })

  test('error: the SPEC messages for a missing amount, receiver or token', async () => {
    const harness = await connected({ account: 3 })
    await assert.rejects(sendToken(harness.config, { token: NATIVE_TOKEN, amount: '', receiver: '0x1' }), {
      shortMessage: 'An amount and receiver address are required',
    })
    await assert.rejects(
      sendToken(harness.config, { token: undefined, amount: '1', receiver: devAccount(4).address }),
      { shortMessage: 'A token is required' },
    )
    assert.deepEqual(harness.requests, [])
  })

  test('behavior: Max leaves the gas of a native send, and sending it goes through', async () => {
    const harness = await connected({ account: 5 })
    await fetchBalance(harness.config, { force: true })
    assert.equal(await maxSendAmount(harness.config, market.tokens.DEV.address), DEV_ACCOUNT_TOKENS.DEV)
    const max = await maxSendAmount(harness.config, NATIVE_TOKEN)
    const gasPrice = await client().getGasPrice()
    assert.equal(max, parseEther('10000') - gasPrice * 21_000n * 2n)
    const { formatUnits } = await import('viem')
    await sendToken(harness.config, {
      token: NATIVE_TOKEN,
      amount: formatUnits(max ?? 0n, 18),
      receiver: devAccount(6).address,
    })
    const left = await client().getBalance({ address: devAccount(5).address })
    assert.ok(left >= 0n && left < gasPrice * 21_000n * 2n, String(left))
  })
})

describe('swaps', { timeout: 90_000 }, () => {
  test('default: 0.1 ETH to USDC needs no approval; the swap gives what the quote said', async () => {
    const harness = await connected({ account: 7 })
    const { config } = harness
    await fetchBalance(config, { force: true })
    const state = await loadSwap(config)
    assert.equal(state.status, 'idle')
    assert.deepEqual(
      state.tokens.map((token) => token.symbol),
      ['ETH', 'USDC', 'DEV', 'WETH'],
    )
    const quote = await quoteSwap(config, { from: 'native', to: market.tokens.USDC.address, amount: '0.1' })
    assert.ok(quote)
    const quoted = config.$swap.get()
    assert.equal(quoted.status, 'quoted')
    assert.equal(quoted.needsApproval, false)
    assert.equal(quoted.networkFee, (await client().getGasPrice()) * BigInt(quote.gas))
    const before = await tokenBalance(market.tokens.USDC.address, devAccount(7).address)
    const { received } = await swapTokens(config)
    assert.equal(received, BigInt(quote.amountOut))
    assert.equal((await tokenBalance(market.tokens.USDC.address, devAccount(7).address)) - before, received)
    assert.equal(config.$swap.get().status, 'swapped')
    assert.deepEqual(harness.requests, ['eth_sendTransaction'])
  })

  test('default: 10 USDC back to ETH approves first, then swaps: two wallet requests', async () => {
    const harness = await connected({ account: 7 })
    const { config } = harness
    await fetchBalance(config, { force: true })
    await loadSwap(config)
    const quote = await quoteSwap(config, { from: market.tokens.USDC.address, to: 'native', amount: '10' })
    assert.ok(quote)
    assert.equal(config.$swap.get().needsApproval, true)
    const { received } = await swapTokens(config)
    assert.equal(received, BigInt(quote.amountOut))
    assert.deepEqual(harness.requests, ['eth_sendTransaction', 'eth_sendTransaction'])
  })

  test('error: a quote older than 30 s is replaced and nothing is sent', async () => {
    const harness = await connected({ account: 7 })
    const { config } = harness
    await fetchBalance(config, { force: true })
    await loadSwap(config)
    const first = await quoteSwap(config, { from: 'native', to: market.tokens.DEV.address, amount: '0.05' })
    harness.advance(30_001)
    await assert.rejects(swapTokens(config), { name: 'SwapQuoteExpiredError' })
    const state = config.$swap.get()
    assert.equal(state.status, 'quoted')
    assert.ok(state.quote && first && state.quote.expiresAt > first.expiresAt)
    assert.equal(state.error?.message, 'The quote expired: check the new quote, then swap')
    assert.deepEqual(harness.requests, [])
  })

  test('error: insufficient balance, and a wallet that rejects', async () => {
    const harness = await connected({ account: 8 })
    const { config } = harness
    await fetchBalance(config, { force: true })
    await loadSwap(config)
    assert.equal(
      await quoteSwap(config, { from: 'native', to: market.tokens.USDC.address, amount: '20000' }),
      undefined,
    )
    assert.deepEqual(config.$swap.get().error, {
      code: 5000,
      message: 'Insufficient balance',
      messageId: 'insufficientBalance',
      messageValues: undefined,
      fields: ['amount'],
    })
    await quoteSwap(config, { from: 'native', to: market.tokens.USDC.address, amount: '0.01' })
    harness.wallet.controls.autoApprove(false)
    await assert.rejects(swapTokens(config), { name: 'UserRejectedRequestError' })
    assert.equal(config.$swap.get().status, 'error')
    assert.equal(config.$swap.get().error?.code, 4001)
    assert.ok(config.$swap.get().quote, 'the quote stays for another try')
  })

  test('error: "Network not supported for Swaps" on a network without a market', async () => {
    const harness = await connected({ account: 8, chainId: 31338 })
    const state = await loadSwap(harness.config)
    assert.equal(state.status, 'unsupported')
    assert.equal(state.error?.message, 'Network not supported for Swaps')
    assert.equal(state.error?.messageId, 'SwapsNetworkNotSupportedError')
  })

  test('error: the data API client maps "Network not supported for Gas Price"', async () => {
    const api = blockchainApi(createHttpClient({ baseUrl: apiUrl, projectId: PROJECT, fetch }))
    await assert.rejects(api.gasPrice('solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'), {
      name: 'GasPriceNetworkNotSupportedError',
      shortMessage: 'Network not supported for Gas Price',
    })
    await assert.rejects(api.quote({ chainId: 'eip155:31338', from: 'native', to: 'native', amount: '1' }), {
      name: 'SwapsNetworkNotSupportedError',
    })
  })
})
