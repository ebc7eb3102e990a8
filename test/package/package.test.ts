/**
 * The package as people install it: `npm pack`, then the tarball installed from a clean folder and
 * into fixture apps (test/package/apps) whose other packages come from the npm registry: a plain
 * Vite app (opened in Chromium), a core-only app, a Vue 3 app (vue-tsc with strictTemplates), a
 * React 19 app (tsc on TSX) beside the same app without the elements, Svelte's element typings and
 * plain Node importing every entry. Needs the build (`npm run build`) and the registry.
 */
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { serveDist } from '../bench/page.ts'
import { importClosure } from '../bench/size.ts'
import { launchBrowser, newContext } from '../e2e/harness.ts'
import { npm, packTarball } from './tarball.ts'

const run = promisify(execFile)
const ROOT = resolve('.')
const APPS = resolve('test/package/apps')

/** The registry packages of the fixture apps: the versions this repository builds with where it has them. */
const FIXTURE_PACKAGES = {
  '@types/react': '19.3.0',
  '@types/react-dom': '19.3.0',
  '@vitejs/plugin-react': '6.3.0',
  '@vitejs/plugin-vue': '6.0.11',
  react: '19.3.1',
  'react-dom': '19.3.1',
  svelte: '5.57.3',
  typescript: '5.9.3',
  vite: '8.3.8',
  vue: '3.5.45',
  'vue-tsc': '3.3.14',
}

/** Packages a browser library must never bring: the service's, and Node's types. */
const SERVER_PACKAGES = [
  'fastify',
  'pg',
  '@electric-sql/pglite',
  'drizzle-orm',
  'pino',
  '@fastify/cors',
  '@types/node',
]

let work: string
let tarball: string

const npx = (args: string[], cwd: string) =>
  run(join(work, 'apps/node_modules/.bin', args[0] as string), args.slice(1), {
    cwd,
    maxBuffer: 64 * 2 ** 20,
  })

/** Every installed package folder under node_modules (nested ones included). */
function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return []
  return readdirSync(nodeModules).flatMap((name) => {
    if (name.startsWith('.')) return []
    if (name.startsWith('@'))
      return readdirSync(join(nodeModules, name)).flatMap((inner) => [
        `${name}/${inner}`,
        ...installedPackages(join(nodeModules, name, inner, 'node_modules')),
      ])
    return [name, ...installedPackages(join(nodeModules, name, 'node_modules'))]
  })
}

function folderBytes(path: string): number {
  return readdirSync(path, { withFileTypes: true }).reduce(
    (sum, entry) =>
      sum +
      (entry.isDirectory()
        ? folderBytes(join(path, entry.name))
        : entry.isFile()
          ? readFileSync(join(path, entry.name)).length
          : 0),
    0,
  )
}

/**
 * What a built app's page loads: its entry and static imports (`initial`), and everything it can
 * load later through `import()` (`reachable`); chunks the bundler emitted for code it dropped are in
 * neither. Gzip level 9 totals, and the text, to look for a second React.
 */
function builtJs(app: string) {
  const html = readFileSync(join(app, 'dist/index.html'), 'utf8')
  const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1]
  assert.ok(entry, 'the built index.html has a module script')
  const measure = (files: string[]) => ({
    files: files.length,
    gzip: files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0),
    text: files.map((file) => readFileSync(file, 'utf8')).join('\n'),
  })
  return {
    initial: measure(importClosure(join(app, 'dist', entry))),
    reachable: measure(importClosure(join(app, 'dist', entry), { dynamic: true })),
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
/** A string React's element code holds once per copy of React. */
const REACT_MARKER = 'react.transitional.element'
const reacts = (text: string) => text.split(REACT_MARKER).length - 1

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'wallet-elements-package-'))
  tarball = await packTarball(work)
  cpSync(APPS, join(work, 'apps'), { recursive: true })
  writeFileSync(
    join(work, 'apps/package.json'),
    JSON.stringify({
      name: 'fixtures',
      private: true,
      type: 'module',
      dependencies: { 'wallet-elements': `file:${tarball}`, ...FIXTURE_PACKAGES },
    }),
  )
  await npm(['install', '--prefer-offline'], join(work, 'apps'))
})

