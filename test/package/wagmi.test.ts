/**
 * `wallet-elements/wagmi` as a wagmi app installs it: the packed tarball into a React 19 + wagmi +
 * TanStack Query fixture (test/package/apps/wagmi, other packages from the npm registry), checked
 * with tsc, built with Vite with and without the modal, and driven in Chromium on the local stack
 * (Hardhat chains, the Demo Wallet answering through its visible prompt). Needs the build
 * (`npm run build`) and the registry.
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import type { Browser, Locator, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, verifyMessage } from 'viem'
import { serveDist } from '../bench/page.ts'
import { importClosure } from '../bench/size.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from '../e2e/harness.ts'

const run = promisify(execFile)
const ROOT = resolve('.')

/** The fixture's registry packages: the versions this repository builds and tests with. */
const FIXTURE_PACKAGES = {
  '@tanstack/react-query': '5.108.4',
  // The connector's types name @wagmi/core's; npm nests wagmi's own copy, so the app lists it (README).
  '@wagmi/core': '3.6.5',
  '@types/react': '19.3.0',
  '@types/react-dom': '19.3.0',
  '@vitejs/plugin-react': '6.3.0',
  react: '19.3.1',
  'react-dom': '19.3.1',
  typescript: '5.9.3',
  viem: '2.57.20',
  vite: '8.3.8',
  wagmi: '3.7.7',
}

/** The Demo Wallet's first dev account. */
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const MESSAGE = 'Hello from a wagmi app'

let work: string
let app: string

const bin = (name: string) => join(app, 'node_modules/.bin', name)

/** Every `viem` package installed under a node_modules folder (nested ones included). */
function viemCopies(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder).flatMap((name) => {
    if (name.startsWith('.')) return []
    const scoped = name.startsWith('@')
      ? readdirSync(join(folder, name)).map((inner) => `${name}/${inner}`)
      : [name]
    return scoped.flatMap((pkg) => [
      ...(pkg === 'viem' ? [join(folder, pkg)] : []),
      ...viemCopies(join(folder, pkg, 'node_modules')),
    ])
  })
}

/** Gzip (level 9) of the JS a built page loads at start, and with every lazy chunk it can load. */
function builtJs(dist: string) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
  const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1]
  assert.ok(entry, 'the built index.html has a module script')
  const gzip = (files: string[]) =>
    files.reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0)
  return {
    initial: gzip(importClosure(join(dist, entry))),
    reachable: gzip(importClosure(join(dist, entry), { dynamic: true })),
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

before(async () => {
  if (!existsSync('dist/wagmi.js') || !existsSync('dist/types/src/wagmi/index.d.ts'))
    await run('npm', ['run', 'build'], { cwd: ROOT, maxBuffer: 64 * 2 ** 20 })
  work = mkdtempSync(join(tmpdir(), 'wallet-elements-wagmi-'))
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT })
  const tarball = join(work, (JSON.parse(stdout) as { filename: string }[])[0]?.filename ?? '')
  app = join(work, 'wagmi')
  cpSync(resolve('test/package/apps/wagmi'), app, { recursive: true })
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'wagmi-fixture',
      private: true,
      type: 'module',
      dependencies: { 'wallet-elements': `file:${tarball}`, ...FIXTURE_PACKAGES },
    }),
  )
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'], {
    cwd: app,
    maxBuffer: 64 * 2 ** 20,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  })
})

