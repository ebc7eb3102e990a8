/**
 * PostgreSQL stops while the modal is in use, then starts again: meanwhile the service answers 503 with a
 * clear message within 10 s (never hangs, never crashes), it reconnects by itself, and no analytics
 * event or session it accepted is lost or stored twice. Runs on the PostgreSQL pass of CI
 * (`bash scripts/ci-postgres.sh`), whose server it stops and starts; skipped on PGlite.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { isDatabaseUnavailable } from '../../../server/db/database.ts'
import { analyticsEvents, authSessions } from '../../../server/db/schema.ts'
import { toServiceError } from '../../../server/http/errorHandler.ts'
import { apiErrorBody, authenticateResponse, authNonceResponse } from '../../../src/protocol/api/index.ts'
import {
  devSiteMessage,
  openTestDatabase,
  rawRequest,
  sdk,
  type TestDatabase,
  testLogger,
} from './helpers.ts'

const control = process.env.WALLET_ELEMENTS_PG_CONTROL
const run = promisify(execFile)
const alice = mnemonicToAccount('test test test test test test test test test test test junk')
const site = 'http://localhost:5173'

let testDb: TestDatabase
let app: FastifyInstance
let url = ''

/** One answer the modal got: what it asked, the status, and how long it waited. */
interface Exchange {
  what: string
  status: number
  ms: number
  body: string
}

async function exchange(what: string, send: () => Promise<{ status: number; text: string }>) {
  const started = performance.now()
  try {
    const response = await send()
    return { what, status: response.status, ms: performance.now() - started, body: response.text }
  } catch (error) {
    return { what, status: 0, ms: performance.now() - started, body: String(error) }
  }
}

function postEvent(eventId: string) {
  return exchange('POST /e', () =>
    rawRequest(`${url}/e?${sdk()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: site },
      body: JSON.stringify({
        eventId,
        url: `${site}/`,
        domain: 'localhost',
        timestamp: Date.now(),
        props: { type: 'track', event: 'MODAL_OPEN' },
      }),
    }),
  )
}

/** The sign-in a modal does: a nonce, the signed message, the session. Null when a step is refused. */
async function signIn(log: Exchange[]): Promise<string | null> {
  const nonce = await exchange('GET /auth/v1/nonce', () =>
    rawRequest(`${url}/auth/v1/nonce?${sdk()}`, { headers: { origin: site } }),
  )
  log.push(nonce)
  if (nonce.status !== 200) return null
  const { nonce: value, token } = authNonceResponse.parse(JSON.parse(nonce.body))
  const message = devSiteMessage(alice.address, value, 'eip155:1')
  const signature = await alice.signMessage({ message })
  const session = await exchange('POST /auth/v1/authenticate', () =>
    rawRequest(`${url}/auth/v1/authenticate?${sdk()}`, {
      method: 'POST',
      headers: { origin: site, 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature, nonceToken: token }),
    }),
  )
  log.push(session)
  return session.status === 200 ? authenticateResponse.parse(JSON.parse(session.body)).token : null
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.fail(`Timed out waiting for ${what}`)
}

describe('which database errors are "unavailable" (503) rather than a failed query (500)', () => {
  test('behavior: connection errors, shutdown and start-up codes, through wrappers', () => {
    const pgError = (code: string, message: string) => Object.assign(new Error(message), { code })
    const wrapped = (cause: Error) => new Error('Failed query: select 1', { cause })
    for (const error of [
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006', 'connection failure'),
      wrapped(pgError('57P01', 'terminating connection due to administrator command')),
      wrapped(new Error('Connection terminated unexpectedly')),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      assert.equal(isDatabaseUnavailable(error), true, error.message)
      const answer = toServiceError(error)
      assert.deepEqual([answer.statusCode, answer.code], [503, 'SERVICE_UNAVAILABLE'])
    }
    for (const error of [
      pgError('42601', 'syntax error at or near "selec"'),
      wrapped(pgError('23505', 'duplicate key value violates unique constraint')),
      new Error('something else'),
    ]) {
      assert.equal(isDatabaseUnavailable(error), false, error.message)
      assert.equal(toServiceError(error).statusCode, 500)
    }
  })

  test('behavior: a server that accepts and never answers is given up on within the timeout', async () => {
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const pool = new pg.Pool({
      connectionString: `postgresql://nobody@127.0.0.1:${port}/none`,
      connectionTimeoutMillis: 300,
      query_timeout: 300,
    })
    const started = performance.now()
    try {
      await assert.rejects(pool.query('select 1'), (error) => isDatabaseUnavailable(error))
      assert.ok(performance.now() - started < 2000)
    } finally {
      await pool.end()
      silent.close()
    }
  })
})

