// The legacy-keys migration test: a database written by older code, migrated; its users move their keys.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { PGlite } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import type { Address } from 'viem'
import { loadConfig } from '../../../server/config.ts'
import type { Db } from '../../../server/db/database.ts'
import { createDatabase } from '../../../server/db/database.ts'
import { schema, walletKeys } from '../../../server/db/schema.ts'
import { type Curve, createCustody, type PublicAccount } from '../../../server/embedded/custody.ts'
import { kekRing } from '../../../server/embedded/kek.ts'
import { keysMessages, rawKeysSecret } from '../../../server/embedded/userKeys.ts'
import { secretFromKeys } from '../../../src/frame/keys/secret.ts'
import { keyMigrateResponse, walletKeyState } from '../../../src/protocol/embedded/index.ts'
import { takeEverything, tryToSign } from './embedded-attacker.ts'
import { type EmbeddedTestApp, SITE, signInByEmail, startEmbeddedTestApp } from './embedded-helpers.ts'
import {
  frameKeysOf,
  insertLegacyUser,
  setupBody,
  setupKeysLikeTheFrame,
  shareBytes,
} from './embedded-keys-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'
import { migrationsBefore } from './migrations-helpers.ts'

const PROJECT = 'legacy-project'
const EMAIL = 'legacy@example.com'
/** The browser the person signed in with before (a known device: the code opens a session). */
const DEVICE = randomBytes(16).toString('base64url')
const kek = randomBytes(32)
let testDb: TestDatabase
let t: EmbeddedTestApp
let scratch: string
let legacy: Record<Curve, PublicAccount>

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'keys-migration-'))
  const pglite = new PGlite()
  const old = drizzle(pglite, { schema }) as unknown as Db
  // The schema before the user-keys migration (0000-0011).
  await migrate(drizzle(pglite), { migrationsFolder: await migrationsBefore(scratch, 12) })
  // Written as the old code wrote it: a project (no custody column yet), a user with custody keys.
  await old.execute(sql`insert into projects (id, name) values (${PROJECT}, ${PROJECT})`)
  await old.execute(sql`insert into project_origins (project_id, origin) values (${PROJECT}, ${SITE})`)
  const custody = createCustody(old, kekRing([kek], 'memory'))
  const userId = crypto.randomUUID()
  legacy = await insertLegacyUser(old, custody, { id: userId, projectId: PROJECT, email: EMAIL })
  await old.execute(
    sql`insert into wallet_devices (user_id, device_id, approved_at) values (${userId}, ${DEVICE}, now())`,
  )
  // Today's code opens it: the new migrations run.
  const database = await createDatabase(loadConfig({ DATA_DIR: 'memory://' }), { pglite, seed: false })
  testDb = await openTestDatabase('keys_migration', database)
  // The service's KEK is the one the old code used.
  t = await startEmbeddedTestApp(testDb, PROJECT, { projectExists: true, keks: kekRing([kek], 'memory') })
})
after(async () => {
  await t?.close()
  await testDb?.close()
  await rm(scratch, { recursive: true, force: true })
})

describe('migration of custody keys to the person', () => {
  test('default: the project gets custody user; the user signs in as legacy with the same accounts, migrates, sets up; the custody keys are gone and DB + KEK sign nothing', async () => {
    const signedIn = await signInByEmail(t, EMAIL, DEVICE)
    assert.equal(signedIn.keys.state, 'legacy')
    assert.equal(signedIn.keys.custody, 'user')
    assert.equal(signedIn.user?.accounts.eip155.address, legacy.secp256k1.address)
    assert.equal(signedIn.user?.accounts.solana.address, legacy.ed25519.address)

    // Addresses other than the custody ones are refused.
    const stranger = await frameKeysOf()
    const refused = await t.call('/embedded/v1/keys/setup', setupBody(stranger, PROJECT), {
      token: signedIn.token,
    })
    assert.equal(refused.status, 403)
    assert.equal((refused.body.error as { message: string }).message, keysMessages.notLegacyAddresses)

    const migrated = await t.call('/embedded/v1/keys/migrate', {}, { token: signedIn.token })
    assert.equal(migrated.status, 200, JSON.stringify(migrated.body))
    assert.equal(migrated.headers['cache-control'], 'no-store')
    const secret = shareBytes(keyMigrateResponse.parse(migrated.body).secret)
    const session = await setupKeysLikeTheFrame(t, signedIn, { secret })
    assert.deepEqual(session.user.accounts, signedIn.user?.accounts)
    assert.deepEqual(walletKeyState.parse(session.keys).state, 'ready')

    const userId = signedIn.keys.userId
    const db = testDb.database.db
    assert.equal((await db.select().from(walletKeys).where(eq(walletKeys.userId, userId))).length, 0)
    const again = await t.call('/embedded/v1/keys/migrate', {}, { token: signedIn.token })
    assert.equal(again.status, 409)
    assert.equal((again.body.error as { message: string }).message, keysMessages.notLegacy)

    const loot = await takeEverything(db, [kek], [])
    assert.equal(
      await tryToSign({ ...loot, heapStrings: [] }, legacy.secp256k1.address as Address),
      undefined,
    )
  })

  test("default: the service's version-2 secret is the frame's secretFromKeys, byte for byte", () => {
    const evm = Uint8Array.from(randomBytes(32))
    evm[0] = 1 // a valid secp256k1 key (below the order)
    const solana = Uint8Array.from(randomBytes(32))
    const ours = Buffer.from(rawKeysSecret(evm, solana), 'base64url')
    assert.deepEqual(Uint8Array.from(ours), secretFromKeys({ secp256k1: evm, ed25519: solana }))
  })
})
