// POST /e: the events, what props may hold, retention, and real HTTP.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { oldEventsQuery } from '../../../server/analytics/retention.ts'
import { buildApp } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import { analyticsEvents } from '../../../server/db/schema.ts'
import { errorOf, event, post, startAnalyticsService, stored, testDb } from './analytics-helpers.ts'
import { rawRequest, sdk, testLogger } from './helpers.ts'

startAnalyticsService()

describe('POST /e', () => {
  test('default: an event is stored and answered with 204', async () => {
    const sent = event({}, { address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' })
    const response = await post(sent, { origin: 'http://localhost:5173' })
    assert.equal(response.statusCode, 204)
    assert.equal(response.body, '')
    assert.equal(response.headers['access-control-allow-origin'], 'http://localhost:5173')
    const rows = await stored()
    assert.equal(rows.length, 1)
    const row = rows[0]
    assert.ok(row)
    assert.equal(row.eventId, sent.eventId)
    assert.equal(row.projectId, 'dev-project')
    assert.equal(row.sdkType, 'wallet-elements')
    assert.equal(row.sdkVersion, '0.1.0')
    assert.equal(row.origin, 'http://localhost:5173')
    assert.equal(row.url, sent.url)
    assert.equal(row.domain, 'localhost')
    assert.equal(row.eventType, 'track')
    assert.equal(row.eventName, 'MODAL_OPEN')
    assert.deepEqual(row.properties, { connected: false })
    assert.equal(row.address, '0x8ba1f109551bD432803012645Ac136ddd64DBA72')
    assert.equal(row.clientTimestamp.getTime(), sent.timestamp)
    assert.ok(row.receivedAt instanceof Date)
  })

  test('behavior: a batch is stored in one request', async () => {
    const batch = [
      event({ timestamp: 1 }, { event: 'MODAL_OPEN' }),
      event({ timestamp: 2 }, { event: 'SELECT_WALLET', properties: { name: 'MetaMask' } }),
      event({ timestamp: 3 }, { event: 'MODAL_CLOSE' }),
    ]
    const response = await post(batch)
    assert.equal(response.statusCode, 204)
    assert.deepEqual(
      (await stored()).map((row) => row.eventName),
      ['MODAL_OPEN', 'SELECT_WALLET', 'MODAL_CLOSE'],
    )
  })

  test('behavior: a retried event is stored once', async () => {
    const sent = event()
    assert.equal((await post(sent)).statusCode, 204)
    assert.equal((await post(sent)).statusCode, 204)
    assert.equal((await post([sent, sent])).statusCode, 204)
    assert.equal((await stored()).length, 1)
  })

  test('behavior: MODAL_CREATED is never stored', async () => {
    const response = await post([event({}, { event: 'MODAL_CREATED' }), event({}, { event: 'MODAL_OPEN' })])
    assert.equal(response.statusCode, 204)
    assert.deepEqual(
      (await stored()).map((row) => row.eventName),
      ['MODAL_OPEN'],
    )
  })

  test('behavior: a text/plain body (navigator.sendBeacon) is accepted', async () => {
    const response = await post(event(), { contentType: 'text/plain;charset=UTF-8' })
    assert.equal(response.statusCode, 204)
    assert.equal((await stored()).length, 1)
  })

  test('behavior: a project with analytics off gets 204 and nothing is stored', async () => {
    const response = await post(event(), { query: sdk('quiet') })
    assert.equal(response.statusCode, 204)
    assert.equal((await stored()).length, 0)
  })

  test('error: a refused origin answers 403 Invalid App Configuration and nothing is stored', async () => {
    const response = await post(event(), { origin: 'https://evil.test' })
    assert.equal(response.statusCode, 403)
    assert.deepEqual(errorOf(response.body), {
      code: 'INVALID_APP_CONFIGURATION',
      message: 'Invalid App Configuration',
    })
    assert.equal((await stored()).length, 0)
  })

  test('error: project and SDK parameters are checked', async () => {
    const missing = await post(event(), { query: 'st=a&sv=1' })
    assert.equal(missing.statusCode, 400)
    assert.equal(errorOf(missing.body).message, 'Project ID Not Configured')
    const unknown = await post(event(), { query: 'projectId=nobody&st=a&sv=1' })
    assert.equal(unknown.statusCode, 401)
    assert.equal(errorOf(unknown.body).message, 'Invalid Project ID')
    const noSv = await post(event(), { query: 'projectId=dev-project&st=a' })
    assert.equal(noSv.statusCode, 400)
    assert.equal(errorOf(noSv.body).field, 'sv')
  })

  const badBodies: [string, unknown, string][] = [
    ['eventId not a uuid', event({ eventId: 'abc' }), 'eventId'],
    ['url not a URL', event({ url: 'not a url' }), 'url'],
    ['empty domain', event({ domain: '' }), 'domain'],
    ['timestamp not whole', event({ timestamp: 1.5 }), 'timestamp'],
    ['timestamp negative', event({ timestamp: -1 }), 'timestamp'],
    ['missing props.event', { ...event(), props: { type: 'track' } }, 'props.event'],
    [
      'props.properties not an object',
      event({}, { properties: [1] as unknown as Record<string, unknown> }),
      'props.properties',
    ],
    ['bad item in a batch', [event(), event({ url: 'nope' })], '[1].url'],
    ['empty batch', [], 'body'],
    ['batch over 100', Array.from({ length: 101 }, () => event()), 'body'],
    ['not JSON', '{"eventId":', 'body'],
  ]
  for (const [name, body, field] of badBodies) {
    test(`error: ${name} answers 400 naming ${field}`, async () => {
      const response = await post(body)
      assert.equal(response.statusCode, 400, response.body)
      const error = errorOf(response.body)
      assert.equal(error.code, 'BAD_REQUEST')
      assert.equal(error.field, field)
      assert.equal((await stored()).length, 0)
    })
  }

  test('error: a body over 64 KiB answers 413', async () => {
    const response = await post(event({}, { properties: { blob: 'x'.repeat(70_000) } }))
    assert.equal(response.statusCode, 413)
    assert.equal(errorOf(response.body).code, 'PAYLOAD_TOO_LARGE')
  })

  test('error: another content type answers 415', async () => {
    const response = await post('a=b', { contentType: 'application/x-www-form-urlencoded' })
    assert.equal(response.statusCode, 415)
    assert.equal(errorOf(response.body).code, 'UNSUPPORTED_MEDIA_TYPE')
  })
})

describe('POST /e: what props may hold', () => {
  const control: [string, unknown, string, string][] = [
    [
      'NUL in a property value',
      event({}, { properties: { note: 'a\u0000b' } }),
      'props.properties.note',
      'Control characters are not allowed',
    ],
    [
      'NUL in a property name',
      event({}, { properties: { 'a\u0000': 1 } }),
      'props.properties',
      'Control characters are not allowed',
    ],
    [
      'NUL deep in a property',
      event({}, { properties: { list: [{ x: '\u0000' }] } }),
      'props.properties.list[0].x',
      'Control characters are not allowed',
    ],
    [
      'NUL in the event name',
      event({}, { event: 'OPEN\u0000' }),
      'props.event',
      'Control characters are not allowed',
    ],
    [
      'a bell in the type',
      event({}, { type: 'tr\u0007ck' }),
      'props.type',
      'Control characters are not allowed',
    ],
    [
      'NUL in the address',
      event({}, { address: '0x\u0000' }),
      'props.address',
      'Control characters are not allowed',
    ],
    [
      'NUL in the domain',
      event({ domain: 'local\u0000host' }),
      'domain',
      'Control characters are not allowed',
    ],
    [
      'a lone surrogate',
      event({}, { properties: { note: 'a\ud800b' } }),
      'props.properties.note',
      'Expected well-formed Unicode text',
    ],
  ]
  for (const [name, body, field, problem] of control) {
    test(`error: ${name} answers 400 naming ${field}, never 500`, async () => {
      const response = await post(body)
      assert.equal(response.statusCode, 400, response.body)
      assert.deepEqual(errorOf(response.body), {
        code: 'BAD_REQUEST',
        message: `Invalid body field ${field}: ${problem}`,
        field,
      })
      assert.equal((await stored()).length, 0)
    })
  }

  test('error: properties nested deeper than 4 levels answer 400', async () => {
    const deep = event({}, { properties: { a: { b: { c: { d: 1 } } } } })
    assert.equal((await post(deep)).statusCode, 204, '4 levels are fine')
    const deeper = await post(event({}, { properties: { a: { b: { c: { d: { e: 1 } } } } } }))
    assert.equal(deeper.statusCode, 400)
    assert.deepEqual(errorOf(deeper.body), {
      code: 'BAD_REQUEST',
      message: 'Invalid body field props.properties.a.b.c.d: Expected at most 4 levels of nesting',
      field: 'props.properties.a.b.c.d',
    })
    const lists = await post(event({}, { properties: { a: [[[[1]]]] } }))
    assert.equal(lists.statusCode, 400, 'arrays nest too')
  })

  test('error: properties over 4 KiB or with over 64 names answer 400', async () => {
    const big = await post(event({}, { properties: { note: 'x'.repeat(4100) } }))
    assert.equal(big.statusCode, 400)
    assert.deepEqual(errorOf(big.body), {
      code: 'BAD_REQUEST',
      message: 'Invalid body field props.properties: Expected at most 4096 bytes of JSON',
      field: 'props.properties',
    })
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`k${index}`, index]))
    const wide = await post(event({}, { properties: { nested: many } }))
    assert.equal(wide.statusCode, 400)
    assert.equal(
      errorOf(wide.body).message,
      'Invalid body field props.properties: Expected at most 64 property names',
    )
    assert.equal((await stored()).length, 0)
  })

  test('default: ordinary text, emoji and accents pass', async () => {
    const response = await post(
      event({}, { properties: { name: 'Zoë 🦊', tab: 'a\tb', list: [1, 'two', { three: true }] } }),
    )
    assert.equal(response.statusCode, 204, response.body)
    assert.deepEqual((await stored())[0]?.properties, {
      name: 'Zoë 🦊',
      tab: 'a\tb',
      list: [1, 'two', { three: true }],
    })
  })
})

