// Token lists, prices, gas price and the attacks on the data API.
/**
 * The blockchain data API against the local market on a real Hardhat chain: token lists with pool
 * prices, the price source adapter, gas price, and swaps (quote, allowance, build approve, build
 * transaction), with the transactions signed and mined, and the attacks a curl user would try.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { buildApp } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import { updateProject } from '../../../server/projects/store.ts'
import { gasPriceResponse, tokenPriceResponse, tokensResponse } from '../../../src/protocol/api/index.ts'
import {
  app,
  chain,
  deadNetwork,
  errorOf,
  get,
  ghost,
  local,
  logs,
  market,
  noMarket,
  priceRequests,
  priceSecret,
  publicClient,
  setPriceAnswer,
  site,
  solana,
  startDataService,
  testDb,
  trader,
} from './blockchain-helpers.ts'
import { sdk, testLogger } from './helpers.ts'

startDataService()

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
    setPriceAnswer((url) => ({
      status: 200,
      body: JSON.stringify({
        prices: Object.fromEntries(
          (url.searchParams.get('addresses') ?? '')
            .split(',')
            .map((address) => [address, address === 'native' ? 2500.5 : 7]),
        ),
      }),
    }))
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
    setPriceAnswer(() => ({
      status: 200,
      body: JSON.stringify({ prices: { native: -1, '0xabc': 'free', x: Number.NaN } }),
    }))
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
    setPriceAnswer(() => ({ status: 500, body: 'oops' }))
    const failed = tokensResponse.parse((await get('tokens', { chainId: 'eip155:8453' })).json())
    assert.equal(failed.native.price, null)
    setPriceAnswer(() => ({ status: 200, body: 'not json' }))
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
    setPriceAnswer((url) => ({
      status: 200,
      body: JSON.stringify({
        prices: Object.fromEntries(
          (url.searchParams.get('addresses') ?? '').split(',').map((address) => [address, 2]),
        ),
      }),
    }))
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
    setPriceAnswer(() => ({ status: 200, body: JSON.stringify({ prices: {} }) }))
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
