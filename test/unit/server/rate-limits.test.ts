/**
 * Rate limits per client address and project: two service instances on one database share every
 * counter, as instances behind a load balancer on one PostgreSQL do (there, the counters are a table
 * taken from by `rate_limit_take`; this file's second pass, `bash scripts/ci-postgres.sh`, runs them on
 * it). On PGlite, one process's database, they are kept in memory, per database.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import { analyticsEvents } from '../../../server/db/schema.ts'
import { createProject } from '../../../server/projects/store.ts'
import { apiErrorBody, jsonRpcFailure } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const site = 'http://localhost:5173'
let testDb: TestDatabase
let one: FastifyInstance
let two: FastifyInstance
let upstream: Server
/** Both instances' clock. */
let clock = Date.parse('2026-11-23T12:00:00.000Z')

before(async () => {
  testDb = await openTestDatabase('rate_limits')
  upstream = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const parsed = JSON.parse(body)
      const answer = (entry: { id: unknown }) => ({ jsonrpc: '2.0', id: entry.id, result: '0x1' })
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)))
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const config = testDb.config({
    devOrigins: [site],
    rpcUpstreams: { 'eip155:1': `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` },
    rateLimits: {
      rpcPerSecond: 5,
      rpcEntriesPerSecond: 12,
      analyticsEventsPerMinute: 6,
      signInPerMinute: 3,
      walletPerMinute: 20,
      dataPerSecond: 4,
    },
  })
  const deps = { database: testDb.database, logger: testLogger, now: () => clock }
  one = await buildApp(config, deps)
  two = await buildApp(config, deps)
  await createProject(testDb.database.db, { id: 'other', name: 'Other', origins: [site] })
})

after(async () => {
  await one?.close()
  await two?.close()
  upstream?.close()
  await testDb?.close()
})

function rpc(app: FastifyInstance, body: unknown, options: { ip?: string; project?: string } = {}) {
  return app.inject({
    method: 'POST',
    url: `/v1/?chainId=eip155:1&projectId=${options.project ?? 'dev-project'}`,
    headers: { 'content-type': 'application/json', origin: site },
    remoteAddress: options.ip ?? '10.1.0.1',
    payload: JSON.stringify(body),
  })
}

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber' })

function event(index: number) {
  return {
    eventId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    url: `${site}/`,
    domain: 'localhost',
    timestamp: clock,
    props: { type: 'track', event: 'MODAL_OPEN' },
  }
}

function postEvents(app: FastifyInstance, events: unknown[], ip = '10.2.0.1') {
  return app.inject({
    method: 'POST',
    url: `/e?${sdk()}`,
    headers: { 'content-type': 'application/json', origin: site },
    remoteAddress: ip,
    payload: JSON.stringify(events),
  })
}

