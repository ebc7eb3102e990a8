/**
 * The modal's analytics (src/core/analytics/watch.ts and tracker.ts) in node, against the real
 * service on 127.0.0.1: nothing before the person acts, nothing when the page did not enable it, and
 * nothing — not even on `pagehide` — unless `/getAnalyticsConfig` said the project has it on.
 * The page is a small fake window (location, crypto, sendBeacon, pagehide).
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import { analyticsEvents } from '../../../server/db/schema.ts'
import { startService } from '../../../server/main.ts'
import { createProject } from '../../../server/projects/store.ts'
import { watchAnalytics } from '../../../src/core/analytics/watch.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { openTestDatabase, type TestDatabase, testLogger } from '../server/helpers.ts'

let testDb: TestDatabase
let service: Awaited<ReturnType<typeof startService>>

before(async () => {
  testDb = await openTestDatabase('services_analytics')
  await createProject(testDb.database.db, { id: 'quiet', name: 'Quiet', analyticsEnabled: false })
  await createProject(testDb.database.db, {
    id: 'loud',
    name: 'Loud',
    analyticsEnabled: true,
    origins: ['http://127.0.0.1:5173'],
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

/** A page: a window with what the tracker uses, and a fetch that records what leaves it. */
function fakePage(clock: () => number = () => Date.now()) {
  const target = new EventTarget()
  const requests: { method: string; url: URL }[] = []
  /** Paths whose answer has arrived (the tracker reads it right after). */
  const answered: string[] = []
  const beacons: { url: URL; body: string }[] = []
  const pending: Promise<unknown>[] = []
  const win = Object.assign(target, {
    location: { href: 'http://127.0.0.1:5173/shop', hostname: '127.0.0.1' },
    crypto: globalThis.crypto,
    navigator: {
      userAgent: 'node',
      sendBeacon(url: string, body: Blob) {
        pending.push(body.text().then((text) => beacons.push({ url: new URL(url), body: text })))
        return true
      },
    },
  })
  const platform: Platform = {
    window: win as unknown as Window,
    storage: undefined,
    fetch: (input, init) => {
      const url = new URL(String(input))
      requests.push({ method: init?.method ?? 'GET', url })
      return fetch(input, init).then((response) => {
        answered.push(url.pathname)
        return response
      })
    },
    now: clock,
    isMobile: () => false,
    prefersDark: () => false,
  }
  return {
    platform,
    requests,
    answered,
    beacons,
    pageHide: async () => {
      win.dispatchEvent(new Event('pagehide'))
      await Promise.all(pending)
    },
  }
}