after(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('the packed tarball', () => {
  test('behavior: holds the licence, the third-party notices, the framework typings and no source maps', async () => {
    const listing = (await run('tar', ['-tzf', tarball])).stdout.split('\n').filter(Boolean)
    for (const file of [
      'LICENSE',
      'dist/THIRD-PARTY-NOTICES.txt',
      'frameworks/react.d.ts',
      'frameworks/vue.d.ts',
      'frameworks/svelte.d.ts',
    ])
      assert.ok(listing.includes(`package/${file}`), `${file} in the tarball`)
    assert.deepEqual(
      listing.filter((file) => file.endsWith('.map')),
      [],
    )
    const installed = join(work, 'apps/node_modules/wallet-elements')
    const notices = readFileSync(join(installed, 'dist/THIRD-PARTY-NOTICES.txt'), 'utf8')
    for (const name of ['react 19.3.1 (MIT)', 'viem ', '@walletconnect/sign-client 2.21.8 (Apache-2.0)'])
      assert.ok(notices.includes(name), `${name} in the notices`)
    const scripts = listing.filter((file) => file.endsWith('.js'))
    for (const file of scripts) {
      const text = readFileSync(
        join(work, 'apps/node_modules/wallet-elements', file.slice('package/'.length)),
        'utf8',
      )
      assert.doesNotMatch(text, /sourceMappingURL/, `${file} points at no missing map`)
    }
  })

  test('behavior: `npm install wallet-elements` brings no server packages, no @types/node and no engine warnings', async (t) => {
    const consumer = join(work, 'consumer')
    mkdirSync(consumer)
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }))
    const output = await npm(['install', tarball, '--prefer-offline'], consumer)
    assert.doesNotMatch(output, /EBADENGINE/)
    const packages = installedPackages(join(consumer, 'node_modules'))
    for (const name of SERVER_PACKAGES) assert.ok(!packages.includes(name), `${name} is not installed`)
    assert.deepEqual(packages.sort(), [
      '@r2wc/core',
      '@r2wc/react-to-web-component',
      'nanostores',
      'react',
      'react-dom',
      'scheduler',
      'wallet-elements',
      'zod',
    ])
    const bytes = folderBytes(join(consumer, 'node_modules'))
    t.diagnostic(
      `npm install wallet-elements: ${packages.length} packages, ${(bytes / 2 ** 20).toFixed(1)} MB`,
    )
  })
})

describe('fixture apps built from the tarball', () => {
  test('behavior: a plain Vite app builds, and in Chromium the button paints and opens the dialog', async () => {
    const app = join(work, 'apps/plain')
    await npx(['vite', 'build', '--logLevel', 'warn'], app)
    const server = await serveDist({}, join(app, 'dist'))
    const browser = await launchBrowser()
    try {
      const page = await (await newContext(browser)).newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(`${server.url}index.html`)
      const button = page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' })
      await button.and(page.locator(':enabled')).click()
      await page.getByRole('dialog', { name: 'Connect Wallet' }).waitFor()
      await page.locator('body[data-opened]').waitFor({ state: 'attached' })
      assert.deepEqual(errors, [])
    } finally {
      await browser.close()
      await server.close()
    }
  })

  test('behavior: an app that imports only createConfig from the main entry ships no React', async (t) => {
    const app = join(work, 'apps/core')
    await npx(['vite', 'build', '--logLevel', 'warn'], app)
    const { initial, reachable } = builtJs(app)
    assert.equal(reacts(reachable.text), 0, 'no React anywhere the page can load')
    assert.ok(!/createRoot/.test(reachable.text), 'no ReactDOM anywhere the page can load')
    t.diagnostic(
      `createConfig alone: ${kb(initial.gzip)} gzip at start (${initial.files} files), ${kb(reachable.gzip)} with everything it can load`,
    )
  })

  test('behavior: Vue 3 with vue-tsc --strictTemplates accepts the typed tags and rejects wrong values, then builds', async () => {
    const app = join(work, 'apps/vue')
    await npx(['vue-tsc', '--noEmit', '-p', 'tsconfig.json'], app)
    await npx(['vite', 'build', '--logLevel', 'warn'], app)
  })

  test('behavior: React 19 TSX type-checks with tsc (setTimeout is a number), builds, and ships one React', async (t) => {
    const app = join(work, 'apps/react')
    await npx(['tsc', '-p', 'tsconfig.json'], app)
    await npx(['vite', 'build', '--logLevel', 'warn'], app)
    const alone = join(work, 'apps/react-alone')
    await npx(['vite', 'build', '--logLevel', 'warn'], alone)
    const withElements = builtJs(app)
    const withoutElements = builtJs(alone)
    assert.ok(reacts(withoutElements.initial.text) > 0, 'the marker finds React')
    assert.equal(
      reacts(withElements.reachable.text),
      reacts(withoutElements.reachable.text),
      'the elements add no second React',
    )
    const added = (key: 'initial' | 'reachable') => kb(withElements[key].gzip - withoutElements[key].gzip)
    t.diagnostic(
      `React app alone ${kb(withoutElements.initial.gzip)} gzip; with the elements ${kb(withElements.initial.gzip)} at start (+${added('initial')}), ${kb(withElements.reachable.gzip)} with every lazy chunk (+${added('reachable')})`,
    )
  })

  test("behavior: Svelte's element typings accept the typed tags and reject wrong values", async () => {
    await npx(['tsc', '-p', 'tsconfig.json'], join(work, 'apps/svelte'))
  })

  test('behavior: the script-tag file has types: the element classes, the tag and the event maps', async () => {
    await npx(['tsc', '-p', 'tsconfig.json'], join(work, 'apps/script-tag'))
  })

  test('behavior: plain Node imports every entry, defines nothing, and runs the core', async () => {
    const { stdout } = await run(process.execPath, ['ssr/ssr.mjs'], { cwd: join(work, 'apps') })
    const result = JSON.parse(stdout)
    assert.equal(result.customElements, 'undefined')
    assert.ok(result.exports['wallet-elements'].includes('createConfig'))
    assert.ok(result.exports['wallet-elements'].includes('WalletModalElement'))
    assert.ok(result.exports['wallet-elements/elements'].includes('defineElements'))
    assert.deepEqual(result.exports['wallet-elements/wallet-elements.js'], [])
    assert.equal(result.theme, 'dark')
    assert.deepEqual(result.networks, ['Ethereum', 'Base'])
  })
})

