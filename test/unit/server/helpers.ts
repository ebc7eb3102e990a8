import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { pino } from 'pino'
import { runProjectCli } from '../../../server/cli/project.ts'
import { loadConfig, type ServiceConfig } from '../../../server/config.ts'
import { createDatabase, type ServiceDatabase } from '../../../server/db/database.ts'
import { createLogger } from '../../../server/logger.ts'
import { createSiwxMessage } from '../../../src/protocol/siwx/index.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** A silent logger for apps under test (`TEST_LOG_LEVEL=debug` shows the service's logs). */
export const testLogger = createLogger(
  (process.env.TEST_LOG_LEVEL as Parameters<typeof createLogger>[0] | undefined) ?? 'silent',
)

/** Whether this run uses PostgreSQL (`DATABASE_URL` set) rather than PGlite. */
export const usingPostgres = Boolean(process.env.DATABASE_URL)

async function snapshotKey(): Promise<string> {
  // The snapshot is valid while the migrations and the seed are unchanged.
  const hash = createHash('sha256')
  const files = [
    'server/db/migrations/meta/_journal.json',
    ...(await readdir(join(root, 'server/db/migrations')))
      .filter((name) => name.endsWith('.sql'))
      .map((name) => `server/db/migrations/${name}`),
    'server/db/seed.ts',
    'server/db/schema.ts',
    'server/data/seed/wallets.json',
  ]
  for (const file of files.sort()) hash.update(file).update(await readFile(join(root, file)))
  for (const folder of ['server/data/seed/logos', 'server/data/seed/images']) {
    for (const name of (await readdir(join(root, folder))).sort()) hash.update(name)
  }
  return hash.digest('hex').slice(0, 16)
}

/**
 * An in-memory PGlite, migrated and seeded. Creating one costs about 4 s, so the first test file saves
 * a snapshot in the temp folder and later files (and runs) load it in well under a second.
 */
async function snapshotPath(): Promise<string> {
  return join(tmpdir(), `wallet-elements-test-pglite-${await snapshotKey()}.tar`)
}

/**
 * Fills an empty PGlite data folder from the test snapshot (migrated and seeded), so a child process
 * opens it in half a second instead of creating a database. Call after {@link openTestDatabase}.
 *
 * @example
 * await fillPgliteDataDir(join(scratch, 'data'))
 */
export async function fillPgliteDataDir(dataDir: string): Promise<void> {
  const pglite = new PGlite(dataDir, { loadDataDir: new Blob([await readFile(await snapshotPath())]) })
  await pglite.waitReady
  await pglite.close()
}

async function openPgliteForTests(): Promise<ServiceDatabase> {
  const config = loadConfig({ DATA_DIR: 'memory://' })
  const snapshot = await snapshotPath()
  if (existsSync(snapshot)) {
    const pglite = new PGlite({ loadDataDir: new Blob([await readFile(snapshot)]) })
    return createDatabase(config, { pglite, logger: testLogger })
  }
  const pglite = new PGlite()
  const database = await createDatabase(config, { pglite, logger: testLogger })
  const dump = await pglite.dumpDataDir('none')
  const partial = `${snapshot}.${process.pid}.partial`
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
  await rename(partial, snapshot)
  // Snapshots of older migrations or seeds are of no more use.
  for (const name of await readdir(tmpdir())) {
    const path = join(tmpdir(), name)
    if (name.startsWith('wallet-elements-test-pglite-') && name.endsWith('.tar') && path !== snapshot) {
      await rm(path, { force: true })
    }
  }
  return database
}

export interface TestDatabase {
  database: ServiceDatabase
  /** Configuration pointing at this database, with the defaults tests rely on. */
  config: (overrides?: Partial<ServiceConfig>) => ServiceConfig
  /** Closes the database (and drops the PostgreSQL schema). */
  close: () => Promise<void>
}

/**
 * One database for a test file: PGlite in memory, or, when `DATABASE_URL` is set, a fresh schema
 * `test_<name>_<random>` on that PostgreSQL server (dropped by `close()`).
 *
 * @example
 * const testDb = await openTestDatabase('catalogue')
 * const app = await buildApp(testDb.config(), { database: testDb.database, logger: testLogger })
 */
