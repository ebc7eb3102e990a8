/**
 * The key-encryption keys (KEK) of the embedded wallet's custody. The KEK wraps each user's data key;
 * it never enters the database, so a database dump opens nothing without it. Production takes it from
 * `WALLET_KEK` (and earlier ones from `WALLET_KEK_PREVIOUS` during a rotation); development generates
 * one at first start into `WALLET_KEK_FILE` (`.secrets/wallet-kek`), outside git and away from the
 * database: not in `DATA_DIR` nor beside it (issue 23 item 7), so one copy of the data folder (a
 * backup, a zip sent for a bug report) never holds both the wrapped keys and the key that opens them.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, relative, resolve, sep } from 'node:path'
import type { EmbeddedConfig } from '../config.ts'
import type { ServiceLogger } from '../logger.ts'

/** One key-encryption key and its public id (a fingerprint, stored beside what it wrapped). */
export interface KeyEncryptionKey {
  readonly id: string
  readonly key: Buffer
}

/** The KEK that wraps new data keys, and every KEK still accepted for unwrapping. */
export interface KekRing {
  readonly current: KeyEncryptionKey
  /** The KEK of this id, or undefined when it is not configured. */
  find(id: string): KeyEncryptionKey | undefined
  readonly all: readonly KeyEncryptionKey[]
  /** Where the keys came from, for logs (never the keys). */
  readonly source: 'WALLET_KEK' | 'file' | 'memory'
}

/** Thrown when a KEK is missing or malformed; the message never holds key material. */
export class KekError extends Error {
  override name = 'KekError'
}

/**
 * Reads a 32-byte key written as base64 (standard or URL-safe) or as 64 hex digits.
 *
 * @example
 * parseKek(randomBytes(32).toString('base64')).length // 32
 */
export function parseKek(text: string, name = 'WALLET_KEK'): Buffer {
  const value = text.trim()
  const key = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value)
      ? Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : null
  if (key === null || key.length !== 32) {
    throw new KekError(`${name} must be 32 random bytes, written as base64 or as 64 hex digits`)
  }
  return key
}

/**
 * The id a KEK is known by: a fingerprint that names it without revealing it.
 *
 * @example
 * kekId(key) // 'kek-3f1c…' (16 hex digits)
 */
export function kekId(key: Buffer): string {
  return `kek-${createHash('sha256').update('wallet-elements kek id\0').update(key).digest('hex').slice(0, 16)}`
}

/**
 * A ring of KEKs, the first one current.
 *
 * @example
 * const ring = kekRing([parseKek(process.env.WALLET_KEK)], 'WALLET_KEK')
 */
export function kekRing(keys: readonly Buffer[], source: KekRing['source']): KekRing {
  const all = keys.map((key) => ({ id: kekId(key), key }))
  const current = all[0]
  if (!current) throw new KekError('No key-encryption key')
  const byId = new Map(all.map((entry) => [entry.id, entry]))
  return { current, all, find: (id) => byId.get(id), source }
}

/** A new random KEK, as the development key file and `npm run custody -- new-kek` write it. */
export function newKekText(): string {
  return randomBytes(32).toString('base64')
}

/** Reads the development key file: one key per line, the first current. */
async function readKekFile(path: string): Promise<Buffer[]> {
  const lines = (await readFile(path, 'utf8'))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
  return lines.map((line, index) => parseKek(line, `${path} line ${index + 1}`))
}

/**
 * Writes the development key file (owner-only), keys newest first.
 *
 * @example
 * await writeKekFile('.secrets/wallet-kek', [newKekText(), ...old])
 */
export async function writeKekFile(path: string, keys: readonly string[]): Promise<void> {
  const file = resolve(path)
  await mkdir(dirname(file), { recursive: true })
  const text = [
    '# Key-encryption keys of the embedded wallet (development). Newest first; keep this file out of git',
    '# and away from database backups: without it the wallet keys in the database cannot be opened.',
    ...keys,
    '',
  ].join('\n')
  const partial = `${file}.${process.pid}.partial`
  await writeFile(partial, text, { mode: 0o600 })
  await rename(partial, file)
  await chmod(file, 0o600)
}

/** Where development KEK files were generated before issue 23 (inside `.data`, beside the database). */
export const legacyKekFile = '.data/wallet-kek'

/**
 * Refuses a development key file inside the database folder or beside it (in the folder that holds
 * it, as `.data/wallet-kek` beside `.data/service`): a copy of that folder would hold both.
 *
 * @example
 * checkKekFileLocation('.secrets/wallet-kek', '.data/service') // fine
 * checkKekFileLocation('.data/wallet-kek', '.data/service') // throws KekError
 */
export function checkKekFileLocation(kekFile: string, dataDir: string): void {
  const file = resolve(kekFile)
  const data = resolve(dataDir)
  const within = (folder: string) => {
    const path = relative(folder, file)
    return path !== '' && !path.startsWith(`..${sep}`) && path !== '..'
  }
  if (within(data) || dirname(file) === dirname(data)) {
    throw new KekError(
      `WALLET_KEK_FILE (${kekFile}) must not be in or beside the database folder DATA_DIR (${dataDir}): a copy of that folder would hold both the wrapped keys and the key that opens them`,
    )
  }
}

/**
 * Loads the KEK ring the configuration names: `WALLET_KEK` (+ `WALLET_KEK_PREVIOUS`); else, outside
 * production, the development key file, created with a new key on first start; with an in-memory
 * database, a key that lives as long as the process (nothing outlives it anyway).
 *
 * @example
 * const keks = await loadKekRing({ ...config.embedded, production: config.environment === 'production' })
 */
export async function loadKekRing(
  config: Pick<EmbeddedConfig, 'kek' | 'kekPrevious' | 'kekFile'> & { production: boolean },
  options: {
    memory?: boolean
    logger?: ServiceLogger
    /** The PGlite data folder, when the database is one: the key file must live elsewhere. */
    dataDir?: string
  } = {},
): Promise<KekRing> {
  if (config.kek !== null) {
    return kekRing(
      [
        parseKek(config.kek),
        ...config.kekPrevious.map((text, index) => parseKek(text, `WALLET_KEK_PREVIOUS entry ${index + 1}`)),
      ],
      'WALLET_KEK',
    )
  }
  if (config.production) {
    throw new KekError(
      'WALLET_KEK is required in production: set it to 32 random bytes in base64 (openssl rand -base64 32)',
    )
  }
  if (options.memory) return kekRing([randomBytes(32)], 'memory')
  if (options.dataDir !== undefined) checkKekFileLocation(config.kekFile, options.dataDir)
  const path = resolve(config.kekFile)
  const legacy = resolve(legacyKekFile)
  if (!existsSync(path) && existsSync(legacy) && legacy !== path) {
    // A development key made before the key file moved out of `.data`: moved, so its wallets still open.
    await mkdir(dirname(path), { recursive: true })
    await writeKekFile(
      path,
      (await readKekFile(legacy)).map((key) => key.toString('base64')),
    )
    await rm(legacy)
    options.logger?.warn(
      { from: legacy, file: path },
      'Moved the development key-encryption key out of the data folder',
    )
  }
  if (!existsSync(path)) {
    await writeKekFile(path, [newKekText()])
    options.logger?.warn(
      { file: path },
      'Generated a development key-encryption key for the embedded wallet; set WALLET_KEK in production',
    )
  }
  return kekRing(await readKekFile(path), 'file')
}
