// Shared set-up of the data API tests: two local chains with a market, a price source stand-in, and request helpers.
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
} from 'viem'
import { buildApp } from '../../../server/app.ts'
import { parseTokenLists } from '../../../server/blockchain/tokenLists.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket, type LocalMarket, marketTokenList } from '../../../server/dev/chain/market.ts'
import { apiErrorBody, type SwapQuote, swapQuoteResponse } from '../../../src/protocol/api/index.ts'
import { captureLogs, freePort, openTestDatabase, sdk, type TestDatabase } from './helpers.ts'

export const site = 'http://localhost:5173'
export const local = 'eip155:31337'
export const noMarket = 'eip155:31338'
export const deadNetwork = 'eip155:31339'
export const solana = 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'
/** Networks listed without a market or an upstream (prices from the price source only). */
export const sourceOnly = ['eip155:10', 'eip155:8453', 'eip155:42161']
/** A listed token with no contract and no pool behind it. */
export const ghost = '0x000000000000000000000000000000000000dEaD'
export const trader = devAccount(1)
export const routerAbi = parseAbi([
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)',
])

export let testDb: TestDatabase
export let app: FastifyInstance
export let chain: LocalChain
export let chain2: LocalChain
export let market: LocalMarket
export let priceServer: Server
export let priceAnswer: (url: URL) => { status: number; body: string }
export const priceRequests: URL[] = []
export const priceSecret = 'pricekey-0123456789abcdef'
export let priceSourceUrl: string
export const logs = captureLogs('info')

export const get = (path: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
  app.inject({
    url: `/blockchain/v1/${path}?${sdk()}&${new URLSearchParams(query)}`,
    headers: { origin: site, ...headers },
  })

export const errorOf = (body: string) => apiErrorBody.parse(JSON.parse(body)).error

export const publicClient = () => createPublicClient({ transport: http(chain.url, { retryCount: 0 }) })

/** Signs and sends a built transaction as the trader; resolves to the gas it cost in wei. */
export async function sendAsTrader(transaction: {
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

export const usdcBalance = (address: Address) =>
  publicClient().readContract({
    address: market.tokens.USDC.address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  })

export async function quote(query: Record<string, string>): Promise<SwapQuote> {
  const response = await get('swap/quote', { chainId: local, ...query })
  assert.equal(response.statusCode, 200, response.body)
  return swapQuoteResponse.parse(response.json()).quote
}

/** Tests move `priceAnswer` through this: an imported binding cannot be assigned. */
export function setPriceAnswer(value: typeof priceAnswer) {
  priceAnswer = value
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startDataService() {
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
}
