import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { encodeIss, generateKeyPair } from '@walletconnect/relay-auth'
import { decodeBase58, decodeDidKey, verifyRelayAuth } from '../../../server/dev/relay/auth.ts'
import type { Relay } from '../../../server/dev/relay/index.ts'
import { startRelay } from '../../../server/dev/relay/index.ts'
import { makeAuth, relayUrlWith, upgradeStatus } from './helpers.ts'

const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('relay auth JWT', () => {
  test('default: did:key decodes to the ed25519 public key relay-auth encoded', () => {
    const { publicKey } = generateKeyPair()
    assert.deepEqual(decodeDidKey(encodeIss(publicKey)), publicKey)
    assert.deepEqual(decodeBase58('2g'), Uint8Array.of(0x61))
    assert.deepEqual(decodeBase58('11'), Uint8Array.of(0, 0))
    assert.equal(decodeBase58('0OIl'), undefined)
    assert.equal(
      decodeDidKey('did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme'),
      undefined,
      'secp256k1',
    )
  })

  test('default: accepts a relay-auth token for the relay origin and returns the did:key client id', async () => {
    const auth = await makeAuth('ws://127.0.0.1:8789')
    const result = verifyRelayAuth(auth.jwt, { audiences: ['ws://127.0.0.1:8789'], now: Date.now() })
    assert.ok(result.ok)
    assert.equal(result.claims.clientId, auth.clientId)
    assert.match(result.claims.clientId, /^did:key:z6Mk/)
  })

  test('behavior: aud is compared by origin (trailing slash and path do not matter)', async () => {
    const auth = await makeAuth('ws://127.0.0.1:8789/')
    assert.ok(verifyRelayAuth(auth.jwt, { audiences: ['ws://127.0.0.1:8789'], now: Date.now() }).ok)
    assert.ok(!verifyRelayAuth(auth.jwt, { audiences: ['ws://127.0.0.1:9999'], now: Date.now() }).ok)
    assert.ok(!verifyRelayAuth(auth.jwt, { audiences: ['wss://127.0.0.1:8789'], now: Date.now() }).ok)
  })

  test('error: tampered, expired, future, wrong algorithm, wrong issuer', async () => {
    const audiences = ['ws://127.0.0.1:8789']
    const now = Date.now()
    const auth = await makeAuth(audiences[0] ?? '')
    const [header, claims, signature] = auth.jwt.split('.') as [string, string, string]
    const decoded = JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>

    const cases: [string, string][] = [
      ['not-a-jwt', 'auth is not a JWT'],
      [`${header}.${base64url({ ...decoded, sub: 'other' })}.${signature}`, 'auth JWT signature is invalid'],
      [`${base64url({ alg: 'HS256', typ: 'JWT' })}.${claims}.${signature}`, 'auth JWT must be EdDSA'],
      [
        `${header}.${base64url({ ...decoded, iss: 'did:key:zabc' })}.${signature}`,
        'auth JWT issuer is not an ed25519 did:key',
      ],
      [`${header}.${base64url({ iss: decoded.iss })}.${signature}`, 'auth JWT claims are malformed'],
      [`${header}.${claims}.AAAA`, 'auth JWT signature is malformed'],
    ]
    for (const [jwt, reason] of cases) {
      assert.deepEqual(verifyRelayAuth(jwt, { audiences, now }), { ok: false, reason })
    }

    const expired = await makeAuth(audiences[0] ?? '', { iat: Math.floor(now / 1000) - 120, ttlSeconds: 60 })
    assert.deepEqual(verifyRelayAuth(expired.jwt, { audiences, now }), {
      ok: false,
      reason: 'auth JWT has expired',
    })
    const future = await makeAuth(audiences[0] ?? '', { iat: Math.floor(now / 1000) + 3_600 })
    assert.deepEqual(verifyRelayAuth(future.jwt, { audiences, now }), {
      ok: false,
      reason: 'auth JWT is issued in the future',
    })
  })
})

describe('relay upgrade', () => {
  let relay: Relay
  before(async () => {
    relay = await startRelay({ port: 0 })
  })
  after(async () => {
    await relay.stop()
  })

  test('default: a valid token, project id and the client query parameters are accepted', async () => {
    const auth = await makeAuth(relay.url)
    const url = relayUrlWith(relay.url, {
      auth: auth.jwt,
      projectId: 'dev-project',
      ua: 'wc-2/js-2.25.0/node/test',
      useOnCloseEvent: 'true',
    })
    assert.equal(await upgradeStatus(url), 101)
  })

  test('error: missing, forged, expired or foreign tokens are refused with 401', async () => {
    const good = await makeAuth(relay.url)
    const [header, claims] = good.jwt.split('.') as [string, string]
    const other = await makeAuth(relay.url)
    const forged = `${header}.${claims}.${other.jwt.split('.')[2]}`
    const expired = await makeAuth(relay.url, { iat: Math.floor(Date.now() / 1000) - 120, ttlSeconds: 60 })
    const foreign = await makeAuth('wss://relay.walletconnect.org')

    const refused = [
      { projectId: 'dev-project' },
      { auth: good.jwt },
      { auth: forged, projectId: 'dev-project' },
      { auth: expired.jwt, projectId: 'dev-project' },
      { auth: foreign.jwt, projectId: 'dev-project' },
      { auth: 'garbage', projectId: 'dev-project' },
    ]
    for (const query of refused) {
      assert.equal(
        await upgradeStatus(relayUrlWith(relay.url, query)),
        401,
        JSON.stringify(Object.keys(query)),
      )
    }
    assert.equal(relay.stats().connections, 0)
    assert.equal(relay.stats().refusedUpgrades, refused.length)
  })

  test('behavior: extra audiences and a project allow-list', async () => {
    const restricted = await startRelay({
      port: 0,
      audiences: ['wss://relay.example.test'],
      projectIds: ['dev-project'],
    })
    try {
      const proxied = await makeAuth('wss://relay.example.test')
      assert.equal(
        await upgradeStatus(relayUrlWith(restricted.url, { auth: proxied.jwt, projectId: 'dev-project' })),
        101,
      )
      const direct = await makeAuth(restricted.url)
      assert.equal(
        await upgradeStatus(relayUrlWith(restricted.url, { auth: direct.jwt, projectId: 'other' })),
        403,
      )
    } finally {
      await restricted.stop()
    }
  })

  test('behavior: plain HTTP gets 426 and /health answers ok', async () => {
    const http = relay.url.replace('ws://', 'http://')
    assert.equal((await fetch(http)).status, 426)
    const health = await fetch(`${http}/health`)
    assert.equal(health.status, 200)
    assert.equal(await health.text(), 'ok\n')
  })

  test('behavior: stop() frees the port', async () => {
    const temporary = await startRelay({ port: 0 })
    const http = temporary.url.replace('ws://', 'http://')
    await temporary.stop()
    await assert.rejects(fetch(`${http}/health`))
  })
})
