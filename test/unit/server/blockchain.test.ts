/**
 * The blockchain data API against the local market on a real Hardhat chain: token lists with pool
 * prices, the price source adapter, gas price, and swaps (quote, allowance, build approve, build
 * transaction), with the transactions signed and mined, and the attacks a curl user would try.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { buildApp } from '../../../server/app.ts'
import { parseTokenLists } from '../../../server/blockchain/tokenLists.ts'
import { DEFAULT_SWAP_GAS } from '../../../server/blockchain/uniswapV2.ts'
import { loadConfig } from '../../../server/config.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket, type LocalMarket, marketTokenList } from '../../../server/dev/chain/market.ts'
import { updateProject } from '../../../server/projects/store.ts'
import {
  allowanceResponse,
  apiErrorBody,
  buildApproveResponse,
  buildSwapResponse,
  gasPriceResponse,
  type SwapQuote,
  swapQuoteResponse,
  tokenPriceResponse,
  tokensResponse,
} from '../../../src/protocol/api/index.ts'
import { captureLogs, freePort, openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const site = 'http://localhost:5173'
const local = 'eip155:31337'
const noMarket = 'eip155:31338'
const deadNetwork = 'eip155:31339'
const solana = 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'
/** Networks listed without a market or an upstream (prices from the price source only). */
const sourceOnly = ['eip155:10', 'eip155:8453', 'eip155:42161']
/** A listed token with no contract and no pool behind it. */
const ghost = '0x000000000000000000000000000000000000dEaD'
const trader = devAccount(1)
const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
])

let testDb: TestDatabase
let app: FastifyInstance
let chain: LocalChain
let chain2: LocalChain
let market: LocalMarket
let priceServer: Server
let priceAnswer: (url: URL) => { status: number; body: string }
const priceRequests: URL[] = []
const priceSecret = 'pricekey-0123456789abcdef'
let priceSourceUrl: string
const logs = captureLogs('info')

before(
  async () => {
    ;[chain, chain2] = await Promise.all([
      startChain({ port: await freePort(), chainId: 31337 }),
      startChain({ port: await freePort(), chainId: 31338 }),
    ])
    market = await deployMarket({ url: chain.url, chainId: 31337 })
    priceServer = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1')
      priceRequests.push(url)
      const { status, body } = priceAnswer(url)
      response.writeHead(status, { 'content-type': 'application/json' }).end(body)
    })
    await new Promise<void>((resolve) => priceServer.listen(0, '127.0.0.1', resolve))
    priceSourceUrl = `http://127.0.0.1:${(priceServer.address() as AddressInfo).port}/prices/${priceSecret}?key=${priceSecret}`
    const marketList = marketTokenList(market)
    testDb = await openTestDatabase('blockchain')
    app = await buildApp(
      testDb.config({
        devOrigins: [site],
        rpcUpstreams: {
          [local]: chain.url,
          [noMarket]: chain2.url,
          [deadNetwork]: `http://127.0.0.1:${await freePort()}/${priceSecret}`,
        },
        rpcTimeoutMs: 5000,
        tokenLists: parseTokenLists({
          networks: {
            [local]: {
              ...marketList,
              tokens: [
                ...marketList.tokens,
                { address: ghost, symbol: 'GHOST', name: 'No pool', decimals: 18 },
              ],
            },
            // Networks the operator lists without a market: their prices come from the price source.
            [solana]: { tokens: [] },
            ...Object.fromEntries(sourceOnly.map((chainId) => [chainId, { tokens: [] }])),
          },
        }),
        priceSourceUrl,
      }),
      { database: testDb.database, logger: logs.logger },
    )
  },
  { timeout: 90_000 },
)

after(async () => {
  await app?.close()
  await testDb?.close()
  await Promise.all([chain?.stop(), chain2?.stop()])
  priceServer?.close()
})

