import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core'
import { startService } from '../../server/main.ts'
import { networkQuiet, WALLET } from '../bench/loaded.ts'
import { serveDist } from '../bench/page.ts'
import { openTestDatabase, type TestDatabase, testLogger } from '../unit/server/helpers.ts'
import { launchBrowser, newContext } from './harness.ts'

/**
 * The first open of the script-tag build (dist/, served on loopback, real Chromium), the way a
 * person meets it: once the page is idle, the dialog's code is already fetched (one round of
 * `modulepreload`), so the click fetches none; the pointer or focus reaching the button asks the
 * catalogue (the real service, PGlite) for its first page once, and the open asks for nothing more;
 * browser wallets show while that answer is still on its way. Needs the build (built if missing).
 */

const isJs = (url: string) => new URL(url).pathname.endsWith('.js')

describe('the first open of the script-tag build', { timeout: 180_000 }, () => {
  let browser: Browser
  let db: TestDatabase
  let service: Awaited<ReturnType<typeof startService>>
  let site: Awaited<ReturnType<typeof serveDist>>
  const contexts: BrowserContext[] = []

  before(async () => {
    if (!existsSync('dist/wallet-elements.js')) execFileSync('npm', ['run', 'build:lib'], { stdio: 'ignore' })
    db = await openTestDatabase('e2e_first_open')
    // The pages, one without a service and one with (its URL is known once the service listens).
    const pages: Record<string, string> = {}
    site = await serveDist(pages)
    service = await startService({
      config: { ...db.config(), host: '127.0.0.1', port: 0, devOrigins: [new URL(site.url).origin] },
      database: db.database,
      logger: testLogger,
    })
    const page = (
      modal: string,
    ) => `<!doctype html><html><head><meta charset="utf-8"><title>first open</title>
${WALLET}<script type="module" src="/wallet-elements.js"></script></head>
<body><main><input aria-label="Before the button"><wallet-button></wallet-button></main>${modal}</body></html>`
    pages['/plain.html'] = page('')
    pages['/service.html'] = page(
      `<wallet-modal api-url="${service.url}" project-id="dev-project"></wallet-modal>`,
    )
    browser = await launchBrowser()
  })

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await service?.stop()
    await db?.close()
    await site?.close()
  })

  /** A cold page, left until idle and its network quiet, recording every request from then on. */
  async function idlePage(path: string) {
    const context = await newContext(browser)
    contexts.push(context)
    const page = await context.newPage()
    const quiet = networkQuiet(page)
    await page.goto(`${site.url}${path}`)
    const button = page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' })
    await button.and(page.locator(':enabled')).waitFor()
    await page.evaluate(() => new Promise((idle) => requestIdleCallback(idle)))
    await quiet
    const requests: Request[] = []
    page.on('request', (request) => requests.push(request))
    return { page, button, requests }
  }

  const catalogueRequests = (requests: readonly Request[]) =>
    requests.filter((request) => new URL(request.url()).pathname === '/getWallets')

  /** Resolves once the dialog shows its first wallet row and a frame has been painted with it. */
  const dialogPainted = async (page: Page) => {
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Bench Wallet/ })
      .waitFor()
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => setTimeout(painted))))
  }

  test('behavior: once the page is idle the first click fetches no JS: the dialog came in one round of modulepreload', async () => {
    const { page, button, requests } = await idlePage('plain.html')
    const { links, scripts } = await page.evaluate(() => ({
      links: [...document.querySelectorAll<HTMLLinkElement>('head link[rel="modulepreload"]')].map(
        (link) => link.href,
      ),
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, start: entry.startTime })),
    }))
    const name = (url: string) => new URL(url).pathname.split('/').pop() ?? url
    assert.ok(
      links.some((url) => /^ModalShell-[\w-]+\.js$/.test(name(url))) &&
        links.some((url) => /^en-[\w-]+\.js$/.test(name(url))),
      `the dialog and its English strings are preloaded after idle: ${links.map(name).join(', ')}`,
    )
    const preloaded = scripts.filter((script) => links.includes(script.url))
    assert.equal(preloaded.length, links.length, 'every preload link was fetched, each once')
    const round = Math.min(...preloaded.map((script) => script.start))
    assert.deepEqual(
      scripts
        .filter((script) => !links.includes(script.url) && script.start >= round)
        .map((s) => name(s.url)),
      [],
      'once the preload round began, nothing else was fetched: no module was found late, by parsing another',
    )

    await button.click()
    await dialogPainted(page)
    assert.deepEqual(
      requests.filter((request) => isJs(request.url())).map((request) => request.url()),
      [],
      'no JS fetched between the click and the painted dialog',
    )
    // Nor after it: the dialog's first open needed nothing that was not preloaded.
    await networkQuiet(page)
    assert.deepEqual(
      requests.filter((request) => isJs(request.url())).map((request) => request.url()),
      [],
    )
  })

  test('behavior: the pointer reaching the button asks for the catalogue once; opening asks for nothing more', async () => {
    const { page, button, requests } = await idlePage('service.html')
    assert.equal(catalogueRequests(requests).length, 0, 'nothing asked before the pointer comes')
    // Listening before the pointer moves: on loopback the answer can be in before hover() returns.
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/getWallets')
    await button.hover()
    await answered
    await page.mouse.move(0, 0)
    await button.hover()
    assert.equal(catalogueRequests(requests).length, 1, 'hovering again asks nothing more')
    const [first] = catalogueRequests(requests)
    assert.equal(new URL(first?.url() ?? '').searchParams.get('page'), '1')

    await button.click()
    await dialogPainted(page)
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /All wallets/ })
      .waitFor()
    await networkQuiet(page)
    assert.equal(catalogueRequests(requests).length, 1, 'the open used the answer already in')
    assert.deepEqual(
      requests.filter((request) => isJs(request.url())).map((request) => request.url()),
      [],
      'and fetched no JS: the catalogue code was preloaded with the dialog',
    )
  })

  test('behavior: focus reaching the button by keyboard asks for the catalogue once, and Enter opens without asking again', async () => {
    const { page, requests } = await idlePage('service.html')
    await page.getByLabel('Before the button').focus()
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/getWallets')
    await page.keyboard.press('Tab')
    await answered
    assert.equal(catalogueRequests(requests).length, 1)
    await page.keyboard.press('Enter')
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /All wallets/ })
      .waitFor()
    await networkQuiet(page)
    assert.equal(catalogueRequests(requests).length, 1)
  })

  test('behavior: browser wallets show while the catalogue answer is held back, and the catalogue joins when it arrives', async () => {
    const { page, button, requests } = await idlePage('service.html')
    let release: (() => void) | undefined
    const held = new Promise<Route>((hold) =>
      page.route('**/getWallets?**', (route) => {
        hold(route)
        return new Promise<void>((done) => {
          release = () => void route.continue().then(done)
        })
      }),
    )
    await button.click()
    await held
    const dialog = page.getByRole('dialog')
    await dialogPainted(page)
    assert.ok(await dialog.getByRole('button', { name: /Bench Wallet/ }).isVisible())
    assert.ok(await dialog.getByRole('status').filter({ hasText: 'Loading wallets…' }).isVisible())
    assert.equal(catalogueRequests(requests).length, 1)
    release?.()
    await dialog.getByRole('button', { name: /All wallets/ }).waitFor()
    assert.ok(await dialog.getByRole('button', { name: /Bench Wallet/ }).isVisible())
    assert.equal(catalogueRequests(requests).length, 1)
  })
})
