// Nonces, sessions (/me, sign-out), the JWKS, and the auth routes over real HTTP.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { jwkThumbprint } from '../../../server/auth/jws.ts'
import { defaultRateLimits } from '../../../server/config.ts'
import { authNonces, authSessions } from '../../../server/db/schema.ts'
import {
  authenticateResponse,
  authMeResponse,
  authNonceResponse,
  jsonWebKeySet,
} from '../../../src/protocol/api/index.ts'
import { createSiwxMessage } from '../../../src/protocol/siwx/index.ts'
import {
  alice,
  app,
  errorOf,
  fieldsFor,
  getNonce,
  me,
  minute,
  now,
  setNow,
  signInEvm,
  signOut,
  site,
  start,
  startAuthService,
  testDb,
  verifySessionToken,
} from './auth-helpers.ts'
import { rawRequest, sdk, testLogger } from './helpers.ts'

startAuthService()

describe('GET /auth/v1/nonce', () => {
  test('default: a fresh nonce of 24 letters and digits and its token, stored for 5 minutes', async () => {
    setNow(start)
    const first = await getNonce()
    const second = await getNonce()
    assert.match(first.nonce, /^[A-Za-z0-9]{24}$/)
    assert.notEqual(first.nonce, second.nonce)
    assert.equal(first.token.split('.').length, 3)
    const header = JSON.parse(Buffer.from(first.token.split('.')[0] ?? '', 'base64url').toString())
    assert.deepEqual(Object.keys(header).sort(), ['alg', 'kid', 'typ'])
    assert.equal(header.alg, 'EdDSA')
    const [row] = await testDb.database.db.select().from(authNonces).where(eq(authNonces.nonce, first.nonce))
    assert.ok(row)
    assert.equal(row.projectId, 'dev-project')
    assert.equal(row.usedAt, null)
    assert.equal(row.expiresAt.getTime() - row.createdAt.getTime(), 5 * minute)
    assert.equal(row.createdAt.getTime(), start)
  })

  test('default: no caching, CORS for the allowed origin', async () => {
    const response = await app.inject({ url: `/auth/v1/nonce?${sdk()}`, headers: { origin: site } })
    assert.equal(response.headers['cache-control'], 'no-store')
    assert.equal(response.headers['access-control-allow-origin'], site)
  })

  test('error: HEAD makes no nonce (there is no HEAD route)', async () => {
    const before = (await testDb.database.db.select().from(authNonces)).length
    const response = await app.inject({
      method: 'HEAD',
      url: `/auth/v1/nonce?${sdk()}`,
      headers: { origin: site },
    })
    assert.equal(response.statusCode, 404)
    assert.equal((await testDb.database.db.select().from(authNonces)).length, before)
  })

  test('error: a client asking for too many nonces gets 429 with Retry-After, others and later asks do not', async () => {
    let clock = start
    // Same dev project origins as the suite's app: both seed the one database.
    const limited = await buildApp(
      testDb.config({
        devOrigins: [site, 'https://*.example.com'],
        rpcUpstreams: {},
        rateLimits: { ...defaultRateLimits, signInPerMinute: 3 },
      }),
      { database: testDb.database, logger: testLogger, now: () => clock },
    )
    try {
      const ask = (ip: string) =>
        limited.inject({ url: `/auth/v1/nonce?${sdk()}`, headers: { origin: site }, remoteAddress: ip })
      for (let i = 0; i < 3; i++) assert.equal((await ask('10.0.0.1')).statusCode, 200)
      clock += 5_000
      const refused = await ask('10.0.0.1')
      assert.equal(refused.statusCode, 429)
      // 3 a minute: one comes back every 20 s.
      assert.equal(refused.headers['retry-after'], '15')
      assert.deepEqual(errorOf(refused.body), {
        code: 'TOO_MANY_REQUESTS',
        message: 'Too many sign-in attempts: try again in 15 seconds',
      })
      assert.equal(refused.headers['access-control-allow-origin'], site)
      assert.equal((await ask('10.0.0.2')).statusCode, 200, 'another client is not affected')
      clock += 15_000
      assert.equal((await ask('10.0.0.1')).statusCode, 200, 'one nonce back after 20 s')
      assert.equal((await ask('10.0.0.1')).statusCode, 429)
    } finally {
      await limited.close()
    }
  })

  test('error: the project, SDK parameters and origin are checked like every project route', async () => {
    const cases: Array<[string, string | undefined, number, string]> = [
      ['/auth/v1/nonce', site, 400, 'PROJECT_ID_NOT_CONFIGURED'],
      [`/auth/v1/nonce?${sdk('nobody')}`, site, 401, 'INVALID_PROJECT_ID'],
      ['/auth/v1/nonce?projectId=dev-project', site, 400, 'BAD_REQUEST'],
      [`/auth/v1/nonce?${sdk()}`, 'http://evil.test', 403, 'INVALID_APP_CONFIGURATION'],
    ]
    for (const [url, origin, status, code] of cases) {
      const response = await app.inject({ url, headers: origin === undefined ? {} : { origin } })
      assert.equal(response.statusCode, status, url)
      assert.equal(errorOf(response.body).code, code)
    }
  })

  test('error: a database failure answers "A problem occurred while trying initialize authentication"', async () => {
    const db = testDb.database.db
    await db.execute(sql`ALTER TABLE auth_nonces RENAME TO auth_nonces_away`)
    try {
      const response = await app.inject({ url: `/auth/v1/nonce?${sdk()}`, headers: { origin: site } })
      assert.equal(response.statusCode, 500)
      assert.deepEqual(errorOf(response.body), {
        code: 'AUTHENTICATION_INIT_FAILED',
        message: 'A problem occurred while trying initialize authentication',
      })
    } finally {
      await db.execute(sql`ALTER TABLE auth_nonces_away RENAME TO auth_nonces`)
    }
  })
})