after(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('a wagmi app built from the tarball', () => {
  test('behavior: type-checks with tsc, builds with and without the modal, installs one viem, and the entry bundles nothing of wagmi or viem', async (t) => {
    assert.deepEqual(viemCopies(join(app, 'node_modules')), [join(app, 'node_modules/viem')], 'one viem')
    const entry = readFileSync(join(app, 'node_modules/wallet-elements/dist/wagmi.js'), 'utf8')
    const packages = [...entry.matchAll(/(?:import|from)\s*"([^".][^"]*)"/g)].map((match) => match[1])
    assert.deepEqual(
      [...new Set(packages)],
      ['viem'],
      "the entry imports the app's viem and bundles nothing of wagmi",
    )
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: app })
    await run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: app })
    await run(bin('vite'), ['build', '--logLevel', 'warn', '--mode', 'alone', '--outDir', 'dist-alone'], {
      cwd: app,
    })
    const withModal = builtJs(join(app, 'dist'))
    const alone = builtJs(join(app, 'dist-alone'))
    assert.ok(withModal.initial > alone.initial, 'the modal adds to the app')
    t.diagnostic(
      `wagmi app alone ${kb(alone.initial)} gzip (${kb(alone.reachable)} with lazy chunks); with the connector and elements ${kb(withModal.initial)} at start (+${kb(withModal.initial - alone.initial)}), ${kb(withModal.reachable)} with every lazy chunk (+${kb(withModal.reachable - alone.reachable)})`,
    )
  })

  describe('in Chromium, on the local chain with the Demo Wallet', { timeout: 240_000 }, () => {
    let stack: TestStack
    let browser: Browser
    let server: Awaited<ReturnType<typeof serveDist>>

    before(async () => {
      if (!existsSync(join(app, 'dist/index.html')))
        await run(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: app })
      ;[stack, browser, server] = await Promise.all([
        startTestStack(),
        launchBrowser(),
        serveDist({}, join(app, 'dist')),
      ])
    })
    after(async () => {
      await browser?.close()
      await server?.close()
      await stack?.stop()
    })

    const output = (page: Page, id: string) => page.locator(`output#${id}`)
    const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
    const approve = (page: Page) =>
      page.getByRole('dialog', { name: 'Demo Wallet request' }).getByRole('button', { name: 'Approve' })

    /** Approves the Demo Wallet's prompts (it asks again only for what the site is not allowed yet) until `done` shows. */
    async function approveUntil(page: Page, done: Locator): Promise<void> {
      for (let prompts = 0; prompts < 3; prompts++) {
        const next = await Promise.race([
          done.waitFor().then(() => 'done' as const),
          approve(page)
            .waitFor()
            .then(() => 'prompt' as const),
        ]).catch(() => 'done' as const)
        if (next === 'done') break
        await approve(page).click()
      }
      await done.waitFor()
    }

    test('behavior: useConnect opens the modal, the Demo Wallet connects, signs, sends and switches through wagmi, and the modal’s own changes reach useAccount', async () => {
      const context = await newContext(browser)
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(error.message))
      // The Demo Wallet stands in for a browser extension: it announces itself by EIP-6963.
      await page.addInitScript(
        `import(${JSON.stringify(new URL('wallets/install.ts', stack.urls.demo).href)})`,
      )
      const query = new URLSearchParams({ rpc: stack.urls.chain, rpc2: stack.urls.chain2 })
      await page.goto(`${server.url}index.html?${query}`)
      const connectButton = page.getByRole('button', { name: 'Connect with Wallet Elements' })

      // Closing the modal without connecting is a rejection, as wagmi names it.
      await connectButton.click()
      await modal(page)
        .getByRole('button', { name: /Demo Wallet/ })
        .waitFor()
      await modal(page).getByRole('button', { name: 'Close' }).click()
      await page.locator('output#connect-error', { hasText: 'UserRejectedRequestError' }).waitFor()
      assert.equal(await output(page, 'status').textContent(), 'disconnected')

      // useConnect -> the modal -> the Demo Wallet -> useAccount.
      await connectButton.click()
      await modal(page)
        .getByRole('button', { name: /Demo Wallet/ })
        .click()
      await approveUntil(page, page.locator('output#status', { hasText: /^connected$/ }))
      assert.equal(await output(page, 'address').textContent(), ADDRESS)
      assert.equal(await output(page, 'chain').textContent(), '31337')
      await modal(page).waitFor({ state: 'hidden' })

      // useSignMessage: the signature verifies for the account.
      await page.getByRole('button', { name: 'Sign message' }).click()
      await approveUntil(page, page.locator('output#signature', { hasText: /^0x/ }))
      const signature = (await output(page, 'signature').textContent()) as Hex
      assert.ok(
        await verifyMessage({ address: ADDRESS, message: MESSAGE, signature }),
        'the signature verifies',
      )

      // useSendTransaction on the local chain; the receipt arrives (useWaitForTransactionReceipt).
      await page.getByRole('button', { name: 'Send 0.01 ETH' }).click()
      await approveUntil(page, page.locator('output#receipt', { hasText: 'success' }))
      const hash = (await output(page, 'transaction').textContent()) as Hex
      const chain = createPublicClient({ transport: http(stack.urls.chain) })
      const receipt = await chain.getTransactionReceipt({ hash })
      assert.equal(receipt.status, 'success')
      assert.equal(receipt.from.toLowerCase(), ADDRESS.toLowerCase())

      // useSwitchChain: the modal's network switch (the wallet adds Local Chain 2 first).
      await page.getByRole('button', { name: 'Switch to Local Chain 2' }).click()
      await approveUntil(page, page.locator('output#chain', { hasText: /^31338$/ }))
      await page.waitForFunction(
        () =>
          document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId ===
          'eip155:31338',
      )

      // A network switch made in the modal shows in useAccount().chainId.
      await page
        .locator('wallet-button')
        .getByRole('button', { name: /, Account$/ })
        .click()
      await modal(page)
        .getByRole('button', { name: /Local Chain 2\s+Network/ })
        .click()
      await modal(page)
        .getByRole('button', { name: /^Local Chain(?! 2)/ })
        .click()
      await approveUntil(page, page.locator('output#chain', { hasText: /^31337$/ }))

      // A reload restores the connection without a prompt (isAuthorized, then connect while reconnecting).
      await page.reload()
      await page.locator('output#status', { hasText: /^connected$/ }).waitFor()
      assert.equal(await output(page, 'address').textContent(), ADDRESS)
      assert.equal(await approve(page).count(), 0, 'no prompt on reload')

      // Disconnect in the modal: wagmi shows disconnected.
      await page
        .locator('wallet-button')
        .getByRole('button', { name: /, Account$/ })
        .click()
      await modal(page).getByRole('button', { name: 'Disconnect' }).click()
      await page.locator('output#status', { hasText: /^disconnected$/ }).waitFor()
      assert.equal(await output(page, 'address').textContent(), '')

      // A connection made from <wallet-button> reaches wagmi too.
      await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).click()
      await modal(page)
        .getByRole('button', { name: /Demo Wallet/ })
        .click()
      await approveUntil(page, page.locator('output#status', { hasText: /^connected$/ }))
      assert.equal(await output(page, 'address').textContent(), ADDRESS)

      // wagmi's disconnect disconnects the modal too.
      await page.getByRole('button', { name: 'Disconnect (wagmi)' }).click()
      await page.locator('output#status', { hasText: /^disconnected$/ }).waitFor()
      await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
      assert.deepEqual(errors, [])
    })
  })
})
