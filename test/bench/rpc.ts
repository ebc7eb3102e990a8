/**
 * The RPC transport (SPEC section 9) against local Hardhat chains: JSON-RPC calls per HTTP request
 * under a burst of 200 concurrent reads, and how long requests take to leave an upstream that dies.
 * Run alone with `npx tsx test/bench/rpc.ts`, or as part of `npm run bench`.
 */
import { pathToFileURL } from 'node:url'
import { startChain } from '../../server/dev/chain/index.ts'
import { createConfig } from '../../src/core/createConfig.ts'
import type { Platform } from '../../src/core/platform.ts'
import { closeRpc, networkRpc } from '../../src/core/rpcUrl.ts'
import { delayed, freePort } from '../support/net.ts'

const NETWORK = 'eip155:31337'

function counting() {
  const posts: { origin: string; methods: string[]; at: number }[] = []
  const platform: Platform = {
    window: undefined,
    storage: undefined,
    fetch: (input, init) => {
      const body = JSON.parse(String(init?.body ?? 'null')) as { method: string } | { method: string }[]
      const calls = Array.isArray(body) ? body : [body]
      posts.push({
        origin: new URL(String(input)).origin,
        methods: calls.map((call) => call.method),
        at: performance.now(),
      })
      return fetch(input, init)
    },
    now: () => Date.now(),
    isMobile: () => false,
    prefersDark: () => false,
  }
  return { platform, posts }
}

export async function benchRpc(): Promise<void> {
  const [first, second] = await Promise.all([
    freePort().then((port) => startChain({ port })),
    freePort().then((port) => startChain({ port })),
  ])
  const backup = await delayed(second.url, 150)
  try {
    // 1. A burst of 200 concurrent reads, batched, against 200 separate POSTs (the transport before).
    const burst = counting()
    const config = createConfig({ networks: NETWORK, rpcUrls: { [NETWORK]: first.url } }, burst.platform)
    const rpc = networkRpc(config, NETWORK)
    await rpc('eth_chainId', [])
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const batchedMs: number[] = []
    const singleMs: number[] = []
    for (let round = 0; round < 5; round++) {
      burst.posts.length = 0
      let started = performance.now()
      await Promise.all(Array.from({ length: 200 }, () => rpc('eth_getBalance', [address, 'latest'])))
      batchedMs.push(performance.now() - started)
      started = performance.now()
      await Promise.all(
        Array.from({ length: 200 }, (_, id) =>
          fetch(first.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id,
              method: 'eth_getBalance',
              params: [address, 'latest'],
            }),
          }).then((response) => response.json()),
        ),
      )
      singleMs.push(performance.now() - started)
    }
    const calls = burst.posts.reduce((sum, post) => sum + post.methods.length, 0)
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
    console.log('\nRPC transport, 200 concurrent eth_getBalance on a local Hardhat chain (median of 5):')
    console.log(
      `  batched   ${calls} calls in ${burst.posts.length} HTTP request(s): ${(calls / burst.posts.length).toFixed(0)} calls per request, ${median(batchedMs).toFixed(0)} ms`,
    )
    console.log(`  one POST per call (200 HTTP requests): ${median(singleMs).toFixed(0)} ms`)
    closeRpc(config)

    // 2. Two upstreams, the second 150 ms further away; the first dies.
    const failover = counting()
    const both = createConfig(
      { networks: NETWORK, rpcUrls: { [NETWORK]: [first.url, backup.url] } },
      failover.platform,
    )
    const pair = networkRpc(both, NETWORK)
    await pair('eth_chainId', [])
    // Let the 4 s ping rank the faster first upstream on top.
    await new Promise((resolve) => setTimeout(resolve, 8_500))
    const stopped = performance.now()
    await first.stop()
    const stopMs = performance.now() - stopped
    const deadAt = performance.now()
    let firstAnswerMs: number | undefined
    let rankedMs: number | undefined
    const failoverMs: number[] = []
    while (rankedMs === undefined && performance.now() - deadAt < 60_000) {
      failover.posts.length = 0
      const asked = performance.now()
      await pair('eth_chainId', [])
      const took = performance.now() - asked
      firstAnswerMs ??= performance.now() - deadAt
      const origins = failover.posts
        .filter((post) => post.methods.includes('eth_chainId'))
        .map((post) => post.origin)
      if (origins.join() === new URL(backup.url).origin) rankedMs = performance.now() - deadAt
      else failoverMs.push(took)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    console.log('\nRPC fallback, two local upstreams (the second 150 ms slower), the first stopped:')
    console.log(`  stopping the first chain took ${stopMs.toFixed(0)} ms (SIGTERM until exit)`)
    console.log(`  first answer after the stop: ${firstAnswerMs?.toFixed(0)} ms`)
    console.log(
      `  requests that still tried the dead upstream first: ${failoverMs.length}, median ${median(failoverMs).toFixed(0)} ms each (the second's 150 ms included)`,
    )
    console.log(
      `  until the ping ranks the second first (no request to the dead one): ${rankedMs === undefined ? 'over 60 s' : `${(rankedMs / 1000).toFixed(1)} s`}`,
    )
    closeRpc(both)
  } finally {
    backup.server.close()
    await Promise.all([first.stop(), second.stop()])
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await benchRpc()
