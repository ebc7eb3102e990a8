import assert from 'node:assert/strict'
import { createPublicKey, verify } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { Keypair } from '@solana/web3.js'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { jwkThumbprint } from '../../../server/auth/jws.ts'
import { defaultRateLimits } from '../../../server/config.ts'
import { authNonces, authSessions } from '../../../server/db/schema.ts'
import { createProject } from '../../../server/projects/store.ts'
import {
  authErrorBody,
  authenticateResponse,
  authMeResponse,
  authNonceResponse,
  type JsonWebKeySet,
  jsonWebKeySet,
} from '../../../src/protocol/api/index.ts'
import { createSiwxMessage, encodeBase58, type SiwxMessageFields } from '../../../src/protocol/siwx/index.ts'
import { openTestDatabase, rawRequest, sdk, type TestDatabase, testLogger } from './helpers.ts'

const mnemonic = 'test test test test test test test test test test test junk'
const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })
const site = 'http://localhost:5173'
const start = Date.parse('2026-03-01T12:00:00.000Z')
const minute = 60_000

let testDb: TestDatabase
let app: FastifyInstance
/** The service's clock, moved by the tests. */
let now = start

before(async () => {
  testDb = await openTestDatabase('auth')
  app = await buildApp(testDb.config({ devOrigins: [site, 'https://*.example.com'], rpcUpstreams: {} }), {
    database: testDb.database,
    logger: testLogger,
    auth: { now: () => now },
  })
  await createProject(testDb.database.db, { id: 'other', name: 'Other', origins: ['https://other.example'] })
})

after(async () => {
  await app?.close()
  await testDb?.close()
})

function errorOf(body: string) {
  return authErrorBody.parse(JSON.parse(body)).error
}

async function getNonce(options: { origin?: string; project?: string; target?: FastifyInstance } = {}) {
  const response = await (options.target ?? app).inject({
    url: `/auth/v1/nonce?${sdk(options.project)}`,
    headers: { origin: options.origin ?? site },
  })
  assert.equal(response.statusCode, 200, response.body)
  return authNonceResponse.parse(response.json())
}

function fieldsFor(
  address: string,
  nonce: string,
  overrides: Partial<SiwxMessageFields> = {},
): SiwxMessageFields {
  return {
    domain: 'localhost:5173',
    accountAddress: address,
    statement: 'Sign in to the shop',
    uri: `${site}/checkout`,
    version: '1',
    chainId: 'eip155:1',
    nonce,
    issuedAt: new Date(now).toISOString(),
    expirationTime: new Date(now + 60 * minute).toISOString(),
    ...overrides,
  }
}

function authenticate(
  body: Record<string, unknown>,
  options: { origin?: string | null | undefined; project?: string; target?: FastifyInstance } = {},
) {
  const origin = options.origin === undefined ? site : options.origin
  return (options.target ?? app).inject({
    method: 'POST',
    url: `/auth/v1/authenticate?${sdk(options.project)}`,
    headers: { 'content-type': 'application/json', ...(origin === null ? {} : { origin }) },
    payload: JSON.stringify(body),
  })
}

/** Gets a nonce, signs an EIP-4361 message with `account`, and posts it. */
async function signInEvm(
  account = alice,
  overrides: Partial<SiwxMessageFields> = {},
  options: { origin?: string | null | undefined; signer?: typeof alice; target?: FastifyInstance } = {},
) {
  const { nonce, token } = await getNonce({ target: options.target ?? app })
  const message = createSiwxMessage(fieldsFor(account.address, nonce, overrides))
  const signature = await (options.signer ?? account).signMessage({ message })
  const body = { message, signature, nonceToken: token }
  const response = await authenticate(body, { origin: options.origin, target: options.target ?? app })
  return { response, body, nonce, token, message }
}