describe('GET /auth/v1/me and POST /auth/v1/sign-out', () => {
  test('default: the session of a bearer token', async () => {
    setNow(start)
    const { response } = await signInEvm()
    const { token } = authenticateResponse.parse(response.json())
    const answer = await me(token)
    assert.equal(answer.statusCode, 200)
    assert.equal(answer.headers['cache-control'], 'no-store')
    const body = authMeResponse.parse(answer.json())
    assert.deepEqual(
      { ...body, sessionId: '' },
      {
        sessionId: '',
        projectId: 'dev-project',
        address: alice.address,
        chainId: 'eip155:1',
        caipAddress: `eip155:1:${alice.address}`,
        domain: 'localhost:5173',
        uri: `${site}/checkout`,
        issuedAt: new Date(start).toISOString(),
        expiresAt: new Date(start + 60 * minute).toISOString(),
      },
    )
  })

  test("error: no token, a bad token or another project's token is 401", async () => {
    setNow(start)
    const { response } = await signInEvm()
    const { token } = authenticateResponse.parse(response.json())
    const [header, payload] = token.split('.')
    const cases: Array<[string | undefined, string, string | undefined]> = [
      [undefined, 'Send the session token as Authorization: Bearer <token>', undefined],
      ['garbage', 'The session token is not valid', undefined],
      [
        `${header}.${payload}.${Buffer.alloc(64).toString('base64url')}`,
        'The session token is not valid',
        undefined,
      ],
      [token, 'The session token belongs to another project', 'other'],
    ]
    for (const [bearer, message, project] of cases) {
      const answer = await me(bearer, project ? { project, origin: 'https://other.example' } : {})
      assert.equal(answer.statusCode, 401, message)
      assert.deepEqual(errorOf(answer.body), { code: 'UNAUTHORIZED', message })
    }
    // A nonce token is not a session token.
    const nonceToken = (await getNonce()).token
    assert.equal((await me(nonceToken)).statusCode, 401)
  })

  test('error: an expired session is "Session Expired"; one from the future has the hint', async () => {
    setNow(start)
    const { response } = await signInEvm()
    const { token } = authenticateResponse.parse(response.json())
    setNow(start + 60 * minute)
    const expired = await me(token)
    assert.equal(expired.statusCode, 401)
    assert.deepEqual(errorOf(expired.body), { code: 'SESSION_EXPIRED', message: 'Session Expired' })
    setNow(start - 5 * minute)
    const early = await me(token)
    assert.equal(early.statusCode, 401)
    assert.deepEqual(errorOf(early.body), {
      code: 'SESSION_EXPIRED',
      message: 'Session Expired',
      hint: 'JWT not yet valid: check time settings',
    })
    setNow(start)
  })

  test('default: sign-out revokes the session: /me refuses it, signing out again is fine', async () => {
    setNow(start)
    const { response } = await signInEvm()
    const { token } = authenticateResponse.parse(response.json())
    assert.equal((await me(token)).statusCode, 200)
    const out = await signOut(token)
    assert.equal(out.statusCode, 204)
    assert.equal(out.body, '')
    const after = await me(token)
    assert.equal(after.statusCode, 401)
    assert.deepEqual(errorOf(after.body), { code: 'UNAUTHORIZED', message: 'The session was signed out' })
    assert.equal((await signOut(token)).statusCode, 204)
    assert.equal((await signOut(undefined)).statusCode, 401)
    const [row] = await testDb.database.db
      .select()
      .from(authSessions)
      .where(
        eq(authSessions.id, JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).jti),
      )
    assert.equal(row?.revokedAt?.getTime(), start)
  })
})

