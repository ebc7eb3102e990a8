/**
 * Companion service benchmark:
 * - `/getWallets` (a 40-entry page, with an allowed `Origin`) under autocannon on loopback: 10
 *   connections for 10 s, the load generator on its own worker thread; requests per second and
 *   p50/p99 latency. Measured with the default configuration (pages reused for CACHE_MS = 5 s), then
 *   with the cache off (every request queries the database);
 * - the RPC proxy's overhead: the median of 200 sequential `eth_blockNumber` calls straight to a small
 *   local JSON-RPC server, against the median of 200 through `POST /v1/` (allow-list and rate limits on,
 *   the limits set high enough not to refuse), 200 with the rate limits off, and 200 of a method the
 *   allow-list refuses, taken in alternation so all see the same machine load;
 * - analytics ingestion: one client posting single events as fast as it can under the default limit
 *   (600 events a minute per client and project): how many are accepted before the first 429, when it
 *   comes, and the accepted and refused rates after it; then the ingest rate of many clients at once.
 *
 * Uses PGlite in memory, or PostgreSQL when `DATABASE_URL` is set (in a throwaway schema).
 * Run alone: `npx tsx test/bench/server.ts` (optional env: SERVER_BENCH_SECONDS, SERVER_BENCH_CONNECTIONS).
 */
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { createDatabase } from '../../server/db/database.ts'
import { createLogger } from '../../server/logger.ts'
import { type AnalyticsBenchResult, benchAnalytics } from './server-analytics.ts'

/** The part of autocannon's result this bench reads (autocannon ships no types). */
interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number; average: number }
  errors: number
  timeouts: number
  non2xx: number
  duration: number
}

type Autocannon = (options: {
  url: string
  connections: number
  duration: number
  workers?: number
  method?: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
}) => Promise<AutocannonResult>

/** autocannon, typed for what the benches use. */
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

export interface ServerBenchOptions {
  /** Load test length in seconds. Default 10. */
  durationSeconds?: number
  /** Concurrent connections of the load test. Default 10. */
  connections?: number
  /** Sequential calls per side of the RPC comparison. Default 200. */
  rpcCalls?: number
  /** Also load-test with the cache off. Default true. */
  uncached?: boolean
  /** Where the report goes. Default `console.log`. */
  print?: (line: string) => void
}

export interface LoadResult {
  durationSeconds: number
  connections: number
  requestsPerSecond: number
  totalRequests: number
  latencyP50Ms: number
  latencyP99Ms: number
  errors: number
  non2xx: number
}

export interface ServerBenchResult {
  database: 'pglite' | 'postgres'
  /** With the default configuration (catalogue pages cached for 5 s per instance). */
  getWallets: LoadResult
  /** With CACHE_MS=0: every request reads the database. Null when skipped. */
  getWalletsUncached: LoadResult | null
  rpcProxy: {
    calls: number
    directMedianMs: number
    proxiedMedianMs: number
    overheadMedianMs: number
    /** Through the proxy with the rate limits off: the allow-list alone. */
    withoutLimitsMedianMs: number
    /** A method the allow-list refuses (answered by the proxy, no upstream call). */
    refusedMedianMs: number
  }
  analytics: AnalyticsBenchResult
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

async function startJsonRpcServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
    })
    request.on('end', () => {
      const { id } = JSON.parse(body) as { id: number }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

async function timedCall(url: string, id: number, method = 'eth_blockNumber'): Promise<number> {
  const started = performance.now()
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: [] }),
  })
  const answer = (await response.json()) as { result?: string; error?: { code: number } }
  const elapsed = performance.now() - started
  const expected = method === 'eth_blockNumber' ? answer.result === '0x2a' : answer.error?.code === -32601
  if (!expected) throw new Error(`Unexpected answer from ${url}: ${JSON.stringify(answer)}`)
  return elapsed
}

async function loadTest(url: string, connections: number, durationSeconds: number): Promise<LoadResult> {
  const headers = { origin: 'http://localhost:5173' }
  const check = await fetch(url, { headers })
  const page = (await check.json()) as { data?: unknown[] }
  if (check.status !== 200 || page.data?.length !== 40)
    throw new Error(`Unexpected /getWallets answer ${check.status}`)
  // Warm up: JIT, caches and the database's plans.
  for (let index = 0; index < 50; index++) await (await fetch(url, { headers })).arrayBuffer()
  const load = await autocannon({ url, connections, duration: durationSeconds, workers: 1, headers })
  return {
    durationSeconds,
    connections,
    requestsPerSecond: load.requests.average,
    totalRequests: load.requests.total,
    latencyP50Ms: load.latency.p50,
    latencyP99Ms: load.latency.p99,
    errors: load.errors + load.timeouts,
    non2xx: load.non2xx,
  }
}

function describeLoad(label: string, result: LoadResult): string {
  return (
    `  ${label}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyP50Ms.toFixed(1)} ms, ` +
    `p99 ${result.latencyP99Ms.toFixed(1)} ms (${result.totalRequests} requests, ${result.errors} errors, ` +
    `${result.non2xx} non-2xx)`
  )
}

/**
 * Runs the service benchmark, prints a short report and returns the numbers.
 *
 * @example
 * const { getWallets, rpcProxy } = await benchServer({ durationSeconds: 10 })
 */