const get = (path: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
  app.inject({
    url: `/blockchain/v1/${path}?${sdk()}&${new URLSearchParams(query)}`,
    headers: { origin: site, ...headers },
  })

const errorOf = (body: string) => apiErrorBody.parse(JSON.parse(body)).error

const publicClient = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })

/** Signs and sends a built transaction as the trader; resolves to the gas it cost in wei. */
async function sendAsTrader(transaction: {
  to: string
  data: string
  value: string
  gas?: string | undefined
}) {
  const wallet = createWalletClient({ account: trader, transport: http(chain.url, { retryCount: 0 }) })
  const hash = await wallet.sendTransaction({
    chain: null,
    to: transaction.to as Address,
    data: transaction.data as Hex,
    value: BigInt(transaction.value),
    ...(transaction.gas ? { gas: BigInt(transaction.gas) } : {}),
  })
  const receipt = await publicClient().waitForTransactionReceipt({ hash, pollingInterval: 50 })
  assert.equal(receipt.status, 'success')
  return { cost: receipt.gasUsed * receipt.effectiveGasPrice, gasUsed: receipt.gasUsed }
}

const usdcBalance = (address: Address) =>
  publicClient().readContract({
    address: market.tokens.USDC.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })

async function quote(query: Record<string, string>): Promise<SwapQuote> {
  const response = await get('swap/quote', { chainId: local, ...query })
  assert.equal(response.statusCode, 200, response.body)
  return swapQuoteResponse.parse(response.json()).quote
}

describe('token lists and prices', { timeout: 60_000 }, () => {
  test('default: the local tokens with USD prices from the pool reserves against the stablecoin', async () => {
    const response = await get('tokens', { chainId: local })
    assert.equal(response.statusCode, 200, response.body)
    const answer = tokensResponse.parse(response.json())
    const price = (symbol: string) => answer.tokens.find((token) => token.symbol === symbol)?.price
    assert.equal(price('USDC'), 1)
    // 300,000 USDC for 100 ETH; DEV has its own USDC pool at 30,000 for 20,000.
    assert.equal(price('WETH'), 3000)
    assert.equal(answer.native.price, 3000)
    assert.equal(price('DEV'), 1.5)
    assert.equal(answer.swaps, true)
    assert.equal(answer.multicall, market.multicall)
    assert.deepEqual(
      answer.tokens.map((token) => [token.symbol, token.decimals, token.imageId]),
      [
        ['USDC', 6, 'USDC'],
        ['DEV', 18, 'DEV'],
        ['WETH', 18, 'WETH'],
        ['GHOST', 18, 'GHOST'],
      ],
    )
    assert.equal(response.headers['access-control-allow-origin'], site)
  })

  test('behavior: a listed token without a pool has no price: none is made up', async () => {
    const answer = tokensResponse.parse((await get('tokens', { chainId: local })).json())
    assert.equal(answer.tokens.find((token) => token.symbol === 'GHOST')?.price, null)
    const prices = tokenPriceResponse.parse(
      (
        await get('token-price', {
          chainId: local,
          addresses: `native,${ghost},${market.tokens.DEV.address}`,
        })
      ).json(),
    )
    assert.deepEqual(prices.prices, [
      { address: 'native', price: 3000 },
      { address: ghost, price: null },
      { address: market.tokens.DEV.address, price: 1.5 },
    ])
  })

  test('default: token icons through /public/getTokenImage/{id}', async () => {
    for (const id of ['USDC', 'DEV', 'WETH', 'ETH']) {
      const image = await app.inject({ url: `/public/getTokenImage/${id}` })
      assert.equal(image.statusCode, 200, id)
      assert.equal(image.headers['content-type'], 'image/svg+xml')
    }
  })

  test('behavior: elsewhere prices come from the price source, with the URL kept out of the logs', async () => {
    priceAnswer = (url) => ({
      status: 200,
      body: JSON.stringify({
        prices: Object.fromEntries(
          (url.searchParams.get('addresses') ?? '')
            .split(',')
            .map((address) => [address, address === 'native' ? 2500.5 : 7]),
        ),
      }),
    })
    const answer = tokensResponse.parse((await get('tokens', { chainId: noMarket })).json())
    assert.deepEqual(answer, {
      chainId: noMarket,
      native: { price: 2500.5 },
      tokens: [],
      swaps: false,
      multicall: '0xcA11bde05977b3631167028862bE2a173976CA11',
    })
    const asked = priceRequests.at(-1)
    assert.equal(asked?.searchParams.get('chainId'), noMarket)
    assert.equal(asked?.searchParams.get('key'), priceSecret)

    // Solana mints keep their case.
    const mint = 'So11111111111111111111111111111111111111112'
    const prices = tokenPriceResponse.parse(
      (await get('token-price', { chainId: solana, addresses: `native,${mint}` })).json(),
    )
    assert.deepEqual(prices.prices, [
      { address: 'native', price: 2500.5 },
      { address: mint, price: 7 },
    ])
    assert.equal(priceRequests.at(-1)?.searchParams.get('addresses'), `${mint},native`)
  })

  test('error: a price source that fails or answers nonsense gives no prices', async () => {
    const before = logs.lines.length
    priceAnswer = () => ({
      status: 200,
      body: JSON.stringify({ prices: { native: -1, '0xabc': 'free', x: Number.NaN } }),
    })
    const bad = tokenPriceResponse.parse(
      (
        await get('token-price', {
          chainId: 'eip155:10',
          addresses: 'native,0x0000000000000000000000000000000000000abc',
        })
      ).json(),
    )
    assert.deepEqual(
      bad.prices.map((entry) => entry.price),
      [null, null],
    )
    priceAnswer = () => ({ status: 500, body: 'oops' })
    const failed = tokensResponse.parse((await get('tokens', { chainId: 'eip155:8453' })).json())
    assert.equal(failed.native.price, null)
    priceAnswer = () => ({ status: 200, body: 'not json' })
    const garbled = tokensResponse.parse((await get('tokens', { chainId: 'eip155:42161' })).json())
    assert.equal(garbled.native.price, null)
    const logged = logs.lines.slice(before).join('\n')
    assert.match(logged, /price source/)
    assert.doesNotMatch(logged, new RegExp(priceSecret))
  })
})

