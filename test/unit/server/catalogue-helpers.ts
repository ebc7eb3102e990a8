// Shared set-up of the catalogue tests: a service on a fresh PGlite and the project's request helpers.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { createProject } from '../../../server/projects/store.ts'
import { apiErrorBody, getWalletsResponse } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

export const metamask = 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96'
export const rainbow = '1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369'
export const rabby = 'fbc8d86ad914ebd733fec4812b4b7af5ca709fdd9e75a930115e5baa02c4ef4c'
export const minerva = 'dea4ab675289353a508956c4f821bc4e9141d9f99a5d244ae7af92b4d575db6d'
export const seededCount = 114

export let testDb: TestDatabase
export let app: FastifyInstance

export async function get(url: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'GET', url, headers })
}

export function errorOf(body: string) {
  return apiErrorBody.parse(JSON.parse(body)).error
}

export async function wallets(query: string) {
  const response = await get(`/getWallets?${sdk()}&${query}`)
  assert.equal(response.statusCode, 200, response.body)
  return getWalletsResponse.parse(response.json())
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startCatalogueService() {
  before(async () => {
    testDb = await openTestDatabase('catalogue')
    app = await buildApp(
      testDb.config({ devOrigins: ['http://localhost:5173', 'https://*.example.com', 'http://127.0.0.1:*'] }),
      { database: testDb.database, logger: testLogger },
    )
    await createProject(testDb.database.db, {
      id: 'quiet',
      name: 'Analytics off',
      origins: ['https://quiet.example.org'],
      analyticsEnabled: false,
    })
  })
  after(async () => {
    await app?.close()
    await testDb?.close()
  })
}