describe('analytics retention', () => {
  test('default: the maintenance job deletes events older than ANALYTICS_RETENTION_DAYS and keeps the rest', async () => {
    const day = 86_400_000
    const now = Date.parse('2026-11-23T12:00:00.000Z')
    const old = event()
    const recent = event()
    for (const [sent, receivedAt] of [
      [old, new Date(now - 31 * day)],
      [recent, new Date(now - 29 * day)],
    ] as const) {
      assert.equal((await post(sent)).statusCode, 204)
      await testDb.database.db
        .update(analyticsEvents)
        .set({ receivedAt })
        .where(eq(analyticsEvents.eventId, sent.eventId))
    }
    const kept = await buildApp(testDb.config({ analyticsRetentionDays: 30 }), {
      database: testDb.database,
      logger: testLogger,
      now: () => now,
    })
    try {
      const report = await kept.maintenance.run()
      assert.equal(report.analyticsEventsDeleted, 1)
      assert.deepEqual(
        (await stored()).map((row) => row.eventId),
        [recent.eventId],
      )
    } finally {
      await kept.close()
    }
    assert.equal(loadConfig({}).analyticsRetentionDays, 90)
    assert.equal(loadConfig({ ANALYTICS_RETENTION_DAYS: '0' }).analyticsRetentionDays, 0)
  })

  test('default: ANALYTICS_RETENTION_DAYS=0 keeps every event', async () => {
    assert.equal((await post(event())).statusCode, 204)
    await testDb.database.db.update(analyticsEvents).set({ receivedAt: new Date(0) })
    const forever = await buildApp(testDb.config({ analyticsRetentionDays: 0 }), {
      database: testDb.database,
      logger: testLogger,
    })
    try {
      assert.equal((await forever.maintenance.run()).analyticsEventsDeleted, 0)
      assert.equal((await stored()).length, 1)
    } finally {
      await forever.close()
    }
  })

  test('behavior: the retention delete is served by the received_at index', async () => {
    const plan = await testDb.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`)
      return tx.execute(sql`EXPLAIN ${oldEventsQuery(new Date())}`)
    })
    const text = (plan as unknown as { rows: { 'QUERY PLAN': string }[] }).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n')
    assert.match(text, /analytics_events_received_idx/, text)
  })
})

describe('POST /e over real HTTP', () => {
  let server: FastifyInstance
  let url = ''

  before(async () => {
    server = await buildApp(testDb.config({ devProjectId: null }), {
      database: testDb.database,
      logger: testLogger,
    })
    url = await server.listen({ host: '127.0.0.1', port: 0 })
  })
  after(async () => {
    await server?.close()
  })

  test('default: events posted by fetch are stored and read back', async () => {
    const sent = event()
    const response = await fetch(`${url}/e?${sdk()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(sent),
    })
    assert.equal(response.status, 204)
    const rows = await testDb.database.db
      .select()
      .from(analyticsEvents)
      .where(eq(analyticsEvents.eventId, sent.eventId))
    assert.equal(rows.length, 1)

    const refused = await rawRequest(`${url}/e?${sdk()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.test' },
      body: JSON.stringify(event()),
    })
    assert.equal(refused.status, 403)
    assert.equal(errorOf(refused.text).message, 'Invalid App Configuration')
  })
})