describe('gas price', { timeout: 60_000 }, () => {
  test('default: the network gas price in wei', async () => {
    const response = await get('gas-price', { chainId: local })
    assert.equal(response.statusCode, 200, response.body)
    const { gasPrice } = gasPriceResponse.parse(response.json())
    assert.equal(BigInt(gasPrice), await publicClient().getGasPrice())
  })

  test('error: "Network not supported for Gas Price" on Solana and on a network without an upstream', async () => {
    for (const chainId of [solana, 'eip155:1']) {
      const response = await get('gas-price', { chainId })
      assert.equal(response.statusCode, 400)
      assert.deepEqual(errorOf(response.body), {
        code: 'GAS_PRICE_NETWORK_NOT_SUPPORTED',
        message: 'Network not supported for Gas Price',
      })
    }
  })

  test('error: an unreachable upstream answers 502 without its URL, and the log holds none', async () => {
    const before = logs.lines.length
    const response = await get('gas-price', { chainId: deadNetwork })
    assert.equal(response.statusCode, 502)
    assert.equal(errorOf(response.body).code, 'UPSTREAM_ERROR')
    assert.doesNotMatch(response.body, new RegExp(priceSecret))
    assert.doesNotMatch(logs.lines.slice(before).join('\n'), new RegExp(priceSecret))
  })
})

