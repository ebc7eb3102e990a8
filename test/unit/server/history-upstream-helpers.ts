// Shared set-up of the upstream history tests: an Etherscan-compatible stand-in and the service reading it.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { getAddress, keccak256, toHex } from 'viem'
import { buildApp } from '../../../server/app.ts'
import { parseTokenLists } from '../../../server/blockchain/tokenLists.ts'
import { type RunningEtherscan, startEtherscanStandin } from '../../../server/dev/etherscan/index.ts'
import { type HistoryTransaction, transactionsResponse } from '../../../src/protocol/api/index.ts'
import { captureLogs, freePort, openTestDatabase, sdk, type TestDatabase } from './helpers.ts'

export const site = 'http://localhost:5173'
export const mainnet = 'eip155:1'
export const apiKey = 'upstream-secret-key-0123456789'
export const alice = '0x00000000000000000000000000000000000a11ce'
export const bob = '0x0000000000000000000000000000000000000b0b'
export const router = '0x000000000000000000000000000000000000a0a0'
export const onrampSender = '0x00000000000000000000000000000000000f1a70'
export const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'
export const spamToken = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a'
export const weth = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'

export const hashOf = (label: string) => keccak256(toHex(label))
export const timeOf = (block: number) => String(1_700_000_000 + block * 12)

export let testDb: TestDatabase
export let explorer: RunningEtherscan
export let app: FastifyInstance
export const logs = captureLogs('info')
/** Hashes of the transactions alice should see (native or listed tokens), and the spam-only ones. */
export const visible = new Set<string>()
export const spamOnly = new Set<string>()
export const onramps = new Set<string>()

/** Alice's history: more rows than one upstream page in each busy list, so pages are cut and joined. */
export function seed(chainid: number) {
  // 130 native transfers, in and out, up to 3 a block.
  for (let i = 0; i < 130; i++) {
    const block = 1_000 + Math.floor(i / 2)
    const out = i % 2 === 0
    const hash = hashOf(`native-${i}`)
    explorer.add(chainid, 'txlist', {
      blockNumber: String(block),
      timeStamp: timeOf(block),
      hash,
      transactionIndex: String(i % 2),
      from: out ? alice : bob,
      to: out ? bob : alice,
      value: String(10n ** 15n * BigInt(i + 1)),
      isError: '0',
      input: '0x',
    })
    visible.add(hash)
  }
  // A failed transaction moved nothing.
  explorer.add(chainid, 'txlist', {
    blockNumber: '1070',
    timeStamp: timeOf(1070),
    hash: hashOf('failed'),
    transactionIndex: '5',
    from: alice,
    to: bob,
    value: '1000',
    isError: '1',
  })
  // A swap: ETH to the router, USDC back, in one transaction.
  const swap = hashOf('swap')
  explorer.add(chainid, 'txlist', {
    blockNumber: '1080',
    timeStamp: timeOf(1080),
    hash: swap,
    transactionIndex: '2',
    from: alice,
    to: router,
    value: String(10n ** 17n),
    isError: '0',
  })
  explorer.add(chainid, 'tokentx', {
    blockNumber: '1080',
    timeStamp: timeOf(1080),
    hash: swap,
    transactionIndex: '2',
    logIndex: '7',
    from: router,
    to: alice,
    value: '250000000',
    contractAddress: usdc,
    tokenName: 'USD Coin',
    tokenSymbol: 'USDC',
    tokenDecimal: '6',
  })
  visible.add(swap)
  // 110 USDC transfers and 10 spam-token ones, each its own transaction.
  for (let i = 0; i < 120; i++) {
    const block = 900 + i
    const spam = i % 12 === 11
    const fromOnramp = i % 40 === 5
    const hash = hashOf(`token-${i}`)
    explorer.add(chainid, 'tokentx', {
      blockNumber: String(block),
      timeStamp: timeOf(block),
      hash,
      transactionIndex: '3',
      logIndex: '0',
      from: fromOnramp ? onrampSender : bob,
      to: alice,
      value: String(1_000_000 * (i + 1)),
      contractAddress: spam ? spamToken : usdc,
      tokenName: spam ? 'Claim your airdrop' : 'USD Coin',
      tokenSymbol: spam ? 'SCAM' : 'USDC',
      tokenDecimal: spam ? '18' : '6',
    })
    if (spam) spamOnly.add(hash)
    else visible.add(hash)
    if (fromOnramp && !spam) onramps.add(hash)
  }
  // ETH a contract sent alice in someone else's transaction (no index in its block in this API).
  for (let i = 0; i < 4; i++) {
    const block = 950 + i * 7
    const hash = hashOf(`internal-${i}`)
    explorer.add(chainid, 'txlistinternal', {
      blockNumber: String(block),
      timeStamp: timeOf(block),
      hash,
      from: weth,
      to: alice,
      value: String(10n ** 16n),
      isError: '0',
      type: 'call',
      traceId: '0',
    })
    visible.add(hash)
  }
}

export const page = async (target: FastifyInstance, parameters: Record<string, string>) =>
  target.inject({
    url: `/blockchain/v1/transactions?${sdk()}&${new URLSearchParams({ chainId: mainnet, account: getAddress(alice), ...parameters })}`,
    headers: { origin: site },
  })

/** Every page of alice's history, following `next`. */
export async function allPages(parameters: Record<string, string> = {}) {
  const transactions: HistoryTransaction[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const response = await page(app, { limit: '7', ...parameters, ...(cursor ? { cursor } : {}) })
    assert.equal(response.statusCode, 200, response.body)
    const body = transactionsResponse.parse(JSON.parse(response.body))
    transactions.push(...body.data)
    cursor = body.next
    pages++
    assert.ok(pages < 200, 'the pages never end')
  } while (cursor !== null)
  return transactions
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startUpstreamHistory() {
  before(async () => {
    testDb = await openTestDatabase('history-upstream')
    explorer = await startEtherscanStandin({ port: await freePort(), apiKey })
    seed(1)
    app = await buildApp(
      testDb.config({
        devOrigins: [site],
        rpcUpstreams: {},
        historyUpstreams: { [mainnet]: explorer.url },
        historyUpstreamKey: apiKey,
        tokenLists: parseTokenLists({
          networks: {
            [mainnet]: {
              tokens: [
                { address: getAddress(usdc), symbol: 'USDC', name: 'USD Coin', decimals: 6 },
                { address: getAddress(weth), symbol: 'WETH', name: 'Wrapped Ether', decimals: 18 },
              ],
              stablecoin: getAddress(usdc),
              // Transactions to its router are swaps, as the indexer marks them.
              uniswapV2: { factory: getAddress(bob), router: getAddress(router), weth: getAddress(weth) },
            },
          },
        }),
        onramp: { ...testDb.config().onramp, senderAddresses: { [mainnet]: [onrampSender] } },
      }),
      { database: testDb.database, logger: logs.logger },
    )
  })
  after(async () => {
    await app?.close()
    await explorer?.stop()
    await testDb?.close()
  })
}
