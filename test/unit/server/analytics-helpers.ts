// Shared set-up of the analytics tests: a service on a fresh PGlite and event helpers.
import { randomUUID } from 'node:crypto'
import { after, before, beforeEach } from 'node:test'
import { asc } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { analyticsEvents } from '../../../server/db/schema.ts'
import { createProject } from '../../../server/projects/store.ts'
import type { AnalyticsEvent } from '../../../src/protocol/api/index.ts'
import { apiErrorBody } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

export let testDb: TestDatabase
export let app: FastifyInstance

export function event(
  overrides: Partial<AnalyticsEvent> = {},
  props: Partial<AnalyticsEvent['props']> = {},
): AnalyticsEvent {
  return {
    eventId: randomUUID(),
    url: 'http://localhost:5173/shop?item=1',
    domain: 'localhost',
    timestamp: 1_767_225_600_000,
    props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false }, ...props },
    ...overrides,
  }
}

export function post(body: unknown, options: { query?: string; origin?: string; contentType?: string } = {}) {
  return app.inject({
    method: 'POST',
    url: `/e?${options.query ?? sdk()}`,
    headers: {
      'content-type': options.contentType ?? 'application/json',
      ...(options.origin === undefined ? {} : { origin: options.origin }),
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

export async function stored() {
  return testDb.database.db.select().from(analyticsEvents).orderBy(asc(analyticsEvents.clientTimestamp))
}

export function errorOf(body: string) {
  return apiErrorBody.parse(JSON.parse(body)).error
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startAnalyticsService() {
  before(async () => {
    testDb = await openTestDatabase('analytics')
    app = await buildApp(testDb.config({ devOrigins: ['http://localhost:5173'] }), {
      database: testDb.database,
      logger: testLogger,
    })
    await createProject(testDb.database.db, { id: 'quiet', name: 'Quiet', analyticsEnabled: false })
  })
  after(async () => {
    await app?.close()
    await testDb?.close()
  })
  beforeEach(async () => {
    await testDb.database.db.delete(analyticsEvents)
  })
}
