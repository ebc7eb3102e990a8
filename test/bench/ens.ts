/**
 * ENS resolution benchmark: viem's `getEnsAddress` (and `getEnsName`, reverse) of a name registered in the service, through the
 * universal resolver and the offchain resolver deployed on a local Hardhat chain, the service's
 * EIP-3668 gateway answering over loopback (PGlite in memory). One first resolve, then 100 sequential
 * ones on a transport without retries, then 20 on viem's default one (Hardhat answers a reverting
 * `eth_call` as -32603, which viem retries 3 times with backoff); p50 and p99 in milliseconds.
 *
 * Run alone: `npx tsx test/bench/ens.ts` (optional env: ENS_BENCH_CALLS, default 100).
 */
import { pathToFileURL } from 'node:url'
import { ccipRequest, createPublicClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { names } from '../../server/db/schema.ts'
import { deployEns } from '../../server/dev/chain/ens.ts'
import { devAccount, startChain } from '../../server/dev/chain/index.ts'
import { freePort } from '../unit/server/helpers.ts'

export interface EnsBenchResult {
  calls: number
  first: number
  resolve: { p50: number; p99: number }
  /** With viem's default transport: Hardhat answers reverts as -32603, which viem retries 3 times. */
  resolveWithRetries: { calls: number; p50: number; p99: number }
  /** The gateway's part of each resolve: viem's CCIP-read request to the service. */
  gateway: { p50: number; p99: number }
  /** `getEnsName` (reverse, then the name checked forward: two CCIP-read lookups), no retries. */
  reverse: { p50: number; p99: number }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

/**
 * Runs the bench and returns the figures.
 *
 * @example
 * const { resolve } = await benchEns({ calls: 100 })
 */
export async function benchEns(options: { calls?: number } = {}): Promise<EnsBenchResult> {
  const calls = options.calls ?? 100
  const key = generatePrivateKey()
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_DATA: '1000000',
  })
  const [app, chain] = await Promise.all([
    buildApp({ ...config, rpcUpstreams: {}, nameGatewayKey: key }),
    startChain({ port: await freePort(), chainId: 31337 }),
  ])
  try {
    const holder = devAccount(0).address
    await app.database.db.insert(names).values({
      suffix: config.nameSuffix,
      label: 'bench-user',
      address: holder.toLowerCase(),
      chainId: 'eip155:31337',
      issuedAt: new Date(),
    })
    const service = await app.listen({ host: '127.0.0.1', port: 0 })
    const ens = await deployEns({
      url: chain.url,
      suffix: config.nameSuffix,
      gatewayUrl: `${service}/names/v1/gateway/{sender}/{data}.json`,
      signer: privateKeyToAddress(key),
    })
    const gatewayTimes: number[] = []
    const timed = (retryCount?: number) =>
      createPublicClient({
        transport: http(chain.url, retryCount === undefined ? {} : { retryCount }),
        ccipRead: {
          // viem's own request, timed.
          async request(parameters) {
            const start = performance.now()
            const answer = await ccipRequest(parameters)
            gatewayTimes.push(performance.now() - start)
            return answer
          },
        },
      })
    const client = timed(0)
    const resolve = async (by = client) => {
      const start = performance.now()
      const address = await by.getEnsAddress({
        name: `bench-user.${config.nameSuffix}`,
        universalResolverAddress: ens.universalResolver,
        strict: true,
      })
      if (address !== holder) throw new Error(`benchEns: resolved ${address}, expected ${holder}`)
      return performance.now() - start
    }
    const first = await resolve()
    gatewayTimes.length = 0
    const times: number[] = []
    for (let index = 0; index < calls; index += 1) times.push(await resolve())
    const figures = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b)
      return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
    }
    const gateway = figures(gatewayTimes)
    const reverseTimes: number[] = []
    for (let index = 0; index < calls; index += 1) {
      const start = performance.now()
      const name = await client.getEnsName({
        address: holder,
        universalResolverAddress: ens.universalResolver,
        strict: true,
      })
      if (name !== `bench-user.${config.nameSuffix}`) throw new Error(`benchEns: reverse gave ${name}`)
      reverseTimes.push(performance.now() - start)
    }
    const withRetries: number[] = []
    const defaults = timed()
    for (let index = 0; index < 20; index += 1) withRetries.push(await resolve(defaults))
    return {
      calls,
      first,
      resolve: figures(times),
      resolveWithRetries: { calls: withRetries.length, ...figures(withRetries) },
      gateway,
      reverse: figures(reverseTimes),
    }
  } finally {
    await app.close()
    await chain.stop()
  }
}

/** Prints the figures as `npm run bench` does. */
export function printEns(result: EnsBenchResult): void {
  console.log(
    `\nENS resolution (viem getEnsAddress -> universal resolver -> CCIP-read gateway), local chain, no retries:`,
  )
  console.log(`  first resolve ${result.first.toFixed(1)} ms`)
  console.log(
    `  ${result.calls} sequential resolves: p50 ${result.resolve.p50.toFixed(2)} ms, p99 ${result.resolve.p99.toFixed(2)} ms`,
  )
  console.log(
    `  ${result.resolveWithRetries.calls} with viem's default retries: p50 ${result.resolveWithRetries.p50.toFixed(2)} ms, p99 ${result.resolveWithRetries.p99.toFixed(2)} ms`,
  )
  console.log(
    `  of which the gateway request: p50 ${result.gateway.p50.toFixed(2)} ms, p99 ${result.gateway.p99.toFixed(2)} ms`,
  )
  console.log(
    `  ${result.calls} sequential reverse lookups (getEnsName, checked forward): p50 ${result.reverse.p50.toFixed(2)} ms, p99 ${result.reverse.p99.toFixed(2)} ms`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printEns(await benchEns({ calls: Number(process.env.ENS_BENCH_CALLS) || 100 }))
}