describe('the companion service on its own', () => {
  test('behavior: `npm ci --omit=dev` installs only the service (no React, no build tools), and `npm run server` answers, with the embedded wallet', async (t) => {
    const copy = join(work, 'self-host')
    mkdirSync(copy)
    const { stdout } = await run('git', ['ls-files', 'package.json', 'package-lock.json', 'server', 'src'], {
      cwd: ROOT,
    })
    for (const file of stdout.split('\n').filter(Boolean))
      cpSync(join(ROOT, file), join(copy, file), { recursive: true })
    await npm(['ci', '--omit=dev', '--prefer-offline'], copy)
    const packages = installedPackages(join(copy, 'node_modules'))
    // The built frame is shipped beside the service, as an operator would (it needs the build tools).
    cpSync(join(ROOT, 'dist-frame'), join(copy, 'dist-frame'), { recursive: true })
    for (const name of ['fastify', 'pg', '@electric-sql/pglite', 'drizzle-orm', 'nodemailer'])
      assert.ok(packages.includes(name), name)
    for (const name of [
      'react',
      'react-dom',
      'vite',
      'hardhat',
      'playwright-core',
      '@walletconnect/sign-client',
      'smtp-server',
      'mailparser',
    ])
      assert.ok(!packages.includes(name), `${name} is not installed`)
    t.diagnostic(
      `npm ci --omit=dev (the service alone): ${packages.length} packages, ${(folderBytes(join(copy, 'node_modules')) / 2 ** 20).toFixed(0)} MB`,
    )
    const service = spawn('npm', ['run', 'server', '--silent'], {
      cwd: copy,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: 'memory://',
        DEV_PROJECT_ID: '',
        // Production: the embedded wallet needs its key-encryption key.
        NODE_ENV: 'production',
        WALLET_KEK: randomBytes(32).toString('base64'),
        FRAME_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    })
    try {
      const [url, frameUrl] = await new Promise<[string, string]>((found, failed) => {
        let text = ''
        service.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString()
          const api = /Wallet service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1]
          const frame = /Wallet frame listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1]
          if (api && frame) found([api, frame])
        })
        service.once('exit', (code) => failed(new Error(`the service exited (${code}): ${text}`)))
      })
      const health = await fetch(`${url}/healthz`)
      assert.equal(health.status, 200)
      assert.deepEqual(await health.json(), { status: 'ok', database: 'ok' })
      // The frame's origin serves the built frame (no project here: not found, and never framed).
      const frame = await fetch(`${frameUrl}/?projectId=none`)
      assert.equal(frame.status, 404)
      assert.match(frame.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/)
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(
        readFileSync(join(copy, 'dist-frame', 'index.html'), 'utf8'),
      )?.[1]
      assert.ok(script, 'the frame page names its script')
      assert.equal((await fetch(`${frameUrl}${script}`)).status, 200)
    } finally {
      if (service.pid) process.kill(-service.pid, 'SIGTERM')
    }
  })
})