describe('swaps on the local pools', { timeout: 90_000 }, () => {
  test('default: the quote of 0.1 ETH to USDC equals what the swap receives', async () => {
    const amount = parseEther('0.1').toString()
    const found = await quote({
      from: 'native',
      to: market.tokens.USDC.address,
      amount,
      userAddress: trader.address,
    })
    assert.deepEqual(found.path, [market.tokens.WETH.address, market.tokens.USDC.address])
    // About 300 USDC at 3,000 a coin, less the 0.3 % fee and a little price impact.
    assert.ok(
      BigInt(found.amountOut) > parseUnits('298', 6) && BigInt(found.amountOut) < parseUnits('299.1', 6),
    )
    assert.equal(BigInt(found.minimumReceived), (BigInt(found.amountOut) * 99n) / 100n)
    assert.equal(found.slippagePercent, 1)
    assert.ok(
      found.priceImpactPercent > 0.09 && found.priceImpactPercent < 0.11,
      String(found.priceImpactPercent),
    )
    assert.ok(found.expiresAt > Date.now() + 25_000)

    const built = await get('swap/build-transaction', {
      chainId: local,
      from: 'native',
      to: market.tokens.USDC.address,
      amount,
      userAddress: trader.address,
      minimumReceived: found.minimumReceived,
    })
    assert.equal(built.statusCode, 200, built.body)
    const { transaction, quote: fresh } = buildSwapResponse.parse(built.json())
    assert.equal(fresh.amountOut, found.amountOut)
    assert.equal(transaction.to, market.uniswapV2.router)
    assert.equal(transaction.value, amount)

    const before = await usdcBalance(trader.address)
    const { gasUsed } = await sendAsTrader(transaction)
    assert.equal((await usdcBalance(trader.address)) - before, BigInt(found.amountOut))
    // The quote's gas was estimated for this account: enough, and not far over (refunds aside).
    assert.ok(
      gasUsed <= BigInt(found.gas) && gasUsed * 10n > BigInt(found.gas) * 7n,
      `${gasUsed} ${found.gas}`,
    )
  })

  test('default: 10 USDC back to ETH needs an approval first; then the quote equals what arrives', async () => {
    const amount = parseUnits('10', 6).toString()
    const usdc = market.tokens.USDC.address
    const allowance = allowanceResponse.parse(
      (await get('swap/allowance', { chainId: local, token: usdc, owner: trader.address })).json(),
    )
    assert.deepEqual(allowance, { allowance: '0', spender: market.uniswapV2.router })

    const unapproved = await quote({ from: usdc, to: 'native', amount, userAddress: trader.address })
    // Without the approval the gas cannot be estimated for the account: the route's default.
    assert.equal(BigInt(unapproved.gas), DEFAULT_SWAP_GAS.onePool)
    const refused = await get('swap/build-transaction', {
      chainId: local,
      from: usdc,
      to: 'native',
      amount,
      userAddress: trader.address,
      minimumReceived: unapproved.minimumReceived,
    })
    assert.equal(refused.statusCode, 409)
    assert.deepEqual(errorOf(refused.body), {
      code: 'SWAP_ALLOWANCE_TOO_LOW',
      message: 'Approve the token first',
    })

    const approve = buildApproveResponse.parse(
      (await get('swap/build-approve', { chainId: local, token: usdc, amount })).json(),
    )
    assert.equal(approve.transaction.to, usdc)
    assert.equal(approve.transaction.value, '0')
    await sendAsTrader(approve.transaction)
    const approved = allowanceResponse.parse(
      (await get('swap/allowance', { chainId: local, token: usdc, owner: trader.address })).json(),
    )
    assert.equal(approved.allowance, amount)

    const found = await quote({ from: usdc, to: 'native', amount, userAddress: trader.address })
    const built = buildSwapResponse.parse(
      (
        await get('swap/build-transaction', {
          chainId: local,
          from: usdc,
          to: 'native',
          amount,
          userAddress: trader.address,
          minimumReceived: found.minimumReceived,
        })
      ).json(),
    )
    const before = await publicClient().getBalance({ address: trader.address })
    const { cost, gasUsed } = await sendAsTrader(built.transaction)
    const after = await publicClient().getBalance({ address: trader.address })
    assert.equal(after - before + cost, BigInt(found.amountOut))
    assert.ok(
      gasUsed <= BigInt(found.gas) && gasUsed * 10n > BigInt(found.gas) * 7n,
      `${gasUsed} ${found.gas}`,
    )
    // Spent exactly: the approval is used up.
    const left = allowanceResponse.parse(
      (await get('swap/allowance', { chainId: local, token: usdc, owner: trader.address })).json(),
    )
    assert.equal(left.allowance, '0')
  })

  test('behavior: the best of the direct pool and one hop, as the router computes them', async () => {
    const { DEV, USDC, WETH } = market.tokens
    const amount = parseUnits('1000', 18)
    const out = async (path: Address[]) =>
      (
        await publicClient().readContract({
          address: market.uniswapV2.router,
          abi: routerAbi,
          functionName: 'getAmountsOut',
          args: [amount, path],
        })
      ).at(-1) ?? 0n
    const routes = [
      [DEV.address, USDC.address],
      [DEV.address, WETH.address, USDC.address],
    ]
    const outs = await Promise.all(routes.map(out))
    const best = (outs[0] ?? 0n) > (outs[1] ?? 0n) ? 0 : 1
    const found = await quote({ from: DEV.address, to: USDC.address, amount: amount.toString() })
    assert.equal(BigInt(found.amountOut), outs[best])
    assert.deepEqual(found.path, routes[best])
    assert.equal(
      BigInt(found.gas),
      DEFAULT_SWAP_GAS.onePool + DEFAULT_SWAP_GAS.perExtraPool * BigInt(found.path.length - 2),
    )
  })

  test('behavior: price impact against the mid price, fees aside (a third of a pool moves it a third)', async () => {
    // 50 ETH into the 100 ETH pool: out / ideal = 100 / (100 + 49.85).
    const found = await quote({
      from: 'native',
      to: market.tokens.USDC.address,
      amount: parseEther('50').toString(),
    })
    const expected = (1 - 100 / (100 + 50 * 0.997)) * 100
    assert.ok(
      Math.abs(found.priceImpactPercent - expected) < 0.05,
      `${found.priceImpactPercent} vs ${expected}`,
    )
  })

  test('error: a quote the pools no longer honour answers "quote expired"', async () => {
    const amount = parseEther('0.01').toString()
    const found = await quote({ from: 'native', to: market.tokens.USDC.address, amount })
    const response = await get('swap/build-transaction', {
      chainId: local,
      from: 'native',
      to: market.tokens.USDC.address,
      amount,
      userAddress: trader.address,
      minimumReceived: (BigInt(found.amountOut) + 1n).toString(),
    })
    assert.equal(response.statusCode, 409)
    assert.deepEqual(errorOf(response.body), {
      code: 'SWAP_QUOTE_EXPIRED',
      message: 'The quote has expired: the price moved since',
    })
  })

  test('error: insufficient balance, and no liquidity for a token without pools', async () => {
    const poor = devAccount(7).address
    const response = await get('swap/build-transaction', {
      chainId: local,
      from: 'native',
      to: market.tokens.USDC.address,
      amount: parseEther('20000').toString(),
      userAddress: poor,
      minimumReceived: '1',
    })
    assert.equal(response.statusCode, 409)
    assert.deepEqual(errorOf(response.body), {
      code: 'SWAP_INSUFFICIENT_BALANCE',
      message: 'Insufficient balance',
    })

    const none = await get('swap/quote', {
      chainId: local,
      from: ghost,
      to: market.tokens.USDC.address,
      amount: '1000',
    })
    assert.equal(none.statusCode, 422)
    assert.deepEqual(errorOf(none.body), {
      code: 'SWAP_NO_LIQUIDITY',
      message: 'Not enough liquidity for this swap',
    })
  })

  test('error: "Network not supported for Swaps" on a network without a market, and on Solana', async () => {
    for (const chainId of [noMarket, solana, 'eip155:1']) {
      for (const path of ['swap/quote', 'swap/allowance', 'swap/build-approve']) {
        const response = await get(path, {
          chainId,
          from: 'native',
          to: market.tokens.USDC.address,
          token: market.tokens.USDC.address,
          owner: trader.address,
          amount: '1',
        })
        assert.equal(response.statusCode, 400, `${chainId} ${path}`)
        assert.deepEqual(errorOf(response.body), {
          code: 'SWAPS_NETWORK_NOT_SUPPORTED',
          message: 'Network not supported for Swaps',
        })
      }
    }
  })
})

