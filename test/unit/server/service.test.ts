import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { buildApp } from '../../../server/app.ts'
import { countWallets } from '../../../server/catalogue/getWallets.ts'
import { loadConfig } from '../../../server/config.ts'
import { acquireDataDirLock } from '../../../server/db/dataDirLock.ts'
import { seedDatabase } from '../../../server/db/seed.ts'
import { startService } from '../../../server/main.ts'
import { createProject } from '../../../server/projects/store.ts'
import { healthResponse } from '../../../src/protocol/api/index.ts'
import {
  captureLogs,
  fillPgliteDataDir,
  openTestDatabase,
  rawRequest,
  sdk,
  type TestDatabase,
  testLogger,
  usingPostgres,
} from './helpers.ts'

const root = fileURLToPath(new URL('../../../', import.meta.url))

let testDb: TestDatabase
let scratch = ''

before(async () => {
  testDb = await openTestDatabase('service')
  scratch = await mkdtemp(join(tmpdir(), 'wallet-elements-service-'))
})

after(async () => {
  await testDb?.close()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

describe('start-up in production', () => {
  test('behavior: no dev project is made, the projects served are logged, local origins warned about', async () => {
    const { logger, lines } = captureLogs()
    await createProject(testDb.database.db, {
      id: 'local-too',
      name: 'Local',
      origins: ['http://localhost:3000'],
    })
    const config = { ...testDb.config(), ...loadConfig({ NODE_ENV: 'production' }) }
    const app = await buildApp(
      { ...testDb.config(), environment: config.environment, devProjectId: config.devProjectId },
      { database: testDb.database, logger },
    )
    try {
      const text = lines.join('')
      assert.doesNotMatch(text, /Dev project/)
      assert.match(text, /"msg":"Serving \d+ projects?: [^"]*local-too/)
      assert.match(
        text,
        /"msg":"Project local-too allows local origins in production: http:\/\/localhost:3000"/,
      )
    } finally {
      await app.close()
    }
  })
})

describe('startService', () => {
  test('default: listens on 127.0.0.1, serves, and stops cleanly', async () => {
    const service = await startService({
      config: { ...testDb.config(), port: 0 },
      database: testDb.database,
      logger: testLogger,
    })
    assert.match(service.url, /^http:\/\/127\.0\.0\.1:\d+$/)
    const health = await fetch(`${service.url}/healthz`)
    assert.equal(health.status, 200)
    assert.deepEqual(healthResponse.parse(await health.json()), { status: 'ok', database: 'ok' })
    const list = await rawRequest(`${service.url}/getWallets?${sdk()}&entries=1`)
    assert.equal(list.status, 200)
    await service.stop()
    await service.stop()
    await assert.rejects(rawRequest(`${service.url}/healthz`), /ECONNREFUSED/)
    // A database given to the service stays open for its owner.
    assert.ok((await countWallets(testDb.database.db)) > 100)
  })

  test('error: /healthz answers 503 when the database does not answer', async () => {
    const broken = { ...testDb.database, ping: () => Promise.reject(new Error('connection lost')) }
    const app = await buildApp(testDb.config({ devProjectId: null }), {
      database: broken,
      logger: testLogger,
    })
    try {
      const response = await app.inject({ url: '/healthz' })
      assert.equal(response.statusCode, 503)
      assert.deepEqual(response.json(), { status: 'error', database: 'error' })
    } finally {
      await app.close()
    }
  })

  test('behavior: migrations and seeding run again without change', async () => {
    const before = await countWallets(testDb.database.db)
    await seedDatabase(testDb.database.db)
    assert.equal(await countWallets(testDb.database.db), before)
  })
})

describe('PGlite data folder lock', () => {
  test('behavior: a second process is refused; a stale lock is taken over', async () => {
    const folder = await mkdtemp(join(scratch, 'lock-'))
    const lock = join(folder, 'wallet-elements.lock')
    // The parent of this test process is alive.
    await writeFile(lock, String(process.ppid))
    await assert.rejects(acquireDataDirLock(folder), /in use by process/)
    await writeFile(lock, '2147483646')
    const release = await acquireDataDirLock(folder)
    await release()
    assert.equal(existsSync(lock), false)
  })
})

interface Run {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

function run(script: string, args: string[], env: Record<string, string | undefined>): Run {
  const childEnv: Record<string, string> = {}
  for (const [key, value] of Object.entries({ ...process.env, ...env })) {
    if (value !== undefined) childEnv[key] = value
  }
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

async function waitFor<T>(
  check: () => T | undefined,
  timeoutMs: number,
  what: string,
  output?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = check()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`Timed out waiting for ${what}${output ? `\n${output()}` : ''}`)
}

describe('npm run project and npm run server as processes', () => {
  test('error: a bad variable stops the service with a clear message', async () => {
    const started = run('server/main.ts', [], { PORT: 'eighty', RPC_UPSTREAMS: 'eip155:1' })
    assert.equal(await started.exited, 1)
    assert.match(started.output(), /PORT must be a whole number from 0 to 65535/)
    assert.match(started.output(), /RPC_UPSTREAMS entry 1: expected CAIP-2-id=URL/)
  })

  test('default: the CLI creates a project, the service serves it, SIGTERM stops it', async () => {
    const storage: Record<string, string | undefined> = usingPostgres
      ? { DATABASE_SCHEMA: testDb.config().databaseSchema }
      : { DATABASE_URL: undefined, DATA_DIR: join(scratch, 'data') }
    // Creating a PGlite folder costs seconds; start from the migrated, seeded snapshot instead.
    if (!usingPostgres) await fillPgliteDataDir(join(scratch, 'data'))
    // npm run server as in production: no NODE_ENV, no DEV_PROJECT_ID; the embedded wallet is off here
    // (its frame needs a build and a KEK: the next test and the end-to-end suites run it).
    const env = {
      ...storage,
      LOG_LEVEL: 'info',
      NODE_ENV: undefined,
      DEV_PROJECT_ID: undefined,
      FRAME_PORT: 'off',
      WALLET_KEK: undefined,
    }

    const created = run(
      'server/cli/project.ts',
      ['create', '--id', 'proc', '--name', 'Proc', '--origin', 'https://proc.test'],
      env,
    )
    assert.equal(await created.exited, 0, created.output())
    assert.match(created.output(), /Created project proc/)

    const server = run('server/main.ts', [], { ...env, PORT: '0' })
    try {
      const url = await waitFor(
        () => /Wallet service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output())?.[1],
        60_000,
        'the service to listen',
        server.output,
      )
      const allowed = await rawRequest(`${url}/getAnalyticsConfig?${sdk('proc')}`, {
        headers: { origin: 'https://proc.test' },
      })
      assert.equal(allowed.status, 200)
      assert.deepEqual(JSON.parse(allowed.text), { isAnalyticsEnabled: true })
      assert.equal((await rawRequest(`${url}/healthz`)).status, 200)
      assert.match(server.output(), /"environment":"production".*"msg":"Serving \d+ projects?: [^"]*\bproc\b/)
      assert.doesNotMatch(server.output(), /Dev project/)
      if (!usingPostgres) {
        // A fresh database (on PostgreSQL the schema is shared with the other tests of this file).
        assert.match(server.output(), /"msg":"Serving 1 project: proc"/)
        const noDev = await rawRequest(`${url}/getAnalyticsConfig?${sdk()}`)
        assert.equal(noDev.status, 401, 'production creates no dev project')
      }
      server.child.kill('SIGTERM')
      assert.equal(await server.exited, 0, server.output())
      assert.match(server.output(), /"msg":"Stopped"/)
      await assert.rejects(rawRequest(`${url}/healthz`), /ECONNREFUSED/)
      if (!usingPostgres) assert.equal(existsSync(join(scratch, 'data', 'wallet-elements.lock')), false)
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL')
    }
  })

  test('error: production without WALLET_KEK, or without the built frame, stops before listening, with one line', async () => {
    const env = {
      DATA_DIR: 'memory://',
      NODE_ENV: undefined,
      PORT: '0',
      FRAME_PORT: '0',
      WALLET_KEK: undefined,
    }
    const started = run('server/main.ts', [], env)
    assert.equal(await started.exited, 1)
    assert.match(started.output(), /^WALLET_KEK is required in production: set it to 32 random bytes/m)
    assert.doesNotMatch(started.output(), /listening|\bat \S+\.ts:\d+/)
    const garbled = run('server/main.ts', [], { ...env, WALLET_KEK: 'not-a-key' })
    assert.equal(await garbled.exited, 1)
    assert.match(
      garbled.output(),
      /WALLET_KEK must be 32 random bytes, written as base64 or as 64 hex digits/,
    )
    assert.doesNotMatch(garbled.output(), /not-a-key/)
    const unbuilt = run('server/main.ts', [], {
      ...env,
      WALLET_KEK: randomBytes(32).toString('base64'),
      FRAME_DIR: join(scratch, 'no-frame'),
    })
    assert.equal(await unbuilt.exited, 1)
    assert.match(unbuilt.output(), /^The wallet frame is not built: .*no-frame.index\.html is missing/m)
    assert.doesNotMatch(unbuilt.output(), /listening|\bat \S+\.ts:\d+/)
  })
})
