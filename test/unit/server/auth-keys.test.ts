/**
 * The keys behind sign-in tokens: a nonce token is no session token for a generic JWT library (`jose`),
 * and the session signing key rotates with `npm run project -- rotate-signing-key`, the old public key
 * served until the last token it signed expires, on every instance.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { runProjectCli } from '../../../server/cli/project.ts'
import {
  authenticateResponse,
  authNonceResponse,
  type JsonWebKeySet,
  jsonWebKeySet,
} from '../../../src/protocol/api/index.ts'
import { devSiteMessage, openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const alice = mnemonicToAccount('test test test test test test test test test test test junk')
const site = 'http://localhost:5173'
const hour = 3_600_000

let testDb: TestDatabase
let first: FastifyInstance
let second: FastifyInstance
/** Both instances' clock, moved by the tests. */
let now = Date.parse('2026-11-23T12:00:00.000Z')

before(async () => {
  testDb = await openTestDatabase('auth_keys')
  const config = testDb.config({ devOrigins: [site], rpcUpstreams: {}, authSessionTtlSeconds: 3600 })
  const deps = { database: testDb.database, logger: testLogger, auth: { now: () => now } }
  first = await buildApp(config, deps)
  second = await buildApp(config, deps)
})

after(async () => {
  await first?.close()
  await second?.close()
  await testDb?.close()
})

async function nonceFrom(app: FastifyInstance) {
  const response = await app.inject({ url: `/auth/v1/nonce?${sdk()}`, headers: { origin: site } })
  assert.equal(response.statusCode, 200, response.body)
  return authNonceResponse.parse(response.json())
}

async function signIn(app: FastifyInstance): Promise<string> {
  const { nonce, token } = await nonceFrom(app)
  const message = devSiteMessage(alice.address, nonce, 'eip155:1', now)
  const response = await app.inject({
    method: 'POST',
    url: `/auth/v1/authenticate?${sdk()}`,
    headers: { origin: site, 'content-type': 'application/json' },
    payload: JSON.stringify({ message, signature: await alice.signMessage({ message }), nonceToken: token }),
  })
  assert.equal(response.statusCode, 200, response.body)
  return authenticateResponse.parse(response.json()).token
}

async function jwks(app: FastifyInstance): Promise<JsonWebKeySet> {
  return jsonWebKeySet.parse((await app.inject({ url: '/auth/v1/keys' })).json())
}

/** What a site's backend does with `jose`: verify against the service's JWKS with its project as audience. */
function verifyWithJose(token: string, keys: JsonWebKeySet) {
  return jwtVerify(token, createLocalJWKSet(keys), {
    audience: 'dev-project',
    issuer: 'wallet-elements',
    currentDate: new Date(now),
  })
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid

async function me(app: FastifyInstance, token: string) {
  return app.inject({
    url: `/auth/v1/me?${sdk()}`,
    headers: { origin: site, authorization: `Bearer ${token}` },
  })
}

describe('nonce tokens are not session tokens', () => {
  test("error: jose's jwtVerify with the project's audience and the JWKS refuses a nonce token", async () => {
    const keys = await jwks(first)
    const session = await signIn(first)
    const verified = await verifyWithJose(session, keys)
    assert.equal(verified.payload.sub, `eip155:1:${alice.address}`, 'a session token passes (the control)')

    const { token: nonceToken } = await nonceFrom(first)
    await assert.rejects(verifyWithJose(nonceToken, keys), { code: 'ERR_JWKS_NO_MATCHING_KEY' })
    await assert.rejects(jwtVerify(nonceToken, createLocalJWKSet(keys)), { code: 'ERR_JWKS_NO_MATCHING_KEY' })
    assert.ok(!keys.keys.some((key) => key.kid === kidOf(nonceToken)), 'the nonce key is never published')
    const claims = JSON.parse(Buffer.from(nonceToken.split('.')[1] ?? '', 'base64url').toString('utf8'))
    assert.equal(claims.aud, 'siwx-nonce:dev-project', 'nor is its audience a project id')
    assert.equal(decodeProtectedHeader(nonceToken).typ, 'siwx-nonce+jwt')
  })

  test('error: a session token is not accepted as a nonce token, nor a nonce token as a session', async () => {
    const session = await signIn(first)
    const { nonce } = await nonceFrom(first)
    const message = devSiteMessage(alice.address, nonce, 'eip155:1', now)
    const asNonce = await first.inject({
      method: 'POST',
      url: `/auth/v1/authenticate?${sdk()}`,
      headers: { origin: site, 'content-type': 'application/json' },
      payload: JSON.stringify({
        message,
        signature: await alice.signMessage({ message }),
        nonceToken: session,
      }),
    })
    assert.equal(asNonce.statusCode, 401)
    assert.equal(asNonce.json().error.message, 'The nonce token is not valid')
    const { token: nonceToken } = await nonceFrom(first)
    const asSession = await me(first, nonceToken)
    assert.equal(asSession.statusCode, 401)
    assert.equal(asSession.json().error.message, 'The session token is not valid')
  })
})

describe('rotating the session signing key', () => {
  test('default: new tokens use the new key on every instance; the old key verifies until its last token expires', async () => {
    const before = await jwks(first)
    assert.equal(before.keys.length, 1)
    const oldToken = await signIn(first)
    const oldKid = kidOf(oldToken)
    assert.equal(oldKid, before.keys[0]?.kid)

    const out: string[] = []
    const code = await runProjectCli(['rotate-signing-key'], {
      database: testDb.database,
      out: (line) => out.push(line),
      err: (line) => out.push(line),
    })
    assert.equal(code, 0, out.join('\n'))
    const newKid = /^New session signing key (\S+);/.exec(out[0] ?? '')?.[1]
    assert.ok(newKid && newKid !== oldKid, out.join('\n'))
    assert.match(out[1] ?? '', new RegExp(`^Retired ${oldKid}: it stays in GET /auth/v1/keys until `))

    // Instances read the keys again within 10 s.
    now += 11_000
    for (const app of [first, second]) {
      const token = await signIn(app)
      assert.equal(kidOf(token), newKid)
      const keys = await jwks(app)
      assert.deepEqual(keys.keys.map((key) => key.kid).sort(), [newKid, oldKid].sort())
      await verifyWithJose(token, keys)
      await verifyWithJose(oldToken, keys)
      assert.equal((await me(app, oldToken)).statusCode, 200, 'the old session still works')
    }

    // Past the old key's last session: no longer published; tokens signed since stay valid.
    now += hour - 5_000
    const newToken = await signIn(first)
    for (const app of [first, second]) {
      const keys = await jwks(app)
      assert.deepEqual(
        keys.keys.map((key) => key.kid),
        [newKid],
      )
      await verifyWithJose(newToken, keys)
      assert.equal((await me(app, oldToken)).json().error.message, 'Session Expired')
    }
  })
})
