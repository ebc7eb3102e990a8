import { resolve } from 'node:path'
import type { ServiceDatabase } from '../db/database.ts'
import type { EmbeddedConfig } from '../embedded/config.ts'
import { createCustody } from '../embedded/custody.ts'
import { KekError, kekRing, loadKekRing, newKekText, parseKek, writeKekFile } from '../embedded/kek.ts'
import { operatorRecoverable } from '../embedded/shareSets.ts'
import { listProjects } from '../projects/store.ts'
import { operatorRecoverableLine } from './project.ts'
import { isMainModule, runCliShell } from './shell.ts'

export const custodyCliUsage = `Key custody of the embedded wallet (the key-encryption key, KEK).

Usage: npm run custody -- <command>

  status       How many data keys each KEK wraps, and which KEKs are configured; for each project in
               custody user, how many people the operator can still recover (none: not listed).
  new-kek      Print a new random KEK (base64) to put in WALLET_KEK.
  rotate-kek   Re-wrap every data key under the current KEK. Wallet keys and accounts do not change.
               Production: set WALLET_KEK to the new key and WALLET_KEK_PREVIOUS to the old one(s),
               run this, then drop WALLET_KEK_PREVIOUS. Development (no WALLET_KEK): a new key is
               generated into WALLET_KEK_FILE first, and the old one is removed once nothing uses it.

The database is the service's: DATABASE_URL, or the PGlite folder DATA_DIR (stop the service first).`

export interface CustodyCliIo {
  database: ServiceDatabase
  /** The embedded wallet's settings, and whether this is production (a KEK must then be given). */
  config: EmbeddedConfig & { production: boolean }
  out: (line: string) => void
  err: (line: string) => void
}

/**
 * Runs one custody command; resolves to the exit code.
 *
 * @example
 * await runCustodyCli(['status'], { database, config: config.embedded, out: console.log, err: console.error })
 */
export async function runCustodyCli(argv: readonly string[], io: CustodyCliIo): Promise<number> {
  const [command] = argv
  const { config } = io
  try {
    if (command === 'new-kek') {
      io.out(newKekText())
      return 0
    }
    if (command === 'status') {
      const custody = createCustody(io.database.db, await loadKekRing(config))
      for (const entry of await custody.status()) {
        const marks = [entry.current ? 'current' : '', entry.configured ? '' : 'NOT CONFIGURED'].filter(
          Boolean,
        )
        io.out(`${entry.kekId}  ${entry.dataKeys} data keys${marks.length ? `  (${marks.join(', ')})` : ''}`)
      }
      // People a switch to user custody has not covered yet (operator projects can recover everyone).
      const recoverable = await operatorRecoverable(io.database.db)
      for (const project of await listProjects(io.database.db)) {
        const counts = recoverable.get(project.id)
        if (project.custody === 'user' && counts) io.out(`${project.id}  ${operatorRecoverableLine(counts)}`)
      }
      return 0
    }
    if (command === 'rotate-kek') {
      const devFile = config.kek === null && !config.production ? resolve(config.kekFile) : undefined
      let ring = await loadKekRing(config)
      if (devFile) {
        const texts = [newKekText(), ...ring.all.map((kek) => kek.key.toString('base64'))]
        await writeKekFile(devFile, texts)
        ring = kekRing(
          texts.map((text) => parseKek(text)),
          'file',
        )
      }
      const custody = createCustody(io.database.db, ring)
      const { rewrapped, missingKek } = await custody.rewrap()
      io.out(`Re-wrapped ${rewrapped} data keys under ${ring.current.id}.`)
      if (missingKek.length > 0) {
        io.err(
          `Data keys under ${missingKek.join(', ')} were left as they are: add those KEKs to WALLET_KEK_PREVIOUS and run again.`,
        )
        return 1
      }
      if (devFile) {
        await writeKekFile(devFile, [ring.current.key.toString('base64')])
        io.out(`${devFile} now holds only the new key.`)
      } else if (config.kekPrevious.length > 0) {
        io.out('Every data key is under WALLET_KEK now: WALLET_KEK_PREVIOUS can be removed.')
      }
      return 0
    }
    io.err(custodyCliUsage)
    return 1
  } catch (error) {
    if (error instanceof KekError) {
      io.err(error.message)
      return 1
    }
    throw error
  }
}

if (isMainModule(import.meta.url))
  void runCliShell({
    usage: custodyCliUsage,
    seed: false,
    run: (argv, database, config) =>
      runCustodyCli(argv, {
        database,
        config: { ...config.embedded, production: config.environment === 'production' },
        out: (line) => console.log(line),
        err: (line) => console.error(line),
      }),
  })
