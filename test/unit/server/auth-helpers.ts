// Shared set-up of the auth tests: a service on a fresh PGlite, a fixed clock, and sign-in helpers.
import assert from 'node:assert/strict'
import { createPublicKey, verify } from 'node:crypto'
import { after, before } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { createProject } from '../../../server/projects/store.ts'
import { authErrorBody, authNonceResponse, type JsonWebKeySet } from '../../../src/protocol/api/index.ts'
import { createSiwxMessage, type SiwxMessageFields } from '../../../src/protocol/siwx/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

export const mnemonic = 'test test test test test test test test test test test junk'
export const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
export const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })
export const site = 'http://localhost:5173'
export const start = Date.parse('2026-03-01T12:00:00.000Z')
export const minute = 60_000

export let testDb: TestDatabase
export let app: FastifyInstance
/** The service's clock, moved by the tests. */
export let now = start

export function errorOf(body: string) {
  return authErrorBody.parse(JSON.parse(body)).error
}

export async function getNonce(
  options: { origin?: string; project?: string; target?: FastifyInstance } = {},
) {
  const response = await (options.target ?? app).inject({
    url: `/auth/v1/nonce?${sdk(options.project)}`,
    headers: { origin: options.origin ?? site },
  })
  assert.equal(response.statusCode, 200, response.body)
  return authNonceResponse.parse(response.json())
}

export function fieldsFor(
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

export function authenticate(
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
export async function signInEvm(
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

export function me(token: string | undefined, options: { project?: string; origin?: string } = {}) {
  return app.inject({
    url: `/auth/v1/me?${sdk(options.project)}`,
    headers: {
      origin: options.origin ?? site,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
  })
}

export function signOut(token: string | undefined) {
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
export function verifySessionToken(
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

/** Tests move `now` through this: an imported binding cannot be assigned. */
export function setNow(value: typeof now) {
  now = value
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startAuthService() {
  before(async () => {
    testDb = await openTestDatabase('auth')
    app = await buildApp(testDb.config({ devOrigins: [site, 'https://*.example.com'], rpcUpstreams: {} }), {
      database: testDb.database,
      logger: testLogger,
      auth: { now: () => now },
    })
    await createProject(testDb.database.db, {
      id: 'other',
      name: 'Other',
      origins: ['https://other.example'],
    })
  })
  after(async () => {
    await app?.close()
    await testDb?.close()
  })
}
