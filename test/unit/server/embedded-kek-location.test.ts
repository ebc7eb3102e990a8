/**
 * Where the development KEK lives: the file used to sit in `.data` beside the database, so one
 * copy of `.data` (a backup, a zip attached to a bug report) held both the wrapped wallet keys and the
 * key that opens them. It now lives in `.secrets/` by default, a key file in or beside `DATA_DIR` is
 * refused, and a key made before the move is moved out so existing development wallets still open.
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { loadConfig } from '../../../server/config.ts'
import {
  checkKekFileLocation,
  KekError,
  legacyKekFile,
  loadKekRing,
  newKekText,
  writeKekFile,
} from '../../../server/embedded/kek.ts'

const dev = (kekFile: string) => ({ kek: null, kekPrevious: [], kekFile, production: false })

/** Runs `work` with the working directory in a new temporary folder (where `npm start` would run). */
async function inTempFolder(work: (folder: string) => Promise<void>) {
  const folder = await mkdtemp(join(tmpdir(), 'kek-location-'))
  const previous = process.cwd()
  process.chdir(folder)
  try {
    await work(folder)
  } finally {
    process.chdir(previous)
    await rm(folder, { recursive: true, force: true })
  }
}

describe('where the development KEK lives', () => {
  test('default: the key file is .secrets/wallet-kek, outside .data where the database is', () => {
    const config = loadConfig({ NODE_ENV: 'development' })
    assert.equal(config.embedded.kekFile, '.secrets/wallet-kek')
    assert.equal(config.dataDir, '.data/service')
    assert.doesNotThrow(() => checkKekFileLocation(config.embedded.kekFile, config.dataDir))
  })

  // Before: `.data/wallet-kek` was the default and nothing refused a key file beside the database.
  test('error: a key file in DATA_DIR or beside it is refused before anything is generated', async () => {
    await inTempFolder(async (folder) => {
      for (const kekFile of ['.data/wallet-kek', '.data/service/wallet-kek', join(folder, '.data/x/kek')]) {
        await assert.rejects(
          loadKekRing(dev(kekFile), { dataDir: kekFile.includes('/x/') ? '.data/x' : '.data/service' }),
          (error: unknown) =>
            error instanceof KekError &&
            /must not be in or beside the database folder DATA_DIR/.test(error.message),
        )
      }
      assert.equal(existsSync(join(folder, '.data')), false, 'no key was written there')
      // Elsewhere is fine: a sibling folder of `.data`, or an absolute path.
      const ring = await loadKekRing(dev('.secrets/wallet-kek'), { dataDir: '.data/service' })
      assert.equal(ring.source, 'file')
      assert.equal((await stat(join(folder, '.secrets/wallet-kek'))).mode & 0o777, 0o600)
    })
  })

  test('behavior: a key generated in .data before the move is moved to the new file; the same key opens the same wallets', async () => {
    await inTempFolder(async (folder) => {
      const key = newKekText()
      await mkdir(join(folder, '.data/service'), { recursive: true })
      await writeKekFile(legacyKekFile, [key])
      const ring = await loadKekRing(dev('.secrets/wallet-kek'), { dataDir: '.data/service' })
      assert.equal(ring.current.key.toString('base64'), key)
      assert.equal(existsSync(join(folder, legacyKekFile)), false, 'no copy is left beside the database')
      assert.ok((await readFile(join(folder, '.secrets/wallet-kek'), 'utf8')).includes(key))
      // Started again: the same key, from the new place.
      const again = await loadKekRing(dev('.secrets/wallet-kek'), { dataDir: '.data/service' })
      assert.equal(again.current.id, ring.current.id)
    })
  })
})