describe('PostgreSQL stops and starts again while the modal is in use', { skip: !control }, () => {
  before(async () => {
    testDb = await openTestDatabase('database_faults')
    app = await buildApp(testDb.config({ devOrigins: [site], rpcUpstreams: {} }), {
      database: testDb.database,
      logger: testLogger,
    })
    url = await app.listen({ host: '127.0.0.1', port: 0 })
  })

  after(async () => {
    // Whatever happened, the next test files need their server.
    await run(control as string, ['start']).catch(() => {})
    await app?.close()
    await testDb?.close()
  })

  test('behavior: 503 within 10 s while it is down, then back by itself, nothing lost or doubled', {
    timeout: 120_000,
  }, async () => {
    const accepted = new Set<string>()
    const refused: string[] = []
    const sessions: string[] = []
    const log: Exchange[] = []
    const use = async () => {
      const eventId = randomUUID()
      const event = await postEvent(eventId)
      log.push(event)
      if (event.status === 204) accepted.add(eventId)
      else refused.push(eventId)
      const token = await signIn(log)
      if (token) sessions.push(token)
      log.push(
        await exchange('GET /getWallets', () =>
          rawRequest(`${url}/getWallets?${sdk()}&entries=5`, { headers: { origin: site } }),
        ),
      )
    }

    for (let round = 0; round < 3; round++) await use()
    assert.equal(accepted.size, 3)
    assert.equal(sessions.length, 3)

    await run(control as string, ['stop'])
    const down = log.length
    const downSince = Date.now()
    while (Date.now() - downSince < 3000) await use()
    const duringOutage = log.slice(down)
    const health = await exchange('GET /healthz', () => rawRequest(`${url}/healthz`))
    assert.equal(health.status, 503)

    await run(control as string, ['start'])
    await until(
      async () => (await rawRequest(`${url}/healthz`)).status === 200,
      30_000,
      'the service to reconnect',
    )
    for (let round = 0; round < 3; round++) await use()
    const afterOutage = log.slice(down + duringOutage.length)

    // While it was down: 503 with the message, in time, and nothing else.
    assert.ok(duringOutage.length >= 3, `${duringOutage.length} requests while down`)
    for (const answer of duringOutage) {
      assert.ok(answer.ms < 10_000, `${answer.what} took ${answer.ms} ms`)
      assert.equal(answer.status, 503, `${answer.what}: ${answer.status} ${answer.body}`)
      assert.deepEqual(apiErrorBody.parse(JSON.parse(answer.body)).error, {
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is unavailable: try again in a few seconds',
      })
    }
    // Back by itself: everything answers again.
    assert.ok(
      afterOutage.every((answer) => answer.status === 200 || answer.status === 204),
      JSON.stringify(afterOutage.filter((answer) => answer.status >= 300)),
    )

    // The modal sends refused events again with their ids; each is stored once.
    for (const eventId of refused) {
      const again = await postEvent(eventId)
      assert.equal(again.status, 204)
      accepted.add(eventId)
    }
    const rows = await testDb.database.db
      .select({ id: analyticsEvents.eventId })
      .from(analyticsEvents)
      .where(eq(analyticsEvents.projectId, 'dev-project'))
    assert.deepEqual(rows.map((row) => row.id).sort(), [...accepted].sort())

    // Every session given out still works, and each was stored once.
    assert.equal(sessions.length, 6)
    for (const token of sessions) {
      const me = await rawRequest(`${url}/auth/v1/me?${sdk()}`, {
        headers: { origin: site, authorization: `Bearer ${token}` },
      })
      assert.equal(me.status, 200, me.text)
    }
    const stored = await testDb.database.db.select({ id: authSessions.id }).from(authSessions)
    assert.equal(stored.length, sessions.length)
  })
})
