/**
 * A Next.js App Router site built from the packed tarball (test/package/apps/next): a server
 * component page that renders a client component with the elements, `next build`, then `next start`
 * on loopback against the local stack, opened in Chromium with the Demo Wallet injected as an
 * extension would be. Then the newcomer's mistake, the elements imported from a server component,
 * which must fail the build and say where the import belongs. Next comes from the npm registry at the
 * version this repository pins (its SWC binary is an optional dependency of it); nothing is downloaded
 * by Next itself, and its telemetry is off.
 */
import assert from 'node:assert/strict'
import { execFile, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import type { Browser } from 'playwright-core'
import { freePort, launchBrowser, newContext, startTestStack, type TestStack } from '../e2e/harness.ts'
import { npm, packTarball } from './tarball.ts'

const run = promisify(execFile)
const APP = resolve('test/package/apps/next')
const devDependencies = (JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, unknown>)
  .devDependencies as Record<string, string>

/** The fixture's registry packages: the versions this repository builds and tests with. */
const NEXT_PACKAGES = Object.fromEntries(
  ['next', 'react', 'react-dom', 'typescript', '@types/react', '@types/react-dom', '@types/node'].map(
    (name) => [name, devDependencies[name]],
  ),
)

/** What the mistake must say (frameworks/react-server/elements.js). */
const MISTAKE_MESSAGE =
  "wallet-elements/elements registers custom elements in the browser: import it from a client component (a file that starts with 'use client'), not from a server component."

/** Next without telemetry, and without the prompts and notices a terminal would get. */
const NEXT_ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CI: '1', NODE_ENV: 'production' }

let work: string

/** `next build` in `app`: how long it took and what it printed (a failed build rejects with both). */
async function nextBuild(app: string): Promise<{ ms: number; output: string }> {
  const started = performance.now()
  try {
    const { stdout, stderr } = await run(join(work, 'node_modules/.bin/next'), ['build'], {
      cwd: app,
      env: NEXT_ENV,
      maxBuffer: 64 * 2 ** 20,
    })
    return { ms: performance.now() - started, output: `${stdout}${stderr}` }
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string }
    throw Object.assign(new Error(`next build failed:\n${stdout}${stderr}`), { output: `${stdout}${stderr}` })
  }
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'wallet-elements-next-'))
  const tarball = await packTarball(work)
  writeFileSync(
    join(work, 'package.json'),
    JSON.stringify({
      name: 'next-fixtures',
      private: true,
      dependencies: { 'wallet-elements': `file:${tarball}`, ...NEXT_PACKAGES },
    }),
  )
  await npm(['install', '--prefer-offline'], work)
})