export async function openTestDatabase(name: string, given?: ServiceDatabase): Promise<TestDatabase> {
  const databaseUrl = process.env.DATABASE_URL
  const schema = `test_${name.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`
  const base = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    // Read projects and the catalogue on every request, so changes made by a test show at once.
    CACHE_MS: '0',
    // A service a test starts listens for its wallet frame on a free port (suites run side by side, and
    // 8788 may be another one's); the frame's public origin stays the one the tests name.
    FRAME_PORT: '0',
    FRAME_PUBLIC_URL: 'http://127.0.0.1:8788',
    // Rate limits stay on (every request still takes from its bucket) but far above what tests send;
    // rate-limits.test.ts sets its own.
    RATE_LIMIT_RPC: '1000000',
    RATE_LIMIT_RPC_ENTRIES: '10000000',
    RATE_LIMIT_ANALYTICS: '10000000',
    RATE_LIMIT_SIGN_IN: '1000000',
    RATE_LIMIT_DATA: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, DATABASE_POOL_MAX: '4' } : {}),
  })
  // A database a test prepared itself (an older schema, migrated by it): used as it is.
  const database = given
    ? given
    : databaseUrl
      ? await createDatabase(base, { logger: testLogger })
      : await openPgliteForTests()
  return {
    database,
    config: (overrides = {}) => ({ ...base, ...overrides }),
    close: async () => {
      await database.close()
      if (databaseUrl && !given) {
        const client = new pg.Client({ connectionString: databaseUrl })
        await client.connect()
        try {
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
        } finally {
          await client.end()
        }
      }
    },
  }
}

/** A port nothing listens on now (test/support/net.ts). */
export { freePort } from '../../support/net.ts'

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  text: string
}

/**
 * A plain HTTP request over loopback with full control of the headers (`Origin` included), for the
 * real-network tests.
 *
 * @example
 * const response = await rawRequest(`${url}/healthz`)
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const body = Buffer.concat(chunks)
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body,
            text: body.toString('utf8'),
          })
        })
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(options.body)
  })
}

/** Query string of an API request for the dev project. */
export function sdk(projectId = 'dev-project'): string {
  return `projectId=${encodeURIComponent(projectId)}&st=wallet-elements&sv=0.1.0`
}

/**
 * A pino logger at `level` whose lines are kept in `lines` (as written: JSON text), to check what the
 * service logs.
 *
 * @example
 * const { logger, lines } = captureLogs('trace')
 */
export function captureLogs(level: 'trace' | 'info' = 'info') {
  const lines: string[] = []
  const logger = pino(
    { level },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'))
        done()
      },
    }),
  )
  return { logger, lines }
}

/**
 * A sign-in message from the dev site (`http://localhost:5173/`) for `address` with `nonce`, issued at
 * `issuedAt` (ms; now by default).
 *
 * @example
 * const message = devSiteMessage(alice.address, nonce, 'eip155:1')
 */
export function devSiteMessage(
  address: string,
  nonce: string,
  chainId: string,
  issuedAt = Date.now(),
): string {
  return createSiwxMessage({
    domain: 'localhost:5173',
    accountAddress: address,
    uri: 'http://localhost:5173/',
    version: '1',
    chainId,
    nonce,
    issuedAt: new Date(issuedAt).toISOString(),
  })
}

/**
 * `npm run project -- …` against `database`: its exit code and what it printed (stdout, stderr).
 *
 * @example
 * const { code, out } = await runCli(testDb.database, 'sponsor', '--id', projectId, '--networks', 'eip155:31337')
 */
export async function runCli(database: ServiceDatabase, ...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runProjectCli(argv, {
    database,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** What `wallet_getCapabilities` announces of permissions (ERC-7715) where the smart account sends. */
export const SMART_ACCOUNT_PERMISSIONS = {
  supported: true,
  signerTypes: ['wallet'],
  permissionTypes: ['erc20-token-periodic', 'erc20-token-transfer', 'native-token-transfer', 'contract-call'],
  policyTypes: ['call-limit', 'token-allowance'],
}
