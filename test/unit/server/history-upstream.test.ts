// History from an Etherscan-compatible upstream, good and hostile.
/**
 * Upstream history sources: a network in `HISTORY_UPSTREAMS` is read from an
 * Etherscan-compatible account API (the stand-in of server/dev/etherscan on loopback, real HTTP) and
 * served by `GET /blockchain/v1/transactions` in the indexer's shape, with its spam rule and cursor
 * pages; never indexed; and whatever a bad or hostile upstream answers (garbage, huge, wrong types,
 * error envelopes, silence) ends in a clear 502/504, no crash, the key never in a log or an answer.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { buildApp } from '../../../server/app.ts'
import { ConfigError, loadConfig } from '../../../server/config.ts'
import { UPSTREAM_MAX_BYTES, UPSTREAM_ROWS_PER_LIST } from '../../../server/history/upstream.ts'
import { apiErrorBody } from '../../../src/protocol/api/index.ts'
import { captureLogs, sdk } from './helpers.ts'
import {
  alice,
  allPages,
  apiKey,
  app,
  bob,
  explorer,
  hashOf,
  logs,
  mainnet,
  onramps,
  site,
  spamOnly,
  startUpstreamHistory,
  testDb,
  timeOf,
  visible,
} from './history-upstream-helpers.ts'

startUpstreamHistory()

describe('History from an Etherscan-compatible upstream', () => {
  test('serves every transaction once, newest first, across cursor pages', async () => {
    const transactions = await allPages()
    const hashes = transactions.map((transaction) => transaction.metadata.hash)
    assert.equal(new Set(hashes).size, hashes.length, 'a transaction came twice')
    assert.deepEqual(new Set(hashes), visible)
    const blocks = transactions.map((transaction) => transaction.metadata.blockNumber)
    assert.deepEqual(
      blocks,
      [...blocks].sort((a, b) => b - a),
      'not newest first',
    )
    // The lists were longer than one upstream answer: several upstream pages were read.
    assert.ok(visible.size > UPSTREAM_ROWS_PER_LIST)
    for (const request of explorer.requests) {
      assert.equal(request.get('apikey'), apiKey)
      assert.equal(request.get('chainid'), '1')
      assert.equal(request.get('offset'), String(UPSTREAM_ROWS_PER_LIST))
    }
  })

  test('maps transfers into the Transaction shape: directions, amounts, swaps, internal ETH', async () => {
    const transactions = await allPages({ limit: '50' })
    const byHash = new Map(transactions.map((transaction) => [transaction.metadata.hash, transaction]))
    const swap = byHash.get(hashOf('swap'))
    assert.ok(swap)
    assert.equal(swap.id, `${mainnet}:${hashOf('swap')}`)
    assert.equal(swap.metadata.operationType, 'trade')
    assert.equal(swap.metadata.minedAt, new Date(Number(timeOf(1080)) * 1000).toISOString())
    assert.deepEqual(
      swap.transfers.map((transfer) => [
        transfer.direction,
        transfer.quantity.numeric,
        transfer.fungible_info.symbol,
      ]),
      [
        ['out', '0.1', 'ETH'],
        ['in', '250', 'USDC'],
      ],
    )
    const received = byHash.get(hashOf('native-1'))
    assert.equal(received?.metadata.operationType, 'receive')
    assert.equal(received?.transfers[0]?.counterparty, getAddress(bob))
    assert.equal(received?.transfers[0]?.quantity.numeric, '0.002')
    const internal = byHash.get(hashOf('internal-0'))
    assert.equal(internal?.transfers[0]?.direction, 'in')
    assert.equal(internal?.transfers[0]?.quantity.numeric, '0.01')
    assert.equal(byHash.has(hashOf('failed')), false, 'a failed transaction moved nothing')
  })

  test('hides spam unless asked, and keeps on-ramp deliveries only with onramp=true', async () => {
    const withSpam = await allPages({ includeSpam: 'true', limit: '50' })
    const spam = withSpam.filter((transaction) => spamOnly.has(transaction.metadata.hash))
    assert.equal(spam.length, spamOnly.size)
    assert.ok(spam.every((transaction) => transaction.transfers.every((t) => t.nft_info.flags.is_spam)))
    const onramp = await allPages({ onramp: 'true' })
    assert.deepEqual(new Set(onramp.map((transaction) => transaction.metadata.hash)), onramps)
    assert.ok(onramp.every((transaction) => transaction.metadata.operationType === 'onramp'))
  })

  test('the network is not self-indexed, and may not be both', async () => {
    assert.deepEqual(app.historyIndexer.indexed, { blocks: 0, transfers: 0 })
    assert.throws(
      () =>
        loadConfig({
          DATA_DIR: 'memory://',
          RPC_UPSTREAMS: 'eip155:1=http://127.0.0.1:1',
          HISTORY_NETWORKS: 'eip155:1',
          HISTORY_UPSTREAMS: 'eip155:1=http://127.0.0.1:2/v2/api',
        }),
      (error: unknown) =>
        error instanceof ConfigError && /eip155:1 is in HISTORY_NETWORKS too/.test(error.message),
    )
    assert.throws(
      () => loadConfig({ DATA_DIR: 'memory://', HISTORY_UPSTREAMS: `solana:abc=https://${apiKey}@x.test/` }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /not an EVM network/.test(error.message) &&
        !error.message.includes(apiKey),
    )
    const config = loadConfig({
      DATA_DIR: 'memory://',
      HISTORY_UPSTREAMS: 'eip155:1=https://api.etherscan.io/v2/api',
      HISTORY_UPSTREAM_KEY: apiKey,
    })
    assert.deepEqual(config.historyUpstreams, { [mainnet]: 'https://api.etherscan.io/v2/api' })
    assert.equal(config.historyUpstreamKey, apiKey)
  })
})

describe('A bad or hostile upstream', () => {
  let hostile: Server
  let hostileApp: FastifyInstance
  let answer: (response: import('node:http').ServerResponse) => void = () => {}
  const hostileLogs = captureLogs('info')
  const optimism = 'eip155:10'

  before(async () => {
    hostile = createServer((_request, response) => answer(response))
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve))
    const { port } = hostile.address() as AddressInfo
    hostileApp = await buildApp(
      testDb.config({
        devOrigins: [site],
        rpcUpstreams: {},
        // Short enough for the silent upstream's test, long enough that a 4 MiB answer is cut off for
        // its size before the time runs out, even on a loaded machine.
        rpcTimeoutMs: 1_500,
        historyUpstreams: { [optimism]: `http://127.0.0.1:${port}/v2/api?token=${apiKey}` },
        historyUpstreamKey: apiKey,
      }),
      { database: testDb.database, logger: hostileLogs.logger },
    )
  })

  after(async () => {
    await hostileApp?.close()
    hostile?.closeAllConnections()
    await new Promise((resolve) => hostile?.close(resolve))
  })

  const json = (body: unknown) => (response: import('node:http').ServerResponse) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  const row = {
    blockNumber: '5',
    timeStamp: '1700000000',
    hash: hashOf('x'),
    transactionIndex: '0',
    from: alice,
    to: bob,
    value: '1',
    isError: '0',
  }

  async function refused(status: number, code: string, message: RegExp) {
    const response = await hostileApp.inject({
      url: `/blockchain/v1/transactions?${sdk()}&chainId=${optimism}&account=${getAddress(alice)}`,
      headers: { origin: site },
    })
    assert.equal(response.statusCode, status, response.body)
    const { error } = apiErrorBody.parse(JSON.parse(response.body))
    assert.equal(error.code, code)
    assert.match(error.message, message)
    assert.ok(!response.body.includes(apiKey) && !response.body.includes('127.0.0.1'), response.body)
  }

  test('garbage, HTML errors and envelopes without a status', async () => {
    answer = (response) => response.writeHead(200).end('<html>not json')
    await refused(
      502,
      'UPSTREAM_ERROR',
      /^The history upstream of eip155:10 answered something that is not JSON$/,
    )
    answer = (response) => response.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down</h1>')
    await refused(502, 'UPSTREAM_ERROR', /answered HTTP 503/)
    answer = json({ result: [] })
    await refused(502, 'UPSTREAM_ERROR', /answered without its status envelope/)
    answer = json([1, 2, 3])
    await refused(502, 'UPSTREAM_ERROR', /answered without its status envelope/)
  })

  test('rows of the wrong types, too many rows, a result that is not a list', async () => {
    answer = json({ status: '1', message: 'OK', result: [{ ...row, blockNumber: 5 }] })
    await refused(502, 'UPSTREAM_ERROR', /answered txlist rows of the wrong shape/)
    answer = json({ status: '1', message: 'OK', result: [{ ...row, from: 'javascript:alert(1)' }] })
    await refused(502, 'UPSTREAM_ERROR', /rows of the wrong shape/)
    answer = json({ status: '1', message: 'OK', result: [{ ...row, value: '1e400' }] })
    await refused(502, 'UPSTREAM_ERROR', /rows of the wrong shape/)
    answer = json({ status: '1', message: 'OK', result: Array(UPSTREAM_ROWS_PER_LIST + 1).fill(row) })
    await refused(502, 'UPSTREAM_ERROR', /more than the 100 rows asked for/)
    answer = json({ status: '1', message: 'OK', result: { rows: [] } })
    await refused(502, 'UPSTREAM_ERROR', /rows that are not a list/)
  })

  test('an answer larger than the limit is cut off', async () => {
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"status":"1","message":"OK","result":["')
      const chunk = 'a'.repeat(64 * 1024)
      const write = () => {
        while (!response.destroyed && response.write(chunk)) {}
        if (!response.destroyed) response.once('drain', write)
      }
      write()
    }
    await refused(502, 'UPSTREAM_ERROR', new RegExp(`answered more than ${UPSTREAM_MAX_BYTES} bytes`))
  })

  test('error envelopes: rate limit, wrong key, and "No transactions found" (an empty page)', async () => {
    answer = json({ status: '0', message: 'NOTOK', result: 'Max calls per sec rate limit reached (5/sec)' })
    await refused(502, 'UPSTREAM_ERROR', /^The history upstream of eip155:10 is rate-limiting the service/)
    answer = json({ status: '0', message: 'NOTOK', result: `Invalid API Key ${apiKey}` })
    await refused(502, 'UPSTREAM_ERROR', /refused the request/)
    answer = json({ status: '0', message: 'No transactions found', result: [] })
    const empty = await hostileApp.inject({
      url: `/blockchain/v1/transactions?${sdk()}&chainId=${optimism}&account=${getAddress(alice)}`,
      headers: { origin: site },
    })
    assert.equal(empty.statusCode, 200, empty.body)
    assert.deepEqual(JSON.parse(empty.body), { data: [], next: null })
  })

  test('a silent upstream times out (504), and a closed port is unreachable (502)', async () => {
    answer = () => {}
    const started = Date.now()
    await refused(504, 'UPSTREAM_TIMEOUT', /did not answer within 1500 ms/)
    assert.ok(Date.now() - started < 5_000)
    // Headers at once, then a body that never ends.
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.write('{"status":"1","message":"OK","result":[')
    }
    await refused(504, 'UPSTREAM_TIMEOUT', /did not answer within 1500 ms/)
    answer = (response) => response.socket?.destroy()
    await refused(502, 'UPSTREAM_ERROR', /could not be reached/)
  })

  test('the key and the upstream URL are never logged', () => {
    const text = hostileLogs.lines.join('')
    assert.match(text, /history upstream of eip155:10/)
    assert.ok(!text.includes(apiKey), 'the key was logged')
    assert.ok(!text.includes('/v2/api'), 'the upstream URL was logged')
    assert.ok(!logs.lines.join('').includes(apiKey))
  })
})