after(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('a Next.js App Router site built from the tarball', { timeout: 600_000 }, () => {
  let stack: TestStack | undefined
  let browser: Browser | undefined
  let server: ReturnType<typeof spawn> | undefined

  /** Stops what the first test started (before the second one's build, which takes every core). */
  const stopSite = async () => {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM')
    await browser?.close()
    await stack?.stop()
    ;[server, browser, stack] = [undefined, undefined, undefined]
  }
  after(stopSite)

  test('behavior: builds, serves the tags with nothing browser-only run on the server, hydrates without a warning, paints the button and connects the Demo Wallet', async (t) => {
    assert.ok(
      existsSync(join(work, 'node_modules/@next/swc-linux-x64-gnu')),
      "Next's SWC binary comes from npm",
    )
    const app = join(work, 'next')
    cpSync(APP, app, { recursive: true })
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    // One after the other: the build takes every core, and the stack's chains answer deployments in time.
    const build = await nextBuild(app)
    assert.doesNotMatch(build.output, /download|installing/i, 'Next fetched nothing')
    t.diagnostic(`next build: ${(build.ms / 1000).toFixed(1)} s`)
    ;[stack, browser] = await Promise.all([startTestStack({ siteOrigins: [origin] }), launchBrowser()])

    try {
      // The site's settings reach the server component from its environment, as in a deployment.
      server = spawn(
        join(work, 'node_modules/.bin/next'),
        ['start', '--hostname', '127.0.0.1', '--port', `${port}`],
        {
          cwd: app,
          env: {
            ...NEXT_ENV,
            WALLET_PROJECT_ID: 'dev-project',
            WALLET_API_URL: stack.urls.service,
            WALLET_RELAY_URL: stack.urls.relay,
            WALLET_FRAME_URL: stack.urls.frame,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
          detached: true,
        },
      )
      let serverLog = ''
      server.stdout?.on('data', (chunk: Buffer) => {
        serverLog += chunk.toString()
      })
      server.stderr?.on('data', (chunk: Buffer) => {
        serverLog += chunk.toString()
      })
      await new Promise<void>((ready, failed) => {
        server?.stdout?.on('data', () => {
          if (/Ready in/.test(serverLog)) ready()
        })
        server?.once('exit', (code) => failed(new Error(`next start exited (${code}): ${serverLog}`)))
      })

      // The server's HTML already holds the tags, with the attributes the server component passed.
      const response = await fetch(`${origin}/`)
      assert.equal(response.status, 200)
      const html = await response.text()
      assert.match(html, /<wallet-modal [^>]*networks="eip155:31337,eip155:31338"/)
      assert.match(html, new RegExp(`<wallet-modal [^>]*api-url="${stack.urls.service}"`))
      assert.match(html, /<wallet-button><\/wallet-button>/)

      const context = await newContext(browser as Browser)
      // The Demo Wallet comes in as a browser extension would: its script added to every page.
      await context.addInitScript({
        content: `document.addEventListener('DOMContentLoaded', () => {
          const script = document.createElement('script')
          script.type = 'module'
          script.src = ${JSON.stringify(new URL('wallets/install.ts', stack.urls.demo).href)}
          document.head.append(script)
        })`,
      })
      const page = await context.newPage()
      const messages: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          messages.push(`${message.type()}: ${message.text()} (${message.location().url})`)
      })
      page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`))
      await page.goto(`${origin}/`)

      const connect = page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' })
      await connect.and(page.locator(':enabled')).waitFor()
      const box = await connect.boundingBox()
      assert.ok(box && box.width > 0 && box.height > 0, 'the button paints')

      await connect.click()
      await page
        .locator('wallet-modal')
        .getByRole('dialog')
        .getByRole('button', { name: /Demo Wallet/ })
        .click()
      await page.locator('[data-demo-wallet="approve"]').click()
      const account = page.locator('wallet-button').getByRole('button', { name: /, Account$/ })
      await account.waitFor()
      assert.match((await account.textContent()) ?? '', /0xf39F…2266/)
      // The client component's React state heard the element's event.
      await page
        .getByLabel('Connected address')
        .getByText('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
        .waitFor()

      // The fallback also ranks each network's default RPC (the local chains' are 127.0.0.1:8545 and 8546), which
      // this stack does not serve: its chains are on ports of the test's range. The browser logs each
      // refused ping; whether one came depends on the timing and on what else the machine runs.
      const unserved =
        /^error: Failed to load resource: net::ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:854[56]\/\)$/
      assert.deepEqual(
        messages.filter((message) => !unserved.test(message)),
        [],
        'no hydration warning, nothing else in the console',
      )
      // Next prints its banner and "Ready"; anything more is the server failing on a browser global.
      assert.doesNotMatch(serverLog, /error|warn|window|indexedDB|document|customElements|HTMLElement/i)
      await context.close()
    } finally {
      await stopSite()
    }
  })

  test('error: the elements imported from a server component fail `next build` with where the import belongs', async (t) => {
    const app = join(work, 'next-mistake')
    cpSync(APP, app, { recursive: true })
    mkdirSync(join(app, 'app/mistake'))
    cpSync(join(app, 'mistake/page.tsx'), join(app, 'app/mistake/page.tsx'))
    const failure = await nextBuild(app).then(
      () => assert.fail('next build succeeded'),
      (error: Error & { output?: string }) => error.output ?? '',
    )
    assert.ok(failure.includes(MISTAKE_MESSAGE), failure)
    t.diagnostic(
      `next build stops at: ${failure.split('\n').find((line) => line.includes('/mistake')) ?? ''}`,
    )
  })
})

describe('the entries under the react-server condition', () => {
  test('error: an RSC bundler gets modules that throw and say where the import belongs; plain Node still imports them', async () => {
    const importIn = (specifier: string, conditions: string[]) =>
      run(
        process.execPath,
        [
          ...conditions.map((condition) => `--conditions=${condition}`),
          '--input-type=module',
          '-e',
          `await import(${JSON.stringify(specifier)})`,
        ],
        { cwd: work },
      ).then(
        () => '',
        (error: { stderr: string }) => error.stderr,
      )
    assert.ok((await importIn('wallet-elements/elements', ['react-server'])).includes(MISTAKE_MESSAGE))
    assert.match(
      await importIn('wallet-elements/wallet-elements.js', ['react-server']),
      /wallet-elements\/wallet-elements\.js registers custom elements in the browser: import it from a client component/,
    )
    assert.equal(await importIn('wallet-elements/elements', []), '')
    assert.equal(await importIn('wallet-elements/wallet-elements.js', []), '')
    // The main entry holds the element classes; the framework-free core works in a server component.
    assert.match(
      await importIn('wallet-elements', ['react-server']),
      /wallet-elements holds the elements, which run in the browser: .* import createConfig and the stores from wallet-elements\/core/,
    )
    assert.equal(await importIn('wallet-elements', []), '')
    assert.equal(await importIn('wallet-elements/core', ['react-server']), '')
  })
})
