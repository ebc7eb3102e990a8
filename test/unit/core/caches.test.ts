// SPEC 9 caches on a page left open for an hour of fake time: balances (30 s) and token lists with
// prices (the portfolio, 30 s) are read again once stale, entries of accounts, networks and lists no one
// asked for in 5 minutes are collected, retry blocks end, nothing grows. Real parts: a local Hardhat
// chain, the companion service on loopback (token lists, RPC proxy, PGlite) and, for a network whose
// RPC is down, a closed port behind both the proxy and the network's own URL.
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { parseTokenLists } from '../../../server/blockchain/tokenLists.ts'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { fetchBalance } from '../../../src/core/actions/fetchBalance.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { closeRpc } from '../../../src/core/rpcUrl.ts'
import { cachedTokenLists } from '../../../src/core/tokenList.ts'
import { BALANCE_CACHE_MS, CACHE_GC_MS, PORTFOLIO_CACHE_MS } from '../../../src/protocol/constants.ts'
import type { Network } from '../../../src/protocol/entities.ts'
import { freePort } from '../../support/net.ts'
import { openTestDatabase, type TestDatabase, testLogger } from '../server/helpers.ts'

const local = (id: number, url: string): Network => ({
  id,
  caipNetworkId: `eip155:${id}`,
  chainNamespace: 'eip155',
  name: `Local ${id}`,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [url] } },
})

// One listed token per network (no contract behind it: without a Multicall3 only ETH is read).
const list = (address: string) => ({
  tokens: [{ address, symbol: 'TKN', name: 'Token', decimals: 18 }],
})

describe('caches (SPEC 9)', () => {
  let chain: LocalChain
  let closedUrl: string
  let testDb: TestDatabase
  let app: FastifyInstance
  let apiUrl: string

  before(
    async () => {
      chain = await startChain({ port: await freePort() })
      closedUrl = `http://127.0.0.1:${await freePort()}`
      testDb = await openTestDatabase('core_caches')
      app = await buildApp(
        testDb.config({
          rpcUpstreams: { 'eip155:31337': chain.url, 'eip155:31338': closedUrl },
          tokenLists: parseTokenLists({
            networks: {
              'eip155:31337': list('0x1111111111111111111111111111111111111111'),
              'eip155:31338': list('0x2222222222222222222222222222222222222222'),
            },
          }),
        }),
        { database: testDb.database, logger: testLogger },
      )
      await app.listen({ host: '127.0.0.1', port: 0 })
      apiUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    },
    { timeout: 90_000 },
  )
  after(async () => {
    await app?.close()
    await testDb?.close()
    await chain?.stop()
  })

  test('behavior: an hour of fake time with a new account every minute keeps at most 5 minutes of balances and token lists', async () => {
    let now = Date.parse('2026-11-24T10:00:00Z')
    const tokenListFetches: string[] = []
    const platform: Platform = {
      window: undefined,
      storage: undefined,
      fetch: (input, init) => {
        const url = new URL(String(input))
        if (url.pathname.startsWith('/blockchain/v1/tokens')) tokenListFetches.push(url.search)
        return fetch(input, init)
      },
      now: () => now,
      isMobile: () => false,
      prefersDark: () => false,
    }
    const config = createConfig(
      { networks: 'eip155:31337,eip155:31338', apiUrl, projectId: 'dev-project' },
      platform,
    )
    config.$networks.set([local(31337, chain.url), local(31338, closedUrl)])
    const balanceSizes: number[] = []
    const listSizes: number[] = []
    for (let minute = 0; minute < 60; minute++) {
      // In the first half hour, every fifth minute the account is on the network whose RPC is down:
      // a failure blocks retries; that network's token list is then not asked for again.
      const chainId = minute < 30 && minute % 5 === 4 ? 'eip155:31338' : 'eip155:31337'
      const address = `0x${(minute + 1).toString(16).padStart(40, '0')}`
      config.$connections.setKey('eip155', {
        status: 'connected',
        connectorId: 'clock',
        accounts: [address],
        chainId,
      })
      const fetchesBefore = tokenListFetches.length
      const balance = await fetchBalance(config)
      assert.equal(balance?.status, chainId === 'eip155:31337' ? 'ready' : 'error')
      // A minute later both caches are stale (30 s): the list is asked for again.
      assert.equal(tokenListFetches.length, fetchesBefore + 1, `minute ${minute}: the token list is read`)
      balanceSizes.push(Object.keys(config.$balances.get()).length)
      listSizes.push(cachedTokenLists(config).length)
      assert.ok(config.internal.balanceBlockedUntil.size <= 1, 'retry blocks end after 30 s')
      assert.ok(config.internal.rpc.size <= 2, 'one transport per network')
      now += 60_000
    }
    // Entries from the last 5 minutes stay (the current one always); older ones are collected.
    assert.equal(Math.max(...balanceSizes), CACHE_GC_MS / 60_000)
    const ages = Object.values(config.$balances.get()).map((entry) => now - entry.fetchedAt)
    assert.ok(
      ages.every((age) => age <= CACHE_GC_MS),
      `ages ${ages.join()}`,
    )
    // Both networks' lists while both are in use; 31338's is gone 5 minutes after its last use.
    assert.equal(Math.max(...listSizes), 2)
    assert.deepEqual(listSizes.slice(-25), Array(25).fill(1))
    assert.deepEqual(cachedTokenLists(config), [`${apiUrl} dev-project eip155:31337`])

    // Within 30 s a balance and its token list come from the caches; after, both are read again.
    const fetchesBefore = tokenListFetches.length
    const fresh = await fetchBalance(config)
    now += Math.min(BALANCE_CACHE_MS, PORTFOLIO_CACHE_MS) - 1
    assert.equal(await fetchBalance(config), fresh)
    assert.equal(tokenListFetches.length, fetchesBefore + 1)
    now += 1
    const again = await fetchBalance(config)
    assert.notEqual(again, fresh)
    assert.equal(again?.status, 'ready')
    assert.equal(tokenListFetches.length, fetchesBefore + 2)
    closeRpc(config)
  })
})
