// SPEC 9 caches on a page left open for an hour of fake time: balances of accounts and networks no
// one asked for in 5 minutes are collected, retry blocks end, nothing grows. Real RPC: a local
// Hardhat chain, and a closed port for a network whose RPC is down.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import { fetchBalance } from '../../../src/core/actions/fetchBalance.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { closeRpc } from '../../../src/core/rpcUrl.ts'
import { CACHE_GC_MS } from '../../../src/protocol/constants.ts'
import type { Network } from '../../../src/protocol/entities.ts'
import { freePort } from '../../support/net.ts'

const local = (id: number, url: string): Network => ({
  id,
  caipNetworkId: `eip155:${id}`,
  chainNamespace: 'eip155',
  name: `Local ${id}`,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [url] } },
})

describe('caches (SPEC 9)', () => {
  let chain: LocalChain
  let closedUrl: string

  before(async () => {
    chain = await startChain({ port: await freePort() })
    closedUrl = `http://127.0.0.1:${await freePort()}`
  })
  after(() => chain.stop())

  test('behavior: an hour of fake time with a new account every minute keeps at most 5 minutes of balances', async () => {
    let now = Date.parse('2026-11-24T10:00:00Z')
    const platform: Platform = {
      window: undefined,
      storage: undefined,
      fetch: (input, init) => fetch(input, init),
      now: () => now,
      isMobile: () => false,
      prefersDark: () => false,
    }
    const config = createConfig({ networks: 'eip155:31337,eip155:31338' }, platform)
    config.$networks.set([local(31337, chain.url), local(31338, closedUrl)])
    const sizes: number[] = []
    for (let minute = 0; minute < 60; minute++) {
      // Every fifth minute the account is on the network whose RPC is down: a failure blocks retries.
      const chainId = minute % 5 === 4 ? 'eip155:31338' : 'eip155:31337'
      const address = `0x${(minute + 1).toString(16).padStart(40, '0')}`
      config.$connections.setKey('eip155', {
        status: 'connected',
        connectorId: 'clock',
        accounts: [address],
        chainId,
      })
      const balance = await fetchBalance(config)
      assert.equal(balance?.status, chainId === 'eip155:31337' ? 'ready' : 'error')
      sizes.push(Object.keys(config.$balances.get()).length)
      assert.ok(config.internal.balanceBlockedUntil.size <= 1, 'retry blocks end after 30 s')
      assert.ok(config.internal.rpc.size <= 2, 'one transport per network')
      now += 60_000
    }
    // Entries from the last 5 minutes stay (the current one always); older ones are collected.
    assert.equal(Math.max(...sizes), CACHE_GC_MS / 60_000)
    const ages = Object.values(config.$balances.get()).map((entry) => now - entry.fetchedAt)
    assert.ok(
      ages.every((age) => age <= CACHE_GC_MS),
      `ages ${ages.join()}`,
    )
    closeRpc(config)
  })
})
