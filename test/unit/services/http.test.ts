/**
 * The modal's HTTP client (src/services/http.ts) and the catalogue call (src/services/catalogue.ts)
 * over real HTTP on 127.0.0.1, against the companion service itself (the failure modes, against tiny
 * local servers, are in http-failures.test.ts).
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { startService } from '../../../server/main.ts'
import { createProject } from '../../../server/projects/store.ts'
import type { BaseError } from '../../../src/errors/index.ts'
import { analyticsConfigResponse, getWalletsResponse } from '../../../src/protocol/api/index.ts'
import { getWallets } from '../../../src/services/catalogue.ts'
import { createHttpClient, SDK_TYPE, SDK_VERSION } from '../../../src/services/http.ts'
import { openTestDatabase, type TestDatabase, testLogger } from '../server/helpers.ts'
import { client, isError, recordingFetch } from './http-helpers.ts'

let testDb: TestDatabase

let service: Awaited<ReturnType<typeof startService>>

before(async () => {
  testDb = await openTestDatabase('services_http')
  await createProject(testDb.database.db, {
    id: 'shop-only',
    name: 'Shop only',
    origins: ['https://shop.example.com'],
  })
  service = await startService({
    config: { ...testDb.config(), port: 0 },
    database: testDb.database,
    logger: testLogger,
  })
})

after(async () => {
  await service?.stop()
  await testDb?.close()
})

describe('createHttpClient against the service', () => {
  test('every request carries projectId, st and sv, and the service accepts them', async () => {
    const { http, urls } = client({ baseUrl: `${service.url}/` })
    assert.equal(http.baseUrl, service.url, 'a trailing slash is dropped')
    const answer = await http.getJson('/getAnalyticsConfig', {}, analyticsConfigResponse)
    assert.equal(typeof answer.isAnalyticsEnabled, 'boolean')
    await http.getJson('/getWallets', { page: 2, entries: 5, search: undefined }, getWalletsResponse)
    await http.postJson('/e', [
      {
        eventId: crypto.randomUUID(),
        url: 'http://127.0.0.1:5173/',
        domain: '127.0.0.1',
        timestamp: Date.now(),
        props: { type: 'track', event: 'MODAL_OPEN', properties: { view: 'Connect' } },
      },
    ])
    assert.equal(urls.length, 3)
    for (const url of urls) {
      assert.equal(url.searchParams.get('projectId'), 'dev-project')
      assert.equal(url.searchParams.get('st'), SDK_TYPE)
      assert.equal(url.searchParams.get('sv'), SDK_VERSION)
    }
    assert.equal(urls[1]?.searchParams.get('page'), '2')
    assert.equal(urls[1]?.searchParams.get('entries'), '5')
    assert.equal(urls[1]?.searchParams.has('search'), false, 'undefined values are left out')
  })

  test('url() builds image and RPC proxy URLs with the project parameters', async () => {
    const { http } = client({ baseUrl: service.url })
    const { data } = await getWallets(http, { page: 1, entries: 1 })
    const entry = data[0]
    assert.ok(entry)
    const image = await fetch(http.url(`/getWalletImage/${encodeURIComponent(entry.image_id)}`))
    assert.equal(image.status, 200)
    assert.match(image.headers.get('content-type') ?? '', /^image\//)
    const rpc = new URL(http.url('/v1/', { chainId: 'eip155:31337' }))
    assert.equal(rpc.pathname, '/v1/')
    assert.equal(rpc.searchParams.get('chainId'), 'eip155:31337')
    assert.equal(rpc.searchParams.get('projectId'), 'dev-project')
  })

  test('an unknown project is `Invalid Project ID`, at once (401 is not retried)', async () => {
    const { http, urls, delays } = client({ baseUrl: service.url, projectId: 'no-such-project' })
    await assert.rejects(
      http.getJson('/getWallets', {}, getWalletsResponse),
      isError('InvalidProjectIdError', 'Invalid Project ID'),
    )
    assert.equal(urls.length, 1)
    assert.deepEqual(delays, [])
  })

  test('a missing project id is `Project ID Not Configured`', async () => {
    const { http, urls } = client({ baseUrl: service.url, projectId: undefined })
    assert.equal(new URL(http.url('/getWallets')).searchParams.has('projectId'), false)
    await assert.rejects(
      http.getJson('/getWallets', {}, getWalletsResponse),
      isError('ProjectIdNotConfiguredError', 'Project ID Not Configured'),
    )
    assert.equal(urls.length, 1)
  })

  test('an origin not on the allow-list is `Invalid App Configuration` after 3 retries', async () => {
    const delays: number[] = []
    const recorder = recordingFetch({ origin: 'https://evil.example.com' })
    const http = createHttpClient({
      baseUrl: service.url,
      projectId: 'shop-only',
      fetch: recorder.fetch,
      sleep: async (ms) => {
        delays.push(ms)
      },
    })
    await assert.rejects(
      http.getJson('/getWallets', {}, getWalletsResponse),
      isError('InvalidAppConfigurationError', 'Invalid App Configuration'),
    )
    assert.equal(recorder.urls.length, 4)
    assert.deepEqual(delays, [150, 300, 600])

    // The same project from its own origin is served.
    const allowed = recordingFetch({ origin: 'https://shop.example.com' })
    const ok = createHttpClient({ baseUrl: service.url, projectId: 'shop-only', fetch: allowed.fetch })
    const page = await getWallets(ok, { page: 1, entries: 2 })
    assert.equal(page.data.length, 2)
  })

  test('a bad parameter (400) is not retried and carries the service message', async () => {
    const { http, urls, delays } = client({ baseUrl: service.url })
    await assert.rejects(http.getJson('/getWallets', { entries: 1000 }, getWalletsResponse), (error) => {
      const base = error as BaseError
      assert.equal(base.name, 'UnknownError')
      assert.match(base.shortMessage, /entries/i)
      return true
    })
    assert.equal(urls.length, 1)
    assert.deepEqual(delays, [])
  })
})

describe('getWallets through the client', () => {
  const http = () => client({ baseUrl: service.url }).http

  test('pages of 40 follow each other without overlap, with the catalogue count', async () => {
    const first = await getWallets(http(), { page: 1, entries: 40 })
    const second = await getWallets(http(), { page: 2, entries: 40 })
    assert.equal(first.data.length, 40)
    assert.ok(first.count > 100, `count ${first.count}`)
    assert.equal(second.count, first.count)
    const ids = new Set(first.data.map((entry) => entry.id))
    assert.ok(second.data.every((entry) => !ids.has(entry.id)))
    const lastPage = Math.ceil(first.count / 40)
    const last = await getWallets(http(), { page: lastPage, entries: 40 })
    assert.equal(last.data.length, first.count - (lastPage - 1) * 40)
    const past = await getWallets(http(), { page: lastPage + 1, entries: 40 })
    assert.deepEqual(past, { data: [], count: first.count })
  })

  test('search finds Rainbow, case-insensitively, and an empty search is not sent', async () => {
    const found = await getWallets(http(), { page: 1, entries: 100, search: 'RAIN' })
    assert.ok(found.data.some((entry) => entry.name === 'Rainbow'))
    assert.ok(found.data.every((entry) => /rain/i.test(entry.name)))
    assert.equal(found.count, found.data.length)
    const none = await getWallets(http(), { page: 1, entries: 100, search: 'zzzz-no-such-wallet' })
    assert.deepEqual(none, { data: [], count: 0 })
    const { http: recorded, urls } = client({ baseUrl: service.url })
    await getWallets(recorded, { page: 1, entries: 1, search: '', include: [], exclude: [] })
    assert.deepEqual([...(urls[0]?.searchParams.keys() ?? [])].sort(), [
      'entries',
      'page',
      'projectId',
      'st',
      'sv',
    ])
  })

  test('include keeps only the listed wallets; exclude drops them', async () => {
    const first = await getWallets(http(), { page: 1, entries: 5 })
    const [a, b, c] = first.data
    assert.ok(a && b && c)
    const included = await getWallets(http(), { page: 1, entries: 40, include: [c.id, a.id] })
    assert.deepEqual(included.data.map((entry) => entry.id).sort(), [a.id, c.id].sort())
    assert.equal(included.count, 2)

    const excluded = await getWallets(http(), { page: 1, entries: 5, exclude: [a.id, b.id] })
    assert.equal(excluded.count, first.count - 2)
    assert.ok(excluded.data.every((entry) => entry.id !== a.id && entry.id !== b.id))
    assert.equal(excluded.data[0]?.id, c.id)

    const both = await getWallets(http(), { page: 1, entries: 40, include: [a.id, b.id], exclude: [b.id] })
    assert.deepEqual(
      both.data.map((entry) => entry.id),
      [a.id],
    )
  })
})