const settle = async (until: () => boolean, timeout = 5_000) => {
  const end = Date.now() + timeout
  while (!until()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function modal(projectId: string, analytics: boolean) {
  const page = fakePage()
  const config = createConfig({ apiUrl: service.url, projectId, analytics }, page.platform)
  const stop = watchAnalytics(config)
  return { ...page, config, stop }
}

describe('analytics in the modal', () => {
  test('nothing is asked or sent before the person acts, nor for untracked events', async () => {
    const { requests, config, stop, pageHide, beacons } = modal('loud', true)
    await new Promise((resolve) => setTimeout(resolve, 200))
    config.events.emit('error', { code: 5000, message: 'x' })
    // An error before the person did anything is not reported either.
    config.events.emit('error', { code: -32603, message: 'Token Balance Unavailable' })
    config.events.emit('request-close', { view: 'Connect' })
    await pageHide()
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.deepEqual(requests, [])
    assert.deepEqual(beacons, [])
    stop()
  })

  test('a page without `analytics` sends nothing, even when the project has it on', async () => {
    const { requests, config, stop, pageHide, beacons } = modal('loud', false)
    config.events.emit('open', { view: 'Connect' })
    config.events.emit('error', { code: -32603, message: 'Token Balance Unavailable' })
    config.events.emit('close', {})
    await pageHide()
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.deepEqual(requests, [])
    assert.deepEqual(beacons, [])
    stop()
  })

  test('project with analytics on: the batch leaves on pagehide by sendBeacon, and the service stores it', async () => {
    const { answered, config, stop, pageHide, beacons } = modal('loud', true)
    config.events.emit('open', { view: 'Connect' })
    config.events.emit('close', {})
    // The first event loads the tracker, which asks the service whether the project has analytics
    // (waited for by its answer, not by a fixed time: a loaded machine answers late).
    await settle(() => answered.includes('/getAnalyticsConfig'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    await pageHide()
    assert.equal(beacons.length, 1)
    const beacon = beacons[0]!
    assert.equal(beacon.url.pathname, '/e')
    assert.equal(beacon.url.searchParams.get('projectId'), 'loud')
    const sent = JSON.parse(beacon.body) as { eventId: string; props: { event: string } }[]
    assert.deepEqual(
      sent.map((event) => event.props.event),
      ['MODAL_OPEN', 'MODAL_CLOSE'],
    )

    // What the beacon carries is what the service takes (text/plain, no preflight).
    const response = await fetch(beacon.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'http://127.0.0.1:5173' },
      body: beacon.body,
    })
    assert.equal(response.status, 204)
    const stored = await testDb.database.db
      .select()
      .from(analyticsEvents)
      .where(eq(analyticsEvents.projectId, 'loud'))
    assert.deepEqual(stored.map((row) => row.eventName).sort(), ['MODAL_CLOSE', 'MODAL_OPEN'])
    assert.ok(stored.every((row) => row.domain === '127.0.0.1'))
    stop()
  })

  test('project with analytics off: nothing leaves, not even on pagehide', async () => {
    const { requests, config, stop, pageHide, beacons } = modal('quiet', true)
    config.events.emit('open', { view: 'Connect' })
    config.events.emit('close', {})
    await new Promise((resolve) => setTimeout(resolve, 300))
    await pageHide()
    stop()
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.deepEqual(beacons, [], 'no beacon for a project with analytics off')
    assert.deepEqual(
      requests.filter((request) => request.url.pathname === '/e'),
      [],
    )
    assert.equal(requests.filter((request) => request.url.pathname === '/getAnalyticsConfig').length, 1)
  })

  test('stop() (the element leaves the page) sends what waits, after the config check', async () => {
    const { requests, config, stop } = modal('loud', true)
    config.events.emit('open', { view: 'Account' })
    await settle(() => requests.some((request) => request.url.pathname === '/getAnalyticsConfig'))
    stop()
    await settle(() => requests.some((request) => request.method === 'POST' && request.url.pathname === '/e'))
    const paths = requests.map((request) => `${request.method} ${request.url.pathname}`)
    assert.deepEqual(paths, ['GET /getAnalyticsConfig', 'POST /e'])
  })

  test('error telemetry (SPEC 9): shown errors, not rejections, at most 5 per 60 s per page, without addresses', async () => {
    let now = Date.parse('2026-11-24T10:00:00Z')
    const page = fakePage(() => now)
    // Two modals on one page share the page's limit.
    const first = createConfig({ apiUrl: service.url, projectId: 'loud', analytics: true }, page.platform)
    const second = createConfig({ apiUrl: service.url, projectId: 'loud', analytics: true }, page.platform)
    const stops = [watchAnalytics(first), watchAnalytics(second)]
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    first.events.emit('open', { view: 'Connect' })
    second.events.emit('open', { view: 'Connect' })
    first.events.emit('error', { code: 4001, message: 'User rejected the request.' })
    for (let index = 0; index < 4; index++)
      first.events.emit('error', { code: -32000, message: `insufficient funds for ${address} (${index})` })
    await settle(() => page.answered.includes('/getAnalyticsConfig'))
    second.events.emit('error', { code: -32603, message: 'Token Balance Unavailable' })
    second.events.emit('error', { code: -32603, message: 'over the limit' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    now += 60_000
    first.events.emit('error', { code: -32603, message: 'a minute later' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    await page.pageHide()
    const sent = page.beacons.flatMap(
      (beacon) =>
        JSON.parse(beacon.body) as {
          props: { event: string; properties: { message?: string }; address?: string }
        }[],
    )
    const errors = sent.filter((event) => event.props.event === 'ERROR')
    assert.deepEqual(errors.map((event) => event.props.properties.message).sort(), [
      'Token Balance Unavailable',
      'a minute later',
      'insufficient funds for 0x… (0)',
      'insufficient funds for 0x… (1)',
      'insufficient funds for 0x… (2)',
      'insufficient funds for 0x… (3)',
    ])
    assert.ok(!JSON.stringify(sent).includes(address.slice(2)), 'no address beyond SPEC 7 props.address')
    assert.ok(
      errors.every((event) => event.props.address === undefined),
      'not connected: no address',
    )
    for (const stop of stops) stop()
  })
})
