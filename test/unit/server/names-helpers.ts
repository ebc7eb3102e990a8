// Shared set-up of the name registry tests: a service on a fresh PGlite and signed registration helpers.
import { after, before } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { mnemonicToAccount } from 'viem/accounts'
import { buildApp } from '../../../server/app.ts'
import { apiErrorBody, nameRegistrationMessage, nameReleaseMessage } from '../../../src/protocol/api/index.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

export const mnemonic = 'test test test test test test test test test test test junk'
export const alice = mnemonicToAccount(mnemonic, { addressIndex: 0 })
export const bob = mnemonicToAccount(mnemonic, { addressIndex: 1 })
export const carol = mnemonicToAccount(mnemonic, { addressIndex: 3 })
export const site = 'http://localhost:5173'
export const start = Date.parse('2026-11-24T12:00:00.000Z')

export let testDb: TestDatabase
export let app: FastifyInstance
export let now = start

export const errorOf = (body: string) => apiErrorBody.parse(JSON.parse(body)).error

export interface Signer {
  address: string
  sign: (message: string) => Promise<string>
}

export const evm = (account: typeof alice): Signer => ({
  address: account.address,
  sign: (message) => account.signMessage({ message }),
})

export async function register(
  signer: Signer,
  label: string,
  overrides: { message?: string; domain?: string; issuedAt?: number; chainId?: string; name?: string } = {},
) {
  const chainId = overrides.chainId ?? 'eip155:31337'
  const message =
    overrides.message ??
    nameRegistrationMessage({
      domain: overrides.domain ?? 'localhost:5173',
      name: `${overrides.name ?? label}.wallet.test`,
      address: signer.address,
      chainId,
      issuedAt: new Date(overrides.issuedAt ?? now).toISOString(),
    })
  return app.inject({
    method: 'POST',
    url: `/names/v1/register?${sdk()}`,
    headers: { origin: site, 'content-type': 'application/json' },
    payload: JSON.stringify({
      name: label,
      address: signer.address,
      chainId,
      message,
      signature: await signer.sign(message),
    }),
  })
}

export async function release(
  signer: Signer,
  name: string,
  overrides: { message?: string; issuedAt?: number; signature?: string } = {},
) {
  const chainId = 'eip155:31337'
  const message =
    overrides.message ??
    nameReleaseMessage({
      domain: 'localhost:5173',
      name,
      address: signer.address,
      chainId,
      issuedAt: new Date(overrides.issuedAt ?? now).toISOString(),
    })
  return app.inject({
    method: 'POST',
    url: `/names/v1/release?${sdk()}`,
    headers: { origin: site, 'content-type': 'application/json' },
    payload: JSON.stringify({
      address: signer.address,
      chainId,
      message,
      signature: overrides.signature ?? (await signer.sign(message)),
    }),
  })
}

export const get = (path: string) => app.inject({ url: `${path}&${sdk()}`, headers: { origin: site } })

/** Tests move `now` through this: an imported binding cannot be assigned. */
export function setNow(value: typeof now) {
  now = value
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startNamesService() {
  before(async () => {
    testDb = await openTestDatabase('names')
    app = await buildApp(testDb.config({ devOrigins: [site], rpcUpstreams: {}, nameSuffix: 'wallet.test' }), {
      database: testDb.database,
      logger: testLogger,
      now: () => now,
    })
  })
  after(async () => {
    await app?.close()
    await testDb?.close()
  })
}
