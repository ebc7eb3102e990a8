import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import type { ServiceConfig } from '../config.ts'
import type { ServiceLogger } from '../logger.ts'
import { memoryDataDir } from './config.ts'
import { acquireDataDirLock } from './dataDirLock.ts'
import { schema } from './schema.ts'
import { seedDatabase } from './seed.ts'

/** The Drizzle database, whichever driver is underneath (PGlite or node-postgres). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>

/** An open database: the Drizzle handle, a health check and `close()`. */
export interface ServiceDatabase {
  readonly db: Db
  readonly kind: 'pglite' | 'postgres'
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>
  /** Closes the connections (or the embedded database). Safe to call twice. */
  close(): Promise<void>
}

export type DatabaseConfig = Pick<
  ServiceConfig,
  'dataDir' | 'databaseUrl' | 'databaseSchema' | 'databasePoolMax'
> &
  Partial<Pick<ServiceConfig, 'databaseTimeoutMs'>>

/** PostgreSQL error classes and codes that mean the server cannot be used now, not that a query is wrong. */
const unavailableStates = /^(08|57P0[1-3]|53300$)/
const unavailableErrnos = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])
const unavailableMessages =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed/i

/**
 * Whether an error (or one of its causes) says the database cannot be reached or is shutting down or
 * starting up, rather than that a query failed: the service answers those with 503.
 *
 * @example
 * if (isDatabaseUnavailable(error)) throw databaseUnavailable()
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && (unavailableStates.test(code) || unavailableErrnos.has(code))) return true
    if (unavailableMessages.test(current.message)) return true
    current = current.cause
  }
  return false
}

export interface CreateDatabaseOptions {
  logger?: ServiceLogger
  /** Load the wallet catalogue and public images when missing (default true). */
  seed?: boolean
  /** Use this PGlite instance instead of opening `dataDir` (tests load a prepared snapshot). Closed by `close()`. */
  pglite?: PGlite
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/**
 * Opens the service's database, runs the migrations and seeds the catalogue: PostgreSQL through `pg`
 * when `databaseUrl` is set, else embedded PGlite in `dataDir` (`memory://` keeps it in memory).
 *
 * @example
 * const database = await createDatabase(loadConfig())
 * const rows = await database.db.select().from(wallets).limit(5)
 * await database.close()
 */
export async function createDatabase(
  config: DatabaseConfig,
  options: CreateDatabaseOptions = {},
): Promise<ServiceDatabase> {
  const seed = options.seed ?? true
  if (config.databaseUrl !== null) return openPostgres(config, config.databaseUrl, seed, options.logger)
  return openPglite(config, seed, options)
}

async function openPglite(
  config: DatabaseConfig,
  seed: boolean,
  options: CreateDatabaseOptions,
): Promise<ServiceDatabase> {
  let releaseLock = async () => {}
  let client = options.pglite
  if (!client) {
    if (config.dataDir === memoryDataDir) {
      client = new PGlite()
    } else {
      const dataDir = resolve(config.dataDir)
      await mkdir(dataDir, { recursive: true })
      // PGlite is one process's database: a second process on the same folder would corrupt it.
      releaseLock = await acquireDataDirLock(dataDir)
      client = new PGlite(dataDir)
    }
  }
  const pglite = client
  try {
    await pglite.waitReady
    const db = drizzlePglite(pglite, { schema })
    await migratePglite(db, { migrationsFolder })
    if (seed) await seedDatabase(db, options.logger)
    let closed: Promise<void> | undefined
    return {
      db,
      kind: 'pglite',
      ping: async () => {
        await db.execute(sql`select 1`)
      },
      close: () => {
        closed ??= pglite.close().finally(releaseLock)
        return closed
      },
    }
  } catch (error) {
    await pglite.close().catch(() => {})
    await releaseLock()
    throw error
  }
}

async function openPostgres(
  config: DatabaseConfig,
  connectionString: string,
  seed: boolean,
  logger: ServiceLogger | undefined,
): Promise<ServiceDatabase> {
  const schemaName = config.databaseSchema
  if (schemaName !== 'public') {
    const setup = new pg.Client({ connectionString })
    await setup.connect()
    try {
      await setup.query(`CREATE SCHEMA IF NOT EXISTS "${schemaName}"`)
    } finally {
      await setup.end()
    }
  }
  // A server that is down refuses at once; one that does not answer must not hold a request past 10 s.
  const timeoutMs = config.databaseTimeoutMs ?? 4000
  const pool = new pg.Pool({
    connectionString,
    max: config.databasePoolMax,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    keepAlive: true,
    ...(schemaName === 'public' ? {} : { options: `-c search_path="${schemaName}"` }),
  })
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', (error) => logger?.warn({ err: error }, 'PostgreSQL connection error'))
  try {
    // Several instances may start at once: one migrates and seeds while the others wait on the lock.
    const client = await pool.connect()
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [`wallet-elements:${schemaName}`])
      try {
        const lockedDb = drizzlePg(client, { schema })
        await migratePg(lockedDb, {
          migrationsFolder,
          migrationsSchema: schemaName === 'public' ? 'drizzle' : schemaName,
        })
        if (seed) await seedDatabase(lockedDb, logger)
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`wallet-elements:${schemaName}`])
      }
    } finally {
      client.release()
    }
  } catch (error) {
    await pool.end().catch(() => {})
    throw error
  }
  const db = drizzlePg(pool, { schema })
  let closed: Promise<void> | undefined
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    close: () => {
      closed ??= pool.end()
      return closed
    },
  }
}
