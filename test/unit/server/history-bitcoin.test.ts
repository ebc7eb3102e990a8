/**
 * Bitcoin history: `GET /blockchain/v1/transactions` on a bip122 network reads the network's node (the
 * local regtest node here), newest first, confirmed transactions only, one BTC transfer each seen from
 * the account, with txid cursors.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { p2wpkh, Transaction } from '@scure/btc-signer'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import {
  type BitcoinNode,
  type DevKey,
  REGTEST_NETWORK,
  startBitcoinNode,
} from '../../../server/dev/bitcoin/index.ts'
import { type TransactionsResponse, transactionsResponse } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const site = 'http://localhost:5173'
const REGTEST = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const FEE = 2_000n

let node: BitcoinNode
let testDb: TestDatabase
let app: FastifyInstance
let alice: DevKey
let bob: DevKey
const sent: string[] = []

async function query(search: Record<string, string>) {
  return app.inject({
    url: `/blockchain/v1/transactions?${sdk()}&${new URLSearchParams({ chainId: REGTEST, ...search })}`,
    headers: { origin: site },
  })
}

async function page(search: Record<string, string>): Promise<TransactionsResponse> {
  const response = await query(search)
  assert.equal(response.statusCode, 200, response.body)
  return transactionsResponse.parse(response.json())
}

/** Sends `amount` sats from `from` to `to` out of a mature coin, change back to `from`, and answers the txid. */
async function send(from: DevKey, to: string, amount: bigint): Promise<string> {
  const coins = (await (await fetch(`${node.url}/coin/address/${from.address}`)).json()) as {
    hash: string
    index: number
    value: number
    height: number
  }[]
  const coin = coins.find((c) => c.height > 0 && node.height() - c.height >= 100 && !sent.includes(c.hash))
  assert.ok(coin, `a spendable coin of ${from.address}`)
  const tx = new Transaction()
  tx.addInput({
    txid: coin.hash,
    index: coin.index,
    witnessUtxo: { script: p2wpkh(from.publicKey, REGTEST_NETWORK).script, amount: BigInt(coin.value) },
  })
  tx.addOutputAddress(to, amount, REGTEST_NETWORK)
  tx.addOutputAddress(from.address, BigInt(coin.value) - amount - FEE, REGTEST_NETWORK)
  tx.sign(from.privateKey)
  tx.finalize()
  const response = await fetch(`${node.url}/broadcast`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ tx: tx.hex }),
  })
  assert.equal(response.status, 200, await response.clone().text())
  sent.push(tx.id)
  return tx.id
}

before(async () => {
  node = await startBitcoinNode({ port: 0, blockIntervalMs: 0 })
  ;[, , alice, bob] = node.devKeys as [DevKey, DevKey, DevKey, DevKey]
  testDb = await openTestDatabase('history_bitcoin')
  const base = testDb.config({ devOrigins: [site] })
  app = await buildApp(
    { ...base, embedded: { ...base.embedded, bitcoinNodes: { [REGTEST]: node.url } } },
    {
      database: testDb.database,
      logger: testLogger,
    },
  )
})

after(async () => {
  await app?.close()
  await testDb?.close()
  await node?.stop()
})

describe('GET /blockchain/v1/transactions (bip122)', () => {
  test('default: a payment shows as a send for the payer (fee included) and a receive for the payee, once mined', async () => {
    const first = await send(alice, bob.address, 1_000_000n)
    // In the mempool: not history yet.
    assert.ok(!(await page({ account: bob.address })).data.some((tx) => tx.metadata.hash === first))
    await node.mine(1)
    const second = await send(bob, alice.address, 250_000n)
    await node.mine(1)

    const bobs = await page({ account: bob.address })
    const [newest, older] = bobs.data
    assert.equal(newest?.metadata.hash, second)
    assert.equal(newest?.metadata.operationType, 'send')
    assert.deepEqual(
      newest?.transfers.map((t) => [t.direction, t.quantity.numeric, t.counterparty]),
      [['out', '0.00252', alice.address]],
    )
    assert.equal(older?.metadata.hash, first)
    assert.equal(older?.metadata.operationType, 'receive')
    assert.equal(older?.metadata.sentFrom, alice.address)
    assert.equal(older?.metadata.sentTo, bob.address)
    assert.deepEqual(
      older?.transfers.map((t) => [t.direction, t.quantity.numeric, t.fungible_info.symbol]),
      [['in', '0.01', 'BTC']],
    )
    assert.equal(older?.metadata.chain, REGTEST)
    assert.ok(Date.parse(older?.metadata.minedAt ?? '') > Date.parse('2020-01-01'))

    const alices = await page({ account: alice.address })
    const paid = alices.data.find((tx) => tx.metadata.hash === first)
    assert.deepEqual(
      paid?.transfers.map((t) => [t.direction, t.quantity.numeric]),
      [['out', '0.01002']],
    )
  })

  test('default: pages follow the txid cursor, newest first, without repeats', async () => {
    const all = await page({ account: bob.address, limit: '50' })
    const seen: string[] = []
    let cursor: string | undefined
    for (;;) {
      const next = await page({ account: bob.address, limit: '1', ...(cursor ? { cursor } : {}) })
      seen.push(...next.data.map((tx) => tx.metadata.hash))
      if (next.next === null) break
      cursor = next.next
    }
    assert.deepEqual(
      seen,
      all.data.map((tx) => tx.metadata.hash),
    )
    assert.ok(seen.length >= 4, 'the funding blocks and the two payments')
  })

  test('error: an EVM address or cursor on a Bitcoin network is refused with words; a network without a node answers nothing', async () => {
    const evm = await query({ account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' })
    assert.equal(evm.statusCode, 400)
    assert.match(evm.body, /The account or cursor is not of this network/)
    const cursor = await query({ account: bob.address, cursor: '12-0' })
    assert.equal(cursor.statusCode, 400)
    const mainnet = await app.inject({
      url: `/blockchain/v1/transactions?${sdk()}&chainId=bip122:000000000019d6689c085ae165831e93&account=bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l`,
      headers: { origin: site },
    })
    assert.equal(mainnet.statusCode, 200)
    assert.deepEqual(mainnet.json(), { data: [], next: null })
  })
})
