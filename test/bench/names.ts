/**
 * Name registry benchmark: 1,000 names registered, then sequential lookups over loopback HTTP with an
 * allowed `Origin` (rate limits on, set high enough not to refuse): forward resolution
 * (`/names/v1/resolve`), reverse profile (`/names/v1/profile`) and the availability check of a taken
 * name (`/names/v1/check`, which also computes suggestions), each measured in alternation so all see
 * the same machine load; p50 and p99 in milliseconds. PGlite in memory.
 *
 * Run alone: `npx tsx test/bench/names.ts` (optional env: NAMES_BENCH_CALLS, default 1000 per kind).
 */
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { names } from '../../server/db/schema.ts'

export interface NamesBenchResult {
  registered: number
  calls: number
  resolve: { p50: number; p99: number }
  profile: { p50: number; p99: number }
  check: { p50: number; p99: number }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

function get(url: string, origin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const request = httpRequest(url, { headers: { origin } }, (response) => {
      response.resume()
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`${url}: HTTP ${response.statusCode}`))
        else resolve(performance.now() - start)
      })
    })
    request.on('error', reject)
    request.end()
  })
}

/**
 * Runs the bench and returns the figures.
 *
 * @example
 * const { resolve } = await benchNames({ calls: 500 })
 */
export async function benchNames(options: { calls?: number } = {}): Promise<NamesBenchResult> {
  const calls = options.calls ?? 1000
  const origin = 'http://127.0.0.1:5173'
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DATA: '1000000',
  })
  const app = await buildApp({ ...config, devOrigins: [origin], rpcUpstreams: {} })
  try {
    const registered = 1000
    const rows = Array.from({ length: registered }, (_, index) => ({
      suffix: config.nameSuffix,
      label: `bench-user-${index}`,
      address: `0x${index.toString(16).padStart(40, '0')}`,
      chainId: 'eip155:31337',
      issuedAt: new Date(),
    }))
    await app.database.db.insert(names).values(rows)
    await app.listen({ host: '127.0.0.1', port: 0 })
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const sdk = 'projectId=dev-project&st=bench&sv=1'
    const times = { resolve: [] as number[], profile: [] as number[], check: [] as number[] }
    for (let index = 0; index < calls; index += 1) {
      const n = index % registered
      times.resolve.push(
        await get(`${base}/names/v1/resolve?name=bench-user-${n}.${config.nameSuffix}&${sdk}`, origin),
      )
      times.profile.push(await get(`${base}/names/v1/profile?address=${rows[n]?.address}&${sdk}`, origin))
      times.check.push(await get(`${base}/names/v1/check?name=bench-user-${n}&${sdk}`, origin))
    }
    const figures = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b)
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
    }
    return {
      registered,
      calls,
      resolve: figures(times.resolve),
      profile: figures(times.profile),
      check: figures(times.check),
    }
  } finally {
    await app.close()
  }
}

/** Prints the figures as `npm run bench` does. */
export function printNames(result: NamesBenchResult): void {
  const line = (name: string, value: { p50: number; p99: number }) =>
    console.log(`  ${name.padEnd(40)} p50 ${value.p50.toFixed(2)} ms, p99 ${value.p99.toFixed(2)} ms`)
  console.log(
    `\nName registry, ${result.registered} names, ${result.calls} sequential calls of each kind over loopback:`,
  )
  line('resolve (name -> addresses)', result.resolve)
  line('profile (address -> name, avatar)', result.profile)
  line('check of a taken name (with suggestions)', result.check)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printNames(await benchNames({ calls: Number(process.env.NAMES_BENCH_CALLS) || 1000 }))
}