describe('rate limits shared by two instances on one database', () => {
  test('error: RPC requests per second add up across instances; the next one is 429 with Retry-After and -32005', async () => {
    for (let index = 0; index < 5; index++) {
      const response = await rpc(index % 2 === 0 ? one : two, call(index))
      assert.equal(response.statusCode, 200, `request ${index}`)
    }
    const refused = await rpc(one, call(6))
    assert.equal(refused.statusCode, 429)
    assert.equal(refused.headers['retry-after'], '1')
    assert.equal(refused.headers['access-control-allow-origin'], site)
    const failure = jsonRpcFailure.parse(refused.json())
    assert.equal(failure.error.code, -32005)
    assert.equal(failure.error.message, 'Too many RPC requests: over 5 a second; try again in 1 second')
    assert.deepEqual(failure.error.data, { code: 'TOO_MANY_REQUESTS' })
    assert.equal((await rpc(two, call(7))).statusCode, 429, 'the other instance refuses too')

    assert.equal((await rpc(two, call(8), { ip: '10.1.0.2' })).statusCode, 200, 'another client')
    assert.equal((await rpc(two, call(9), { project: 'other' })).statusCode, 200, 'another project')
    clock += 200
    assert.equal((await rpc(one, call(10))).statusCode, 200, 'one request back every 200 ms')
    assert.equal((await rpc(one, call(11))).statusCode, 429)
    clock += 1000
  })

  test('error: batch entries count one by one across instances', async () => {
    const batch = (size: number) => Array.from({ length: size }, (_, index) => call(index))
    assert.equal((await rpc(one, batch(8), { ip: '10.1.1.1' })).statusCode, 200)
    const refused = await rpc(two, batch(5), { ip: '10.1.1.1' })
    assert.equal(refused.statusCode, 429)
    assert.match(jsonRpcFailure.parse(refused.json()).error.message, /^Too many RPC calls: over 12 a second/)
    assert.equal((await rpc(two, batch(4), { ip: '10.1.1.1' })).statusCode, 200, 'what is left still fits')
    clock += 1000
  })

  test('error: analytics events per minute add up across instances; refused events are not stored', async () => {
    assert.equal((await postEvents(one, [event(1), event(2), event(3), event(4)])).statusCode, 204)
    const refused = await postEvents(two, [event(5), event(6), event(7)])
    assert.equal(refused.statusCode, 429)
    // 6 a minute: one event back every 10 s; 3 are needed and 2 are left.
    assert.equal(refused.headers['retry-after'], '10')
    assert.deepEqual(apiErrorBody.parse(refused.json()).error, {
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many analytics events: over 6 a minute; try again in 10 seconds',
    })
    assert.equal((await postEvents(two, [event(5), event(6)])).statusCode, 204)
    const stored = await testDb.database.db.select({ id: analyticsEvents.eventId }).from(analyticsEvents)
    assert.equal(stored.length, 6)
    assert.equal((await postEvents(one, [event(8)], '10.2.0.2')).statusCode, 204, 'another client')
  })

  test('error: each sign-in route that writes is limited, across instances', async () => {
    const nonce = (app: FastifyInstance) =>
      app.inject({ url: `/auth/v1/nonce?${sdk()}`, headers: { origin: site }, remoteAddress: '10.3.0.1' })
    assert.equal((await nonce(one)).statusCode, 200)
    assert.equal((await nonce(two)).statusCode, 200)
    assert.equal((await nonce(one)).statusCode, 200)
    const refused = await nonce(two)
    assert.equal(refused.statusCode, 429)
    assert.equal(refused.json().error.message, 'Too many sign-in attempts: try again in 20 seconds')
    const signOut = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: `/auth/v1/sign-out?${sdk()}`,
        headers: { origin: site, authorization: 'Bearer x.y.z' },
        remoteAddress: '10.3.0.1',
      })
    for (const app of [one, two, one]) assert.equal((await signOut(app)).statusCode, 401, 'its own count')
    assert.equal((await signOut(two)).statusCode, 429)
  })

  test('args: the limits are read from the environment; 0 turns one off', () => {
    assert.deepEqual(loadConfig({}).rateLimits, {
      rpcPerSecond: 100,
      rpcEntriesPerSecond: 1000,
      analyticsEventsPerMinute: 600,
      signInPerMinute: 60,
      walletPerMinute: 20,
      dataPerSecond: 50,
    })
    assert.deepEqual(
      loadConfig({
        RATE_LIMIT_RPC: '0',
        RATE_LIMIT_RPC_ENTRIES: '5000',
        RATE_LIMIT_ANALYTICS: '120',
        RATE_LIMIT_SIGN_IN: '10',
        RATE_LIMIT_WALLET: '7',
        RATE_LIMIT_DATA: '20',
      }).rateLimits,
      {
        rpcPerSecond: 0,
        rpcEntriesPerSecond: 5000,
        analyticsEventsPerMinute: 120,
        signInPerMinute: 10,
        walletPerMinute: 7,
        dataPerSecond: 20,
      },
    )
    assert.throws(() => loadConfig({ RATE_LIMIT_RPC: 'lots' }), /RATE_LIMIT_RPC must be a whole number/)
  })
})