describe('GET /auth/v1/keys', () => {
  test('default: a JWKS a site backend verifies session tokens with through node:crypto', async () => {
    setNow(Date.now())
    const keys = await app.inject({ url: '/auth/v1/keys' })
    assert.equal(keys.statusCode, 200)
    assert.equal(keys.headers['access-control-allow-origin'], '*')
    assert.equal(keys.headers['cache-control'], 'public, max-age=300')
    const jwks = jsonWebKeySet.parse(keys.json())
    assert.equal(jwks.keys.length, 1)
    const [jwk] = jwks.keys
    assert.ok(jwk)
    assert.equal(jwk.kid, jwkThumbprint(jwk))
    assert.equal(Buffer.from(jwk.x, 'base64url').length, 32)
    assert.doesNotMatch(keys.body, /"d"/)

    const { response } = await signInEvm()
    assert.equal(response.statusCode, 200, response.body)
    const { token } = authenticateResponse.parse(response.json())
    const claims = verifySessionToken(token, { jwks, projectId: 'dev-project' })
    assert.equal(claims.address, alice.address)
    assert.throws(() => verifySessionToken(token, { jwks, projectId: 'other' }), /another service or project/)
    assert.throws(() => verifySessionToken(`${token.slice(0, -4)}AAAA`, { jwks, projectId: 'dev-project' }))
    assert.throws(
      () => verifySessionToken(token, { jwks, projectId: 'dev-project', now: now + 61 * minute }),
      /Session Expired/,
    )
    setNow(start)
  })

  test('default: the RFC 8037 thumbprint example', () => {
    assert.equal(
      jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }),
      'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    )
  })

  test('default: the key is made once and kept in the database across restarts', async () => {
    const before = jsonWebKeySet.parse((await app.inject({ url: '/auth/v1/keys' })).json())
    const again = await buildApp(testDb.config({ devOrigins: [site] }), {
      database: testDb.database,
      logger: testLogger,
    })
    try {
      const after = jsonWebKeySet.parse((await again.inject({ url: '/auth/v1/keys' })).json())
      assert.deepEqual(after, before)
    } finally {
      await again.close()
    }
  })
})

describe('over real HTTP on 127.0.0.1', () => {
  let url = ''
  let server: FastifyInstance

  before(async () => {
    server = await buildApp(testDb.config({ devOrigins: [site], rpcUpstreams: {} }), {
      database: testDb.database,
      logger: testLogger,
    })
    url = await server.listen({ host: '127.0.0.1', port: 0 })
  })
  after(async () => {
    await server?.close()
  })

  test('default: preflight, nonce, authenticate, me and sign-out from the page origin', async () => {
    const preflight = await rawRequest(`${url}/auth/v1/me?${sdk()}`, {
      method: 'OPTIONS',
      headers: {
        origin: site,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers['access-control-allow-origin'], site)
    assert.equal(preflight.headers['access-control-allow-headers'], 'authorization')

    const nonce = authNonceResponse.parse(
      JSON.parse((await rawRequest(`${url}/auth/v1/nonce?${sdk()}`, { headers: { origin: site } })).text),
    )
    const message = createSiwxMessage({
      ...fieldsFor(alice.address, nonce.nonce),
      issuedAt: new Date().toISOString(),
      expirationTime: undefined,
    })
    const signed = await rawRequest(`${url}/auth/v1/authenticate?${sdk()}`, {
      method: 'POST',
      headers: { origin: site, 'content-type': 'application/json' },
      body: JSON.stringify({
        message,
        signature: await alice.signMessage({ message }),
        nonceToken: nonce.token,
      }),
    })
    assert.equal(signed.status, 200, signed.text)
    assert.equal(signed.headers['access-control-allow-origin'], site)
    const { token } = authenticateResponse.parse(JSON.parse(signed.text))
    const authorization = `Bearer ${token}`
    const who = await rawRequest(`${url}/auth/v1/me?${sdk()}`, { headers: { origin: site, authorization } })
    assert.equal(who.status, 200, who.text)
    assert.equal(authMeResponse.parse(JSON.parse(who.text)).address, alice.address)
    const out = await rawRequest(`${url}/auth/v1/sign-out?${sdk()}`, {
      method: 'POST',
      headers: { origin: site, authorization },
    })
    assert.equal(out.status, 204)
    const gone = await rawRequest(`${url}/auth/v1/me?${sdk()}`, { headers: { origin: site, authorization } })
    assert.equal(gone.status, 401)
    assert.equal(gone.headers['access-control-allow-origin'], site)
  })
})