function me(token: string | undefined, options: { project?: string; origin?: string } = {}) {
  return app.inject({
    url: `/auth/v1/me?${sdk(options.project)}`,
    headers: {
      origin: options.origin ?? site,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
  })
}

function signOut(token: string | undefined) {
  return app.inject({
    method: 'POST',
    url: `/auth/v1/sign-out?${sdk()}`,
    headers: { origin: site, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
  })
}

/**
 * What a site's own backend does (docs/API.md): checks a session token with the service's JWKS, using
 * node:crypto alone.
 */
function verifySessionToken(
  token: string,
  options: { jwks: JsonWebKeySet; projectId: string; issuer?: string; now?: number },
): Record<string, unknown> {
  const [header64 = '', payload64 = '', signature64 = ''] = token.split('.')
  const header = JSON.parse(Buffer.from(header64, 'base64url').toString('utf8'))
  const jwk = options.jwks.keys.find((key) => key.kid === header.kid)
  if (header.alg !== 'EdDSA' || header.typ !== 'JWT' || !jwk)
    throw new Error('Not a session token of this service')
  const publicKey = createPublicKey({ key: jwk, format: 'jwk' })
  const signed = Buffer.from(`${header64}.${payload64}`)
  if (!verify(null, signed, publicKey, Buffer.from(signature64, 'base64url')))
    throw new Error('Bad signature')
  const claims = JSON.parse(Buffer.from(payload64, 'base64url').toString('utf8'))
  const seconds = (options.now ?? Date.now()) / 1000
  if (claims.iss !== (options.issuer ?? 'wallet-elements') || claims.aud !== options.projectId) {
    throw new Error('Token for another service or project')
  }
  if (claims.nbf > seconds + 60 || claims.exp <= seconds) throw new Error('Session Expired')
  return claims
}

describe('GET /auth/v1/nonce', () => {
  test('default: a fresh nonce of 24 letters and digits and its token, stored for 5 minutes', async () => {
    now = start
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

describe('POST /auth/v1/authenticate (eip155)', () => {
  test('default: an EOA signs in; the session, CACAO and stored row describe the message', async () => {
    now = start
    const { response, body, message } = await signInEvm()
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(response.headers['cache-control'], 'no-store')
    assert.equal(response.headers['access-control-allow-origin'], site)
    const { token, session } = authenticateResponse.parse(response.json())
    assert.equal(session.message, message)
    assert.equal(session.signature, body.signature)
    assert.deepEqual(response.json().session.data, {
      domain: 'localhost:5173',
      accountAddress: alice.address,
      chainId: 'eip155:1',
      uri: `${site}/checkout`,
      version: '1',
      nonce: session.data.nonce,
      issuedAt: new Date(start).toISOString(),
      statement: 'Sign in to the shop',
      expirationTime: new Date(start + 60 * minute).toISOString(),
    })
    assert.deepEqual(session.cacao, {
      h: { t: 'eip4361' },
      p: {
        domain: 'localhost:5173',
        iss: `did:pkh:eip155:1:${alice.address}`,
        aud: `${site}/checkout`,
        version: '1',
        nonce: session.data.nonce,
        iat: new Date(start).toISOString(),
        exp: new Date(start + 60 * minute).toISOString(),
        statement: 'Sign in to the shop',
      },
      s: { t: 'eip191', s: body.signature },
    })
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
    // The session ends with the message's expiration time (before the 7-day default).
    assert.equal(claims.exp, (start + 60 * minute) / 1000)
    assert.equal(claims.sub, `eip155:1:${alice.address}`)
    assert.equal(claims.aud, 'dev-project')
    const [row] = await testDb.database.db.select().from(authSessions).where(eq(authSessions.id, claims.jti))
    assert.ok(row)
    assert.equal(row.address, alice.address)
    assert.equal(row.signatureType, 'eip191')
    assert.equal(row.revokedAt, null)
    const [nonceRow] = await testDb.database.db
      .select()
      .from(authNonces)
      .where(eq(authNonces.id, row.nonceId))
    assert.equal(nonceRow?.usedAt?.getTime(), start)
  })

  test('default: without an expiration time the session lasts the 7-day default', async () => {
    now = start
    const { response } = await signInEvm(alice, { expirationTime: undefined })
    assert.equal(response.statusCode, 200, response.body)
    const claims = JSON.parse(Buffer.from(response.json().token.split('.')[1], 'base64url').toString())
    assert.equal(claims.exp - claims.iat, 7 * 24 * 60 * 60)
  })

  test('args: a server-to-server request (no Origin) is checked against the allow-list alone', async () => {
    now = start
    const { response } = await signInEvm(
      alice,
      { domain: 'shop.example.com', uri: 'https://shop.example.com/' },
      {
        origin: null,
      },
    )
    assert.equal(response.statusCode, 200, response.body)
  })

  test('args: the optional data must match the message', async () => {
    now = start
    const { nonce, token } = await getNonce()
    const fields = fieldsFor(alice.address, nonce)
    const message = createSiwxMessage(fields)
    const signature = await alice.signMessage({ message })
    const mismatch = await authenticate({
      message,
      signature,
      nonceToken: token,
      data: { ...fields, nonce: 'other1234' },
    })
    assert.equal(mismatch.statusCode, 400)
    assert.deepEqual(errorOf(mismatch.body), {
      code: 'BAD_REQUEST',
      message: 'Invalid body field data.nonce: does not match the message',
      field: 'data.nonce',
    })
    const matching = await authenticate({
      message,
      signature,
      nonceToken: token,
      data: { ...fields, accountAddress: alice.address.toLowerCase() },
    })
    assert.equal(matching.statusCode, 200, matching.body)
  })

  test('error: a nonce is used once; replaying the signed message is refused', async () => {
    now = start
    const { response, body } = await signInEvm()
    assert.equal(response.statusCode, 200)
    const replay = await authenticate(body)
    assert.equal(replay.statusCode, 401)
    assert.deepEqual(errorOf(replay.body), {
      code: 'INVALID_NONCE',
      message: 'The nonce was already used',
      field: 'nonceToken',
    })
  })

  test('error: two racing requests with one nonce open one session', async () => {
    now = start
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(alice.address, nonce))
    const body = { message, signature: await alice.signMessage({ message }), nonceToken: token }
    const answers = await Promise.all([authenticate(body), authenticate(body), authenticate(body)])
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 401, 401])
  })

  test('error: a nonce expires after 5 minutes', async () => {
    now = start
    const { nonce, token } = await getNonce()
    now = start + 5 * minute
    const message = createSiwxMessage(fieldsFor(alice.address, nonce))
    const response = await authenticate({
      message,
      signature: await alice.signMessage({ message }),
      nonceToken: token,
    })
    assert.equal(response.statusCode, 401)
    assert.deepEqual(errorOf(response.body), {
      code: 'INVALID_NONCE',
      message: 'The nonce has expired: get a new one',
      field: 'nonceToken',
    })
    now = start
  })

  test('error: the nonce token must be ours, for this project, with the nonce of the message', async () => {
    now = start
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(alice.address, nonce))
    const signature = await alice.signMessage({ message })
    const [header, payload, mac] = token.split('.')
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()), aud: 'other' })).toString('base64url')}.${mac}`
    const other = await getNonce({ project: 'other', origin: 'https://other.example' })
    const wrongNonce = createSiwxMessage(fieldsFor(alice.address, 'abcdefgh12345678'))
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ message, signature, nonceToken: 'not.a.token' }, 'The nonce token is not valid', 'nonceToken'],
      [{ message, signature, nonceToken: forged }, 'The nonce token is not valid', 'nonceToken'],
      [
        { message, signature, nonceToken: other.token },
        'The nonce token belongs to another project',
        'nonceToken',
      ],
      [
        {
          message: wrongNonce,
          signature: await alice.signMessage({ message: wrongNonce }),
          nonceToken: token,
        },
        "The message's nonce is not the nonce of the token",
        'message',
      ],
    ]
    for (const [body, text, field] of cases) {
      const response = await authenticate(body)
      assert.equal(response.statusCode, 401, text)
      assert.deepEqual(errorOf(response.body), { code: 'INVALID_NONCE', message: text, field })
    }
  })

  test('error: a signature by another key is refused', async () => {
    now = start
    const { response } = await signInEvm(alice, {}, { signer: bob })
    assert.equal(response.statusCode, 401)
    assert.deepEqual(errorOf(response.body), {
      code: 'INVALID_SIGNATURE',
      message: 'The signature does not match the message and address',
      field: 'signature',
    })
  })

  test('error: a signature of another message, or not hex at all, is refused', async () => {
    now = start
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(alice.address, nonce))
    const otherSignature = await alice.signMessage({ message: `${message} ` })
    const tampered = await authenticate({ message, signature: otherSignature, nonceToken: token })
    assert.equal(tampered.statusCode, 401)
    assert.equal(errorOf(tampered.body).code, 'INVALID_SIGNATURE')
    const notHex = await authenticate({ message, signature: 'hello', nonceToken: token })
    assert.equal(notHex.statusCode, 400)
    assert.equal(errorOf(notHex.body).field, 'signature')
    // Longer than a key's signature and no chain to ask: only a smart account could have made it.
    const long = await authenticate({ message, signature: `0x${'ab'.repeat(100)}`, nonceToken: token })
    assert.equal(long.statusCode, 401)
    assert.equal(errorOf(long.body).message, 'This application might not support Smart Accounts')
  })

  test('error: a message for a domain or URI off the allow-list, or not the requesting page, is refused', async () => {
    now = start
    const cases: Array<[Partial<SiwxMessageFields>, string | null, string]> = [
      [{ domain: 'evil.test' }, null, "The message domain evil.test is not on the project's allowed origins"],
      [
        { uri: 'https://evil.test/login' },
        null,
        "The message URI https://evil.test/login is not on the project's allowed origins",
      ],
      [{ uri: 'ftp://localhost:5173/' }, null, 'The message URI must be an http or https URL'],
      [
        { domain: 'localhost:5174' },
        null,
        "The message domain localhost:5174 is not on the project's allowed origins",
      ],
      [
        { domain: 'shop.example.com', uri: 'https://shop.example.com/' },
        site,
        "The message domain shop.example.com is not the requesting page's (http://localhost:5173)",
      ],
      [
        { uri: 'https://shop.example.com/' },
        site,
        "The message URI https://shop.example.com/ is not on the requesting page's origin (http://localhost:5173)",
      ],
    ]
    for (const [overrides, origin, text] of cases) {
      const { response } = await signInEvm(alice, overrides, { origin: origin ?? null })
      assert.equal(response.statusCode, 403, text)
      assert.deepEqual(errorOf(response.body), { code: 'INVALID_DOMAIN', message: text, field: 'message' })
    }
  })

  test('error: a page whose origin is not allowed gets Invalid App Configuration', async () => {
    now = start
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(
      fieldsFor(alice.address, nonce, { domain: 'evil.test', uri: 'https://evil.test/' }),
    )
    const response = await authenticate(
      { message, signature: await alice.signMessage({ message }), nonceToken: token },
      { origin: 'https://evil.test' },
    )
    assert.equal(response.statusCode, 403)
    assert.equal(errorOf(response.body).message, 'Invalid App Configuration')
  })

  test('error: an expired message is "Session Expired"', async () => {
    now = start
    const { response } = await signInEvm(alice, {
      issuedAt: new Date(start - 10 * minute).toISOString(),
      expirationTime: new Date(start - minute).toISOString(),
    })
    assert.equal(response.statusCode, 401)
    assert.deepEqual(errorOf(response.body), {
      code: 'SESSION_EXPIRED',
      message: 'Session Expired',
      field: 'message',
    })
  })

  test('error: Not Before in the future is "Session Expired" with the JWT-not-yet-valid hint', async () => {
    now = start
    const { response } = await signInEvm(alice, { notBefore: new Date(start + 10 * minute).toISOString() })
    assert.equal(response.statusCode, 401)
    assert.deepEqual(errorOf(response.body), {
      code: 'SESSION_EXPIRED',
      message: 'Session Expired',
      field: 'message',
      hint: 'JWT not yet valid: check time settings',
    })
    assert.equal(response.headers['access-control-allow-origin'], site)
  })

  test('args: Issued At may be up to a minute ahead of the service clock, not more', async () => {
    now = start
    const ahead = await signInEvm(alice, { issuedAt: new Date(start + 50_000).toISOString() })
    assert.equal(ahead.response.statusCode, 200, ahead.response.body)
    const future = await signInEvm(alice, { issuedAt: new Date(start + 2 * minute).toISOString() })
    assert.equal(future.response.statusCode, 401)
    assert.equal(errorOf(future.response.body).hint, 'JWT not yet valid: check time settings')
    const reached = await signInEvm(alice, { notBefore: new Date(start - minute).toISOString() })
    assert.equal(reached.response.statusCode, 200, reached.response.body)
  })

  test('error: bad bodies name the field', async () => {
    now = start
    const { token } = await getNonce()
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ signature: '0x00', nonceToken: token }, 'message', /^Missing body field message$/],
      [
        { message: 'hello', signature: '0x00', nonceToken: token },
        'message',
        /^Invalid body field message: /,
      ],
      [{ message: 'x', nonceToken: token }, 'signature', /^Missing body field signature$/],
      [{ message: 'x', signature: '0x00' }, 'nonceToken', /^Missing body field nonceToken$/],
    ]
    for (const [body, field, message] of cases) {
      const response = await authenticate(body)
      assert.equal(response.statusCode, 400, JSON.stringify(body))
      const error = errorOf(response.body)
      assert.equal(error.field, field)
      assert.match(error.message, message)
    }
  })
})

describe('POST /auth/v1/authenticate (solana)', () => {
  const key = Keypair.fromSeed(new Uint8Array(32).fill(3))
  const address = key.publicKey.toBase58()
  const secret = key.secretKey.slice(0, 32)
  const chainId = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

  test('default: an ed25519 signature over the UTF-8 text signs in (base58 or 0x hex)', async () => {
    now = start
    for (const encode of [encodeBase58, (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`]) {
      const { nonce, token } = await getNonce()
      const message = createSiwxMessage(
        fieldsFor(address, nonce, { chainId, statement: 'Connexion à la boutique ✓' }),
      )
      const signature = encode(ed25519.sign(new TextEncoder().encode(message), secret))
      const response = await authenticate({ message, signature, nonceToken: token })
      assert.equal(response.statusCode, 200, response.body)
      const { session, token: sessionToken } = authenticateResponse.parse(response.json())
      assert.equal(session.data.chainId, chainId)
      assert.deepEqual(session.cacao.h, { t: 'caip122' })
      assert.deepEqual(session.cacao.s, { t: 'solana:ed25519', s: signature })
      const answer = await me(sessionToken)
      assert.equal(answer.statusCode, 200)
      assert.equal(authMeResponse.parse(answer.json()).caipAddress, `${chainId}:${address}`)
    }
  })

  test('error: a signature by another key, or of other text, is refused', async () => {
    now = start
    const other = Keypair.fromSeed(new Uint8Array(32).fill(4)).secretKey.slice(0, 32)
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(address, nonce, { chainId }))
    const bytes = new TextEncoder().encode(message)
    for (const signature of [
      encodeBase58(ed25519.sign(bytes, other)),
      encodeBase58(ed25519.sign(new TextEncoder().encode(`${message}!`), secret)),
    ]) {
      const response = await authenticate({ message, signature, nonceToken: token })
      assert.equal(response.statusCode, 401)
      assert.equal(errorOf(response.body).code, 'INVALID_SIGNATURE')
    }
    const short = await authenticate({
      message,
      signature: encodeBase58(new Uint8Array(10)),
      nonceToken: token,
    })
    assert.equal(short.statusCode, 400)
    assert.equal(errorOf(short.body).field, 'signature')
  })
})

describe('GET /auth/v1/me and POST /auth/v1/sign-out', () => {
  test('default: the session of a bearer token', async () => {
    now = start
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
    now = start
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
    now = start
    const { response } = await signInEvm()
    const { token } = authenticateResponse.parse(response.json())
    now = start + 60 * minute
    const expired = await me(token)
    assert.equal(expired.statusCode, 401)
    assert.deepEqual(errorOf(expired.body), { code: 'SESSION_EXPIRED', message: 'Session Expired' })
    now = start - 5 * minute
    const early = await me(token)
    assert.equal(early.statusCode, 401)
    assert.deepEqual(errorOf(early.body), {
      code: 'SESSION_EXPIRED',
      message: 'Session Expired',
      hint: 'JWT not yet valid: check time settings',
    })
    now = start
  })

  test('default: sign-out revokes the session: /me refuses it, signing out again is fine', async () => {
    now = start
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
    now = Date.now()
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
    now = start
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
