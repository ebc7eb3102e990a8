// Sign-in through POST /auth/v1/authenticate, for EVM and Solana signers.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { Keypair } from '@solana/web3.js'
import { eq } from 'drizzle-orm'
import { authNonces, authSessions } from '../../../server/db/schema.ts'
import { authenticateResponse, authMeResponse } from '../../../src/protocol/api/index.ts'
import { createSiwxMessage, encodeBase58, type SiwxMessageFields } from '../../../src/protocol/siwx/index.ts'
import {
  alice,
  authenticate,
  bob,
  errorOf,
  fieldsFor,
  getNonce,
  me,
  minute,
  setNow,
  signInEvm,
  site,
  start,
  startAuthService,
  testDb,
} from './auth-helpers.ts'

startAuthService()

describe('POST /auth/v1/authenticate (eip155)', () => {
  test('default: an EOA signs in; the session, CACAO and stored row describe the message', async () => {
    setNow(start)
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
    setNow(start)
    const { response } = await signInEvm(alice, { expirationTime: undefined })
    assert.equal(response.statusCode, 200, response.body)
    const claims = JSON.parse(Buffer.from(response.json().token.split('.')[1], 'base64url').toString())
    assert.equal(claims.exp - claims.iat, 7 * 24 * 60 * 60)
  })

  test('args: a server-to-server request (no Origin) is checked against the allow-list alone', async () => {
    setNow(start)
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
    setNow(start)
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
    setNow(start)
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
    setNow(start)
    const { nonce, token } = await getNonce()
    const message = createSiwxMessage(fieldsFor(alice.address, nonce))
    const body = { message, signature: await alice.signMessage({ message }), nonceToken: token }
    const answers = await Promise.all([authenticate(body), authenticate(body), authenticate(body)])
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 401, 401])
  })

  test('error: a nonce expires after 5 minutes', async () => {
    setNow(start)
    const { nonce, token } = await getNonce()
    setNow(start + 5 * minute)
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
    setNow(start)
  })

  test('error: the nonce token must be ours, for this project, with the nonce of the message', async () => {
    setNow(start)
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
    setNow(start)
    const { response } = await signInEvm(alice, {}, { signer: bob })
    assert.equal(response.statusCode, 401)
    assert.deepEqual(errorOf(response.body), {
      code: 'INVALID_SIGNATURE',
      message: 'The signature does not match the message and address',
      field: 'signature',
    })
  })

  test('error: a signature of another message, or not hex at all, is refused', async () => {
    setNow(start)
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
    setNow(start)
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
    setNow(start)
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
    setNow(start)
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
    setNow(start)
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
    setNow(start)
    const ahead = await signInEvm(alice, { issuedAt: new Date(start + 50_000).toISOString() })
    assert.equal(ahead.response.statusCode, 200, ahead.response.body)
    const future = await signInEvm(alice, { issuedAt: new Date(start + 2 * minute).toISOString() })
    assert.equal(future.response.statusCode, 401)
    assert.equal(errorOf(future.response.body).hint, 'JWT not yet valid: check time settings')
    const reached = await signInEvm(alice, { notBefore: new Date(start - minute).toISOString() })
    assert.equal(reached.response.statusCode, 200, reached.response.body)
  })

  test('error: bad bodies name the field', async () => {
    setNow(start)
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
    setNow(start)
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
    setNow(start)
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