describe('attacks on the data API', { timeout: 60_000 }, () => {
  test('error: the project and origin checks of every project route', async () => {
    const noProject = await app.inject({
      url: `/blockchain/v1/tokens?chainId=${local}`,
      headers: { origin: site },
    })
    assert.equal(noProject.statusCode, 400)
    assert.equal(errorOf(noProject.body).code, 'PROJECT_ID_NOT_CONFIGURED')
    const stranger = await get(
      'swap/quote',
      { chainId: local, from: 'native', to: market.tokens.USDC.address, amount: '1' },
      {
        origin: 'https://evil.example',
      },
    )
    assert.equal(stranger.statusCode, 403)
    assert.equal(errorOf(stranger.body).message, 'Invalid App Configuration')
    const unknown = await app.inject({
      url: `/blockchain/v1/gas-price?projectId=nobody&st=a&sv=b&chainId=${local}`,
    })
    assert.equal(unknown.statusCode, 401)
  })

  test('error: a project with swaps off gets no swap routes, and its token list says swaps: false', async () => {
    await updateProject(testDb.database.db, 'dev-project', { features: { swaps: false } })
    try {
      const list = tokensResponse.parse((await get('tokens', { chainId: local })).json())
      assert.equal(list.swaps, false)
      const refused = await get('swap/quote', {
        chainId: local,
        from: 'native',
        to: market.tokens.USDC.address,
        amount: '1',
      })
      assert.equal(refused.statusCode, 403)
      assert.deepEqual(errorOf(refused.body), {
        code: 'SWAPS_DISABLED',
        message: 'Swaps are turned off for this project',
      })
    } finally {
      await updateProject(testDb.database.db, 'dev-project', { features: { swaps: true } })
    }
  })

  test('error: only listed tokens: no call is built for a contract the operator did not list', async () => {
    const attacker = '0x1111111111111111111111111111111111111111'
    for (const [path, query, field] of [
      ['swap/quote', { from: attacker, to: 'native', amount: '1' }, 'from'],
      ['swap/quote', { from: 'native', to: attacker, amount: '1' }, 'to'],
      ['swap/build-approve', { token: attacker, amount: '1' }, 'token'],
      ['swap/allowance', { token: attacker, owner: trader.address }, 'token'],
    ] as const) {
      const response = await get(path, { chainId: local, ...query })
      assert.equal(response.statusCode, 400, path)
      assert.equal(errorOf(response.body).field, field)
    }
  })

  test('error: bad input names the field: amounts, addresses, chain ids, long lists', async () => {
    const cases: [string, Record<string, string>, string][] = [
      [
        'swap/quote',
        { chainId: local, from: 'native', to: market.tokens.USDC.address, amount: '-1' },
        'amount',
      ],
      [
        'swap/quote',
        { chainId: local, from: 'native', to: market.tokens.USDC.address, amount: '1e18' },
        'amount',
      ],
      [
        'swap/quote',
        { chainId: local, from: 'native', to: market.tokens.USDC.address, amount: (2n ** 256n).toString() },
        'amount',
      ],
      [
        'swap/quote',
        { chainId: local, from: 'native', to: market.tokens.USDC.address, amount: '0' },
        'amount',
      ],
      ['swap/quote', { chainId: local, from: 'native', to: 'native', amount: '1' }, 'to'],
      ['swap/quote', { chainId: local, from: 'native', to: market.tokens.WETH.address, amount: '1' }, 'to'],
      ['swap/quote', { chainId: local, from: "native' OR 1=1", to: 'native', amount: '1' }, 'from'],
      ['swap/allowance', { chainId: local, token: market.tokens.USDC.address, owner: 'me' }, 'owner'],
      ['tokens', { chainId: 'eip155' }, 'chainId'],
      [
        'token-price',
        { chainId: local, addresses: Array.from({ length: 101 }, () => 'native').join(',') },
        'addresses',
      ],
      [
        'swap/build-transaction',
        {
          chainId: local,
          from: 'native',
          to: market.tokens.USDC.address,
          amount: '1',
          userAddress: trader.address,
        },
        'minimumReceived',
      ],
    ]
    for (const [path, query, field] of cases) {
      const response = await get(path, query)
      assert.equal(response.statusCode, 400, `${path} ${JSON.stringify(query)}: ${response.body}`)
      assert.equal(errorOf(response.body).field, field, response.body)
    }
  })

  test('error: the price source hears only of served networks, each token once in 30 s, in one request', async () => {
    priceAnswer = (url) => ({
      status: 200,
      body: JSON.stringify({
        prices: Object.fromEntries(
          (url.searchParams.get('addresses') ?? '').split(',').map((address) => [address, 2]),
        ),
      }),
    })
    const before = priceRequests.length
    const asked = () => priceRequests.slice(before).map((url) => url.searchParams.get('addresses'))
    const prices = async (chainId: string, addresses: string[]) => {
      const response = await get('token-price', { chainId, addresses: addresses.join(',') })
      assert.equal(response.statusCode, 200, response.body)
      return tokenPriceResponse.parse(response.json()).prices.map((entry) => entry.price)
    }
    const token = (digit: string) => `0x${digit.repeat(40)}`

    // A network this service neither proxies nor lists: nothing goes out, and no price is made up.
    assert.deepEqual(await prices('eip155:999999', ['native', token('1')]), [null, null])
    assert.deepEqual(await prices('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', ['native']), [null])
    assert.deepEqual(asked(), [])

    // Known tokens come from the cache; only the new one is asked for, whatever the order or case.
    assert.deepEqual(await prices(noMarket, [token('a'), token('b')]), [2, 2])
    assert.deepEqual(await prices(noMarket, [token('B'), token('c'), token('a')]), [2, 2, 2])
    assert.deepEqual(await prices(noMarket, [token('c'), token('b'), token('a')]), [2, 2, 2])
    assert.deepEqual(asked(), [`${token('a')},${token('b')}`, token('c')])

    // Ten clients at once asking about the same new token: one request to the source.
    const answers = await Promise.all(Array.from({ length: 10 }, () => prices(noMarket, [token('d')])))
    assert.deepEqual(
      answers,
      Array.from({ length: 10 }, () => [2]),
    )
    assert.deepEqual(asked().slice(2), [token('d')])

    // A token the source has no price for is not asked about again within 30 s either.
    priceAnswer = () => ({ status: 200, body: JSON.stringify({ prices: {} }) })
    assert.deepEqual(await prices(noMarket, [token('e')]), [null])
    assert.deepEqual(await prices(noMarket, [token('e')]), [null])
    assert.deepEqual(asked().slice(3), [token('e')])
  })

  test('error: every data route is rate-limited per client and project (429 with Retry-After)', async () => {
    const limited = await buildApp(
      testDb.config({
        devOrigins: [site],
        devProjectId: 'dev-project',
        rpcUpstreams: { [local]: chain.url },
        rateLimits: { ...loadConfig({}).rateLimits, dataPerSecond: 3 },
      }),
      { database: testDb.database, logger: testLogger, now: () => 1_000_000 },
    )
    try {
      const statuses: number[] = []
      for (let index = 0; index < 5; index++) {
        const response = await limited.inject({
          url: `/blockchain/v1/gas-price?${sdk()}&chainId=${local}`,
          remoteAddress: '10.9.8.7',
        })
        statuses.push(response.statusCode)
        if (response.statusCode === 429) {
          assert.equal(response.headers['retry-after'], '1')
          assert.match(errorOf(response.body).message, /Too many blockchain data requests/)
        }
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429])
    } finally {
      await limited.close()
    }
  })
})
