// Shared set-up of the history tests: a local chain with transfers, the indexer and the service.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { eq, sql } from 'drizzle-orm'
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
import type { ServiceConfig } from '../../../server/config.ts'
import type { ServiceDatabase } from '../../../server/db/database.ts'
import { historyNetworks, historyTransfers } from '../../../server/db/schema.ts'
import { compileContracts } from '../../../server/dev/chain/compile.ts'
import { devAccount, type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { deployMarket, type LocalMarket, marketTokenList } from '../../../server/dev/chain/market.ts'
import { type TransactionsResponse, transactionsResponse } from '../../../src/protocol/api/index.ts'
import { freePort, openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

export const site = 'http://localhost:5173'
export const local = 'eip155:31337'
export const alice = devAccount(1)
export const bob = devAccount(2)
export const carol = devAccount(3)
export const dave = devAccount(4)
export const routerAbi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
])

export let testDb: TestDatabase
export let chain: LocalChain
export let chainPort: number
export let market: LocalMarket
export let config: ServiceConfig
export const apps: FastifyInstance[] = []

export function clients(url: string) {
  const transport = http(url)
  const chainInfo = {
    id: 31337,
    name: 'Local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  }
  return {
    publicClient: createPublicClient({ chain: chainInfo, transport }),
    wallet: (account: typeof alice) => createWalletClient({ account, chain: chainInfo, transport }),
  }
}

export async function startService(database: ServiceDatabase = testDb.database): Promise<FastifyInstance> {
  const app = await buildApp(config, { database, logger: testLogger })
  apps.push(app)
  return app
}

export async function stopService(app: FastifyInstance): Promise<void> {
  await app.close()
  apps.splice(apps.indexOf(app), 1)
}

export async function transactions(app: FastifyInstance, query: Record<string, string>) {
  const search = new URLSearchParams({ chainId: local, ...query })
  return app.inject({ url: `/blockchain/v1/transactions?${sdk()}&${search}`, headers: { origin: site } })
}

export async function page(
  app: FastifyInstance,
  query: Record<string, string>,
): Promise<TransactionsResponse> {
  const response = await transactions(app, query)
  assert.equal(response.statusCode, 200, response.body)
  return transactionsResponse.parse(response.json())
}

/** Waits until the indexer has stored every block up to the chain's head (checked every 50 ms). */
export async function indexed(url = chain.url): Promise<void> {
  const head = Number(await clients(url).publicClient.getBlockNumber())
  const deadline = Date.now() + 20_000
  for (;;) {
    const [row] = await testDb.database.db
      .select({ nextBlock: historyNetworks.nextBlock })
      .from(historyNetworks)
      .where(eq(historyNetworks.chainId, local))
    if (row && row.nextBlock > head) return
    if (Date.now() > deadline) throw new Error(`Not indexed up to block ${head} (at ${row?.nextBlock})`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export async function holder(): Promise<string | null> {
  const [row] = await testDb.database.db
    .select({ holder: historyNetworks.holder })
    .from(historyNetworks)
    .where(eq(historyNetworks.chainId, local))
  return row?.holder ?? null
}

export async function storedTransfers(): Promise<number> {
  const [row] = await testDb.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(historyTransfers)
    .where(eq(historyTransfers.chainId, local))
  return row?.count ?? 0
}

export let sendHash: Hex
export let usdcHash: Hex
export let swapHash: Hex
export let spamToken: Address
export let onrampHash: Hex
/** How many transactions alice and bob had once the first test saw them indexed. */
export let aliceCount = 0
export let bobCount = 0

/** Tests move `aliceCount` through this: an imported binding cannot be assigned. */
export function setAliceCount(value: typeof aliceCount) {
  aliceCount = value
}

/** Tests move `bobCount` through this: an imported binding cannot be assigned. */
export function setBobCount(value: typeof bobCount) {
  bobCount = value
}

/** Tests move `chain` through this: an imported binding cannot be assigned. */
export function setChain(value: typeof chain) {
  chain = value
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startHistoryService() {
  before(
    async () => {
      chainPort = await freePort()
      chain = await startChain({ port: chainPort, chainId: 31337 })
      market = await deployMarket({ url: chain.url, chainId: 31337 })
      testDb = await openTestDatabase('history')
      config = testDb.config({
        devOrigins: [site],
        rpcUpstreams: { [local]: chain.url },
        tokenLists: parseTokenLists({ networks: { [local]: marketTokenList(market) } }),
        historyNetworks: [local],
        historyPollMs: 100,
        // The on-ramp's account (its deliveries are marked): carol.
        onramp: {
          providerUrl: null,
          apiKey: null,
          webhookSecret: null,
          senderAddresses: { [local]: [carol.address] },
        },
      })
      const { publicClient, wallet } = clients(chain.url)
      sendHash = await wallet(alice).sendTransaction({ to: bob.address, value: parseEther('1.5') })
      usdcHash = await wallet(alice).writeContract({
        address: market.tokens.USDC.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [bob.address, parseUnits('12.5', 6)],
      })
      swapHash = await wallet(alice).writeContract({
        address: market.uniswapV2.router,
        abi: routerAbi,
        functionName: 'swapExactETHForTokens',
        args: [0n, [market.tokens.WETH.address, market.tokens.USDC.address], alice.address, 2n ** 40n],
        value: parseEther('0.1'),
      })
      // A token no list has, sent to bob unasked: spam.
      const { DevToken } = await compileContracts()
      if (!DevToken) throw new Error('DevToken did not compile')
      const deployHash = await wallet(carol).deployContract({
        abi: DevToken.abi,
        bytecode: DevToken.bytecode,
        args: ['Free Money', 'FREE', 18, parseEther('1000')],
      })
      const receipt = await publicClient.waitForTransactionReceipt({ hash: deployHash })
      spamToken = receipt.contractAddress as Address
      // An on-ramp delivery: 50 USDC from the on-ramp's account to dave.
      onrampHash = await wallet(carol).writeContract({
        address: market.tokens.USDC.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [dave.address, parseUnits('50', 6)],
      })
      await wallet(carol).writeContract({
        address: spamToken,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [bob.address, parseEther('100')],
      })
    },
    { timeout: 120_000 },
  )
  after(async () => {
    for (const app of [...apps]) await app.close()
    await testDb?.close()
    await chain?.stop()
  })
}