export async function benchServer(options: ServerBenchOptions = {}): Promise<ServerBenchResult> {
  const durationSeconds = options.durationSeconds ?? 10
  const connections = options.connections ?? 10
  const rpcCalls = options.rpcCalls ?? 200
  const print = options.print ?? ((line: string) => console.log(line))

  const databaseUrl = process.env.DATABASE_URL
  const schema = `bench_${randomBytes(4).toString('hex')}`
  const upstream = await startJsonRpcServer()
  const config = {
    ...loadConfig({
      NODE_ENV: 'development',
      DATA_DIR: 'memory://',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    }),
    port: 0,
    logLevel: 'warn' as const,
    rpcUpstreams: { 'eip155:31337': upstream.url },
    // Analytics clients are told apart by X-Forwarded-For, as behind a load balancer.
    trustProxyHops: 1,
  }
  const logger = createLogger('warn')
  const database = await createDatabase(config, { logger })
  // The proxy's overhead is measured with its rate limits on but out of reach of 200 quick calls.
  const app = await buildApp(
    {
      ...config,
      rateLimits: { ...config.rateLimits, rpcPerSecond: 1_000_000, rpcEntriesPerSecond: 1_000_000 },
    },
    { database, logger },
  )
  const unlimitedApp = await buildApp(
    {
      ...config,
      devProjectId: null,
      rateLimits: {
        rpcPerSecond: 0,
        rpcEntriesPerSecond: 0,
        analyticsEventsPerMinute: 0,
        signInPerMinute: 0,
        walletPerMinute: 0,
        dataPerSecond: 0,
      },
    },
    { database, logger },
  )
  const uncachedApp =
    options.uncached === false
      ? null
      : await buildApp({ ...config, devProjectId: null, cacheMs: 0 }, { database, logger })
  try {
    const base = await app.listen({ host: '127.0.0.1', port: 0 })
    const query = '/getWallets?projectId=dev-project&st=bench&sv=0&page=1&entries=40'
    const getWallets = await loadTest(`${base}${query}`, connections, durationSeconds)
    let getWalletsUncached: LoadResult | null = null
    if (uncachedApp) {
      const uncachedBase = await uncachedApp.listen({ host: '127.0.0.1', port: 0 })
      getWalletsUncached = await loadTest(`${uncachedBase}${query}`, connections, durationSeconds)
      await uncachedApp.close()
    }

    const proxyQuery = '/v1/?chainId=eip155:31337&projectId=dev-project'
    const proxyUrl = `${base}${proxyQuery}`
    const unlimitedUrl = `${await unlimitedApp.listen({ host: '127.0.0.1', port: 0 })}${proxyQuery}`
    const direct: number[] = []
    const proxied: number[] = []
    const unlimited: number[] = []
    const refused: number[] = []
    for (let index = 0; index < 20; index++) {
      await timedCall(upstream.url, index)
      await timedCall(proxyUrl, index)
      await timedCall(unlimitedUrl, index)
      await timedCall(proxyUrl, index, 'hardhat_setCode')
    }
    for (let index = 0; index < rpcCalls; index++) {
      direct.push(await timedCall(upstream.url, index))
      proxied.push(await timedCall(proxyUrl, index))
      unlimited.push(await timedCall(unlimitedUrl, index))
      refused.push(await timedCall(proxyUrl, index, 'hardhat_setCode'))
    }
    const rpcProxy = {
      calls: rpcCalls,
      directMedianMs: median(direct),
      proxiedMedianMs: median(proxied),
      overheadMedianMs: median(proxied) - median(direct),
      withoutLimitsMedianMs: median(unlimited),
      refusedMedianMs: median(refused),
    }
    await unlimitedApp.close()
    const analytics = await benchAnalytics(base, config.rateLimits.analyticsEventsPerMinute, durationSeconds)

    print(
      `\nCompanion service (${database.kind}), loopback, GET /getWallets (40 entries), ${connections} connections, ${durationSeconds} s:`,
    )
    print(describeLoad('default (pages cached 5 s)', getWallets))
    if (getWalletsUncached) print(describeLoad('cache off (database every time)', getWalletsUncached))
    print(
      `  RPC proxy, ${rpcCalls} sequential eth_blockNumber: direct median ${rpcProxy.directMedianMs.toFixed(2)} ms, ` +
        `through /v1/ ${rpcProxy.proxiedMedianMs.toFixed(2)} ms (allow-list and rate limits), overhead ${rpcProxy.overheadMedianMs.toFixed(2)} ms; ` +
        `rate limits off ${rpcProxy.withoutLimitsMedianMs.toFixed(2)} ms; a refused method ${rpcProxy.refusedMedianMs.toFixed(2)} ms`,
    )
    print(
      `  POST /e, one client flat out, limit ${analytics.limitPerMinute} events a minute: first 429 after ` +
        `${analytics.acceptedBeforeFirst429} accepted events (${analytics.secondsToFirst429.toFixed(1)} s); then ` +
        `${analytics.acceptedPerSecondAfter.toFixed(1)} accepted and ${analytics.refusedPerSecondAfter.toFixed(0)} refused a second`,
    )
    print(
      `  POST /e, many clients: ${analytics.manyClientsEventsPerSecond.toFixed(0)} events stored a second, p99 ${analytics.manyClientsP99Ms.toFixed(1)} ms`,
    )
    return { database: database.kind, getWallets, getWalletsUncached, rpcProxy, analytics }
  } finally {
    await uncachedApp?.close()
    await unlimitedApp.close()
    await app.close()
    await database.close()
    upstream.server.closeAllConnections()
    await new Promise<void>((resolve) => upstream.server.close(() => resolve()))
    if (databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end())
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.env.SERVER_BENCH_SECONDS ?? 10)
  const connections = Number(process.env.SERVER_BENCH_CONNECTIONS ?? 10)
  benchServer({ durationSeconds: seconds, connections }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
