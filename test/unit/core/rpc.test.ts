// The RPC transport of SPEC section 9 against real upstreams: two Hardhat chains on loopback (one is
// stopped mid-test) and a TCP server that never answers.
import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import type { Config } from '../../../src/core/createConfig.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { closeRpc, networkRpc, rpcUrlsFor } from '../../../src/core/rpcUrl.ts'
import { delayed, freePort } from '../../support/net.ts'

const NETWORK = 'eip155:31337'

interface Counted {
  config: Config
  /** Each HTTP request: its URL's origin and the JSON-RPC methods it carried (pings are `eth_blockNumber`). */
  posts: { url: string; calls: number; methods: string[] }[]
}

function counted(options: Parameters<typeof createConfig>[0]): Counted {
  const posts: Counted['posts'] = []
  const platform: Platform = {
    window: undefined,
    storage: undefined,
    fetch: async (input, init) => {
      const body = JSON.parse(String(init?.body ?? 'null')) as { method: string } | { method: string }[]
      const calls = Array.isArray(body) ? body : [body]
      posts.push({
        url: new URL(String(input)).origin,
        calls: calls.length,
        methods: calls.map((call) => call.method),
      })
      return fetch(input, init)
    },
    now: () => Date.now(),
    isMobile: () => false,
    prefersDark: () => false,
  }
  return { config: createConfig(options, platform), posts }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('RPC transport (SPEC 9)', () => {
  let first: LocalChain
  let second: LocalChain
  let silent: net.Server
  let silentUrl: string
  const configs: Config[] = []

  before(async () => {
    ;[first, second] = await Promise.all([
      freePort().then((port) => startChain({ port })),
      freePort().then((port) => startChain({ port })),
    ])
    // Accepts connections and never answers: a hung upstream.
    silent = net.createServer((socket) => socket.on('error', () => {}))
    await new Promise<void>((resolve) => silent.listen({ host: '127.0.0.1', port: 0 }, resolve))
    const address = silent.address()
    silentUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  })

  after(async () => {
    for (const config of configs) closeRpc(config)
    silent.close()
    await Promise.all([first.stop(), second.stop()])
  })

  test('default: the service proxy comes first, then the network default; the page’s own list wins', () => {
    const { config } = counted({ networks: NETWORK, apiUrl: 'http://127.0.0.1:1', projectId: 'p1' })
    config.$networks.set([
      {
        id: 31337,
        caipNetworkId: NETWORK,
        chainNamespace: 'eip155',
        name: 'Local',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
      },
    ])
    assert.deepEqual(rpcUrlsFor(config, NETWORK), [
      'http://127.0.0.1:1/v1/?projectId=p1&st=wallet-elements&sv=0.1.0&chainId=eip155%3A31337',
      'http://127.0.0.1:8545',
    ])
    config.update({ rpcUrls: { [NETWORK]: ['http://127.0.0.1:2', 'http://127.0.0.1:3'] } })
    assert.deepEqual(rpcUrlsFor(config, NETWORK), ['http://127.0.0.1:2', 'http://127.0.0.1:3'])
    config.update({ rpcUrls: { [NETWORK]: 'http://127.0.0.1:4' } })
    assert.deepEqual(rpcUrlsFor(config, NETWORK), ['http://127.0.0.1:4'])
    assert.equal(config.update({ rpcUrls: { [NETWORK]: [] } })[0]?.option, 'rpcUrls')
  })

  test('behavior: 200 concurrent reads go out as one JSON-RPC batch; 1500 as batches of at most 1000', async () => {
    const { config, posts } = counted({ networks: NETWORK, rpcUrls: { [NETWORK]: first.url } })
    configs.push(config)
    const rpc = networkRpc(config, NETWORK)
    const answers = await Promise.all(Array.from({ length: 200 }, () => rpc('eth_chainId', [])))
    assert.deepEqual(new Set(answers), new Set(['0x7a69']))
    assert.deepEqual(
      posts.map((post) => post.calls),
      [200],
    )
    posts.length = 0
    await Promise.all(Array.from({ length: 1500 }, () => rpc('eth_blockNumber', [])))
    assert.deepEqual(
      posts.map((post) => post.calls).sort((a, b) => b - a),
      [1000, 500],
    )
  })

  test('behavior: reads are exempt from abort, other methods are aborted', async () => {
    const { config, posts } = counted({ networks: NETWORK, rpcUrls: { [NETWORK]: first.url } })
    configs.push(config)
    const rpc = networkRpc(config, NETWORK)
    const aborted = AbortSignal.abort()
    assert.equal(await rpc('eth_chainId', [], { signal: aborted }), '0x7a69')
    await assert.rejects(rpc('eth_sendRawTransaction', ['0x00'], { signal: aborted }), {
      name: 'RequestAbortedError',
      shortMessage: 'Request was aborted',
    })
    // The read was sent; the aborted write never left.
    assert.equal(posts.length, 1)
  })

  test('error: an upstream that never answers times out at 10 s; with a second URL the request moves on', async () => {
    const lone = counted({ networks: NETWORK, rpcUrls: { [NETWORK]: silentUrl } })
    const both = counted({
      networks: NETWORK,
      rpcUrls: { [NETWORK]: [silentUrl, second.url] },
      enableLogger: true,
    })
    configs.push(lone.config, both.config)
    const started = Date.now()
    const [timedOut, movedOn] = await Promise.allSettled([
      networkRpc(lone.config, NETWORK)('eth_blockNumber', []),
      networkRpc(both.config, NETWORK)('eth_chainId', []),
    ])
    assert.ok(Date.now() - started >= 10_000)
    assert.equal(timedOut.status, 'rejected')
    assert.equal((timedOut as PromiseRejectedResult).reason.name, 'RequestTimeoutError')
    assert.equal((timedOut as PromiseRejectedResult).reason.shortMessage, 'Request timed out')
    assert.deepEqual(movedOn, { status: 'fulfilled', value: '0x7a69' })
    assert.deepEqual(
      both.posts.filter((post) => post.methods.includes('eth_chainId')).map((post) => post.url),
      [silentUrl, second.url],
    )
    // The log says which upstream failed, without its path or query.
    assert.ok(
      (await both.config.logger.entries()).some(
        (entry) => entry.level === 'warn' && entry.message === `RPC request failed at ${silentUrl}/…`,
      ),
    )
  })

  test('behavior: when the first upstream stops, requests fall back to the second, and the ping ranks it first', async () => {
    // The second upstream answers 150 ms later, so the ping ranks the first one first while it lives.
    const backup = await delayed(second.url, 150)
    try {
      const { config, posts } = counted({
        networks: NETWORK,
        rpcUrls: { [NETWORK]: [first.url, backup.url] },
        enableLogger: true,
      })
      configs.push(config)
      const rpc = networkRpc(config, NETWORK)
      const asked = () => posts.filter((post) => post.methods.includes('eth_chainId')).map((post) => post.url)
      assert.equal(await rpc('eth_chainId', []), '0x7a69')
      assert.deepEqual(asked(), [first.url])
      await sleep(4_500)
      posts.length = 0
      assert.equal(await rpc('eth_chainId', []), '0x7a69')
      assert.deepEqual(asked(), [first.url], 'the faster upstream is ranked first')

      await first.stop()
      posts.length = 0
      // Every request still answers: each fails at the first upstream and moves to the second.
      const answers = await Promise.all(Array.from({ length: 20 }, () => rpc('eth_chainId', [])))
      assert.deepEqual(new Set(answers), new Set(['0x7a69']))
      assert.deepEqual(asked(), [first.url, backup.url])
      assert.ok(
        (await config.logger.entries()).some(
          (entry) => entry.level === 'warn' && entry.message === `RPC request failed at ${first.url}/…`,
        ),
      )
      // After the next ping (every 4 s) the second upstream is asked first: nothing goes to the first.
      const deadline = Date.now() + 20_000
      for (;;) {
        posts.length = 0
        await rpc('eth_chainId', [])
        if (asked().join() === backup.url) break
        assert.ok(Date.now() < deadline, 'the second upstream was never ranked first')
        await sleep(250)
      }
    } finally {
      backup.server.close()
    }
  })
})
