/**
 * Transaction history benchmark, on a local Hardhat chain with the local market:
 * - the indexer's catch-up rate: a chain with N blocks (one ETH send and one ERC-20 transfer per
 *   block, from several dev accounts), then a service started on an empty database, timed from start
 *   until it has stored every block: blocks and transfers per second;
 * - `GET /blockchain/v1/transactions` latency: 500 sequential requests (first pages, and pages by
 *   cursor) of the most active account, through `inject` (no network), p50 and p99.
 *
 * Uses PGlite in memory, or PostgreSQL when `DATABASE_URL` is set (in a throwaway schema).
 * Run alone: `npx tsx test/bench/history.ts` (optional env: HISTORY_BENCH_BLOCKS, default 600).
 */
import { randomBytes } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { createWalletClient, erc20Abi, http, parseUnits } from 'viem'
import { buildApp } from '../../server/app.ts'
import { parseTokenLists } from '../../server/blockchain/tokenLists.ts'
import { loadConfig } from '../../server/config.ts'
import { createDatabase } from '../../server/db/database.ts'
import { historyNetworks } from '../../server/db/schema.ts'
import { devAccount, startChain } from '../../server/dev/chain/index.ts'
import { deployMarket, marketTokenList } from '../../server/dev/chain/market.ts'
import { createLogger } from '../../server/logger.ts'
import { freePort } from '../support/net.ts'

export interface HistoryBenchResult {
  blocks: number
  transfers: number
  catchUpMs: number
  blocksPerSecond: number
  transfersPerSecond: number
  requests: number
  latencyMs: { p50: number; p99: number }
  database: 'PGlite' | 'PostgreSQL'
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

/**
 * Runs the history bench and prints its lines.
 *
 * @example
 * const result = await benchHistory()
 */
export async function benchHistory(
  sends = Number(process.env.HISTORY_BENCH_BLOCKS ?? 600),
): Promise<HistoryBenchResult> {
  const local = 'eip155:31337'
  const chain = await startChain({ port: await freePort(), chainId: 31337 })
  const databaseUrl = process.env.DATABASE_URL
  const schema = `bench_history_${randomBytes(4).toString('hex')}`
  try {
    const market = await deployMarket({ url: chain.url, chainId: 31337 })
    const senders = [1, 2, 3, 4].map((index) => devAccount(index))
    const transport = http(chain.url, { retryCount: 0 })
    const chainInfo = {
      id: 31337,
      name: 'Local',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.url] } },
    }
    const receiver = devAccount(5).address
    // Each block: one USDC transfer (a Transfer log) and its transaction; every other one an ETH send too.
    for (let index = 0; index < sends; index++) {
      const sender = senders[index % senders.length] as (typeof senders)[number]
      const wallet = createWalletClient({ account: sender, chain: chainInfo, transport })
      if (index % 2 === 0) await wallet.sendTransaction({ to: receiver, value: 1_000n + BigInt(index) })
      else
        await wallet.writeContract({
          address: market.tokens.USDC.address,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [receiver, parseUnits('1', 6)],
        })
    }
    const config = {
      ...loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: 'memory://',
        LOG_LEVEL: 'silent',
        RATE_LIMIT_DATA: '1000000',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
      }),
      devOrigins: ['http://localhost:5173'],
      rpcUpstreams: { [local]: chain.url },
      tokenLists: parseTokenLists({ networks: { [local]: marketTokenList(market) } }),
      historyNetworks: [local],
      historyPollMs: 50,
    }
    const logger = createLogger('silent')
    const database = await createDatabase(config, { logger })
    const headHex = (await (
      await fetch(chain.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      })
    ).json()) as { result: string }
    const head = Number(BigInt(headHex.result))
    const started = performance.now()
    const app = await buildApp(config, { database, logger })
    try {
      for (;;) {
        const [row] = await database.db
          .select()
          .from(historyNetworks)
          .where(eq(historyNetworks.chainId, local))
        if (row && row.nextBlock > head) break
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const catchUpMs = performance.now() - started
      const { blocks, transfers } = app.historyIndexer.indexed

      // The endpoint: the receiver has a transaction in every block.
      const query = `projectId=dev-project&st=wallet-elements&sv=0.1.0&chainId=${local}&account=${receiver}`
      const times: number[] = []
      let cursor: string | null = null
      const requests = 500
      for (let index = 0; index < requests; index++) {
        const begin = performance.now()
        const response: { statusCode: number; json(): unknown } = await app.inject({
          url: `/blockchain/v1/transactions?${query}${cursor ? `&cursor=${cursor}` : ''}`,
          headers: { origin: 'http://localhost:5173' },
        })
        times.push(performance.now() - begin)
        if (response.statusCode !== 200) throw new Error(`transactions answered ${response.statusCode}`)
        // Walk the pages by cursor, then start over from the first.
        cursor = (response.json() as { next: string | null }).next
      }
      times.sort((a, b) => a - b)
      const result: HistoryBenchResult = {
        blocks,
        transfers,
        catchUpMs,
        blocksPerSecond: (blocks / catchUpMs) * 1000,
        transfersPerSecond: (transfers / catchUpMs) * 1000,
        requests,
        latencyMs: { p50: percentile(times, 50), p99: percentile(times, 99) },
        database: databaseUrl ? 'PostgreSQL' : 'PGlite',
      }
      console.log(`\nTransaction history (local Hardhat chain, ${result.database}):`)
      console.log(
        `  indexer catch-up: ${blocks} blocks, ${transfers} transfers in ${(catchUpMs / 1000).toFixed(2)} s: ${result.blocksPerSecond.toFixed(0)} blocks/s, ${result.transfersPerSecond.toFixed(0)} transfers/s`,
      )
      console.log(
        `  GET /blockchain/v1/transactions (20 per page, ${requests} sequential, first page and by cursor): p50 ${result.latencyMs.p50.toFixed(1)} ms, p99 ${result.latencyMs.p99.toFixed(1)} ms`,
      )
      return result
    } finally {
      await app.close()
      await database.close()
    }
  } finally {
    await chain.stop()
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end())
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchHistory()
  process.exit(0)
}
