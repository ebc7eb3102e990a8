import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core'
import { runProjectCli } from '../../server/cli/project.ts'
import { analyticsEvents } from '../../server/db/schema.ts'
import { startService } from '../../server/main.ts'
import type { CatalogueEntry, GetWalletsResponse } from '../../src/protocol/api/index.ts'
import { freePort, openTestDatabase, type TestDatabase, testLogger } from '../unit/server/helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * The modal's catalogue half against the running stack: Connect (browser wallets once, popular
 * wallets with their logos, the count), AllWallets (paging, lazy images, debounced search, empty
 * state, a wallet to get), the page's wallet options, the RPC proxy, analytics, a service that is
 * down, and an origin the project does not allow.
 */

const DEMO_RDNS = 'dev.wallet-elements.demo'
const LIMIT = 10_000

type Seen = { url: URL; method: string; postData: string | null }

describe('the wallet catalogue in the modal', { timeout: 120_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let own: { url: string; stop(): Promise<void> }
  let ownDb: TestDatabase
  let catalogue: GetWalletsResponse
  const contexts: BrowserContext[] = []

  const cli = async (...argv: string[]) =>
    assert.equal(
      await runProjectCli(argv, {
        database: ownDb.database,
        out: () => {},
        err: (line) => console.error(line),
      }),
      0,
    )

  /**
   * A second service whose database the test reads: project `locked` allows only https://example.com
   * (made with the CLI), and its dev project gets the demo's origin once the demo runs.
   */
  async function startOwnService() {
    ownDb = await openTestDatabase('e2e_catalogue')
    await cli('create', '--id', 'locked', '--name', 'Locked', '--origin', 'https://example.com')
    return startService({
      // The wallet frame on a free port: 8788 may be another stack's (suites run side by side).
      env: { FRAME_PORT: '0' },
      config: { ...ownDb.config(), port: 0, devOrigins: [] },
      database: ownDb.database,
      logger: testLogger,
    })
  }

  before(async () => {
    ;[stack, browser, own] = await Promise.all([startTestStack(), launchBrowser(), startOwnService()])
    await cli('allow-origin', '--id', 'dev-project', '--origin', new URL(stack.urls.demo).origin)
    const query = 'projectId=dev-project&st=wallet-elements&sv=0.1.0'
    const response = await fetch(`${stack.urls.service}/getWallets?${query}&page=1&entries=100`)
    const first = (await response.json()) as GetWalletsResponse
    const rest = await fetch(`${stack.urls.service}/getWallets?${query}&page=2&entries=100`)
    catalogue = {
      count: first.count,
      data: [...first.data, ...((await rest.json()) as GetWalletsResponse).data],
    }
    assert.equal(catalogue.data.length, catalogue.count)
    assert.ok(
      catalogue.data.some((entry) => entry.rdns === DEMO_RDNS),
      'the seed has the Demo Wallet',
    )
  })

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await own?.stop()
    await ownDb?.close()
    await stack?.stop()
  })

  /** A fresh page of the demo, recording every request it makes. */
  async function openDemo(setup?: (page: Page) => Promise<void>) {
    const context = await newContext(browser)
    contexts.push(context)
    const page = await context.newPage()
    const requests: Seen[] = []
    context.on('request', (request: Request) =>
      requests.push({
        url: new URL(request.url()),
        method: request.method(),
        postData: request.postData(),
      }),
    )
    await page.goto(stack.urls.demo)
    await page
      .locator('wallet-button')
      .getByRole('button', { name: 'Connect Wallet' })
      .and(page.locator(':enabled'))
      .waitFor()
    if (setup) await setup(page)
    return { page, requests }
  }

  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  const openModal = (page: Page) => page.locator('wallet-button').getByRole('button').click()
  const section = (page: Page, name: string) => modal(page).getByRole('region', { name })
  const rows = (scope: Locator) => scope.locator('[data-wallet-id]')
  const service = (requests: Seen[], path: string) =>
    requests.filter(
      (request) => request.url.origin === new URL(stack.urls.service).origin && request.url.pathname === path,
    )
  /** The AllWallets list as the modal holds it. */
  const walletsList = (page: Page) =>
    page.evaluate(() => {
      const list = document.querySelector('wallet-modal')!.walletConfig.$walletList.get()
      return { entries: list.entries.map((entry) => entry.id), status: list.status, query: list.query }
    })
  const searched = async (page: Page, query: string) => {
    const list = await walletsList(page)
    return list.query === query && list.status === 'ready'
  }

  async function until(what: string, check: () => Promise<boolean> | boolean, timeout = LIMIT) {
    const end = Date.now() + timeout
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  /** Ids of the wallet logos the page asked the service for. */
  const imageIds = (requests: Seen[]) =>
    new Set(
      requests
        .filter((request) => request.url.pathname.startsWith('/getWalletImage/'))
        .map((request) => decodeURIComponent(request.url.pathname.slice('/getWalletImage/'.length))),
    )

  it('Connect: the Demo Wallet once, popular wallets with logos, and All wallets with the count', async () => {
    const { page } = await openDemo()
    await openModal(page)
    const allWallets = modal(page).getByRole('button', { name: /^All wallets/ })
    await allWallets.waitFor()

    const browserRows = rows(section(page, 'Browser wallets'))
    assert.deepEqual(await browserRows.allTextContents(), ['Demo WalletInstalled'])
    assert.equal(
      await modal(page)
        .getByRole('button', { name: /Demo Wallet/ })
        .count(),
      1,
    )

    // Featured: the catalogue's first 4; recommended: the next 4; installed wallets left out.
    const installed = (entry: CatalogueEntry) => entry.rdns === DEMO_RDNS
    const expected = catalogue.data
      .slice(0, 8)
      .filter((entry) => !installed(entry))
      .map((entry) => entry.name)
    const popular = rows(section(page, 'Popular wallets'))
    assert.deepEqual(await popular.allTextContents(), expected)
    assert.ok(expected.length >= 7)

    // Their logos come from the service and load.
    const images = section(page, 'Popular wallets').locator('img')
    await until('the popular logos', async () => {
      const loaded = await images.evaluateAll((list) =>
        list.map(
          (image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
        ),
      )
      return loaded.length === expected.length && loaded.every(Boolean)
    })
    const sources = await images.evaluateAll((list) => list.map((image) => (image as HTMLImageElement).src))
    for (const src of sources) assert.ok(src.startsWith(`${stack.urls.service}/getWalletImage/`), src)

    assert.equal(await allWallets.textContent(), `All wallets${catalogue.count} wallets${catalogue.count}`)
  })

  it('AllWallets: pages of 40 on scroll, images for the first 20 of a page and for rows in view', async () => {
    const { page, requests } = await openDemo()
    await openModal(page)
    await modal(page)
      .getByRole('button', { name: /^All wallets/ })
      .click()
    const list = modal(page).getByRole('list', { name: 'All wallets' })
    await rows(list).first().waitFor()
    // Pages asked for, the Connect view's own first page included.
    const pages = () =>
      service(requests, '/getWallets')
        .filter((request) => !request.url.searchParams.has('search'))
        .map((request) => Number(request.url.searchParams.get('page')))

    await until('the first page', async () => (await walletsList(page)).entries.length === 40)
    const first = (await walletsList(page)).entries
    assert.deepEqual(
      first,
      catalogue.data.slice(0, 40).map((entry) => entry.id),
    )
    await page.waitForTimeout(500)
    assert.deepEqual(pages(), [1, 1])
    const scroller = modal(page).locator('.virtual')
    const rendered = async () =>
      new Set(
        await rows(list).evaluateAll((items) => items.map((item) => item.getAttribute('data-wallet-id'))),
      )

    // Only the rows in view are in the DOM (a virtual list), and only their images and the first 20 are fetched.
    const inView = await rendered()
    assert.ok(inView.size <= 12, `${inView.size} rows rendered`)
    let images = imageIds(requests)
    for (const id of first.slice(0, 20)) assert.ok(images.has(id), `image of #${first.indexOf(id)} preloaded`)
    for (const id of first.slice(20)) {
      assert.ok(
        !images.has(id) || inView.has(id),
        `image of #${first.indexOf(id)} fetched before it was shown`,
      )
    }

    // Scrolling to the end asks for page 2 (once), which preloads its first 20 images.
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight
    })
    await until('the second page', async () => (await walletsList(page)).entries.length === 80)
    await page.waitForTimeout(500)
    assert.deepEqual(pages(), [1, 1, 2])
    const second = (await walletsList(page)).entries.slice(40)
    assert.deepEqual(
      second,
      catalogue.data.slice(40, 80).map((entry) => entry.id),
    )
    images = imageIds(requests)
    const shown = await rendered()
    for (const id of second.slice(0, 20))
      assert.ok(images.has(id), `image of page 2 #${second.indexOf(id)} preloaded`)
    for (const id of second.slice(20)) {
      assert.ok(
        !images.has(id) || shown.has(id),
        `image of page 2 #${second.indexOf(id)} fetched before it was shown`,
      )
    }
    // The rows scrolled past on page 1 had their images fetched as they came into view.
    const last = first.at(-1)
    assert.ok(last && images.has(last), 'the last row of page 1 was shown, so its image was fetched')

    // And on to the end of the catalogue: then no more requests.
    await until('the whole catalogue', async () => {
      await scroller.evaluate((element) => {
        element.scrollTop = element.scrollHeight
      })
      return (await walletsList(page)).entries.length === catalogue.count
    })
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight
    })
    await page.waitForTimeout(300)
    const expectedPages = Array.from({ length: Math.ceil(catalogue.count / 40) }, (_, index) => index + 1)
    assert.deepEqual(pages(), [1, ...expectedPages])

    // The Demo Wallet is listed once, as installed, at the top: the list has as many rows as the
    // catalogue has entries (its own entry of the Demo Wallet left out).
    await scroller.evaluate((element) => {
      element.scrollTop = 0
    })
    await until(
      'the top of the list',
      async () => (await rows(list).first().textContent()) === 'Demo WalletInstalled',
    )
    assert.equal(await list.locator('li').first().getAttribute('aria-setsize'), String(catalogue.count))
    assert.equal(await list.getByRole('button', { name: /Demo Wallet/ }).count(), 1)

    // A search made from deep in the list shows its results from the top.
    await scroller.evaluate((element) => {
      element.scrollTop = element.scrollHeight
    })
    await page.waitForTimeout(200)
    await modal(page).getByRole('searchbox', { name: 'Search wallets' }).fill('a')
    await until('the results for "a"', () => searched(page, 'a'))
    const results = (await walletsList(page)).entries
    await until('the first result in view', async () => (await rendered()).has(results[0]!))
    assert.equal(await scroller.evaluate((element) => element.scrollTop), 0)
  })

  it('AllWallets: a debounced search (one request), no match, and a wallet to get', async () => {
    const { page, requests } = await openDemo()
    await openModal(page)
    await modal(page)
      .getByRole('button', { name: /^All wallets/ })
      .click()
    const search = modal(page).getByRole('searchbox', { name: 'Search wallets' })
    await until('the first page', async () => (await walletsList(page)).entries.length === 40)

    // The page's own clock: when the last keystroke happened, and when the search request started.
    await page.evaluate(() =>
      document.addEventListener(
        'input',
        () => {
          ;(window as unknown as { lastInput: number }).lastInput = performance.now()
        },
        true,
      ),
    )
    await search.click()
    await page.keyboard.type('rain', { delay: 40 })
    const list = modal(page).getByRole('list', { name: 'All wallets' })
    await until('the results for "rain"', () => searched(page, 'rain'))
    await list.getByRole('button', { name: 'Rainbow' }).waitFor()
    await page.waitForTimeout(300)
    const searches = service(requests, '/getWallets').filter((request) =>
      request.url.searchParams.has('search'),
    )
    assert.deepEqual(
      searches.map((request) => request.url.searchParams.get('search')),
      ['rain'],
    )
    const waited = await page.evaluate(() => {
      const started = performance
        .getEntriesByType('resource')
        .find((entry) => entry.name.includes('search=rain'))?.startTime
      return (started ?? Number.NaN) - (window as unknown as { lastInput: number }).lastInput
    })
    assert.ok(waited >= 295 && waited < 1_000, `sent ${waited.toFixed(0)} ms after the last keystroke`)
    assert.equal(searches[0]?.url.searchParams.get('entries'), '100')
    const names = await rows(list).allTextContents()
    assert.ok(
      names.every((name) => /rain/i.test(name)),
      names.join(', '),
    )

    await search.fill('zzzz no such wallet')
    await modal(page).getByText('No wallets found').waitFor()

    // A catalogue wallet that is not installed opens its pairing view (issue 4), which offers to
    // get the wallet where the catalogue has a web link for it.
    const web = catalogue.data.find((entry) => !entry.rdns && entry.webapp_link?.startsWith('https://'))
    assert.ok(web, 'the seed has a wallet with a web app')
    await search.fill(web.name)
    await list.getByRole('button', { name: web.name, exact: true }).click()
    await modal(page).getByText(`Don't have ${web.name}?`).waitFor()
    assert.equal(await modal(page).getAttribute('data-view'), 'ConnectingWalletConnect')
    assert.equal(
      await modal(page).getByRole('link', { name: 'Get it' }).getAttribute('href'),
      web.webapp_link,
    )
  })

  it('honours featured-wallet-ids order and exclude-wallet-ids', async () => {
    const featured = [catalogue.data[12], catalogue.data[9], catalogue.data[30]].map((entry) => entry!)
    const excluded = [catalogue.data[0], catalogue.data[9]].map((entry) => entry!)
    const { page, requests } = await openDemo((page) =>
      page.evaluate(
        ({ featured, excluded }) => {
          const element = document.querySelector('wallet-modal')
          element?.setAttribute('featured-wallet-ids', featured.join(','))
          element?.setAttribute('exclude-wallet-ids', excluded.join(','))
        },
        { featured: featured.map((entry) => entry.id), excluded: excluded.map((entry) => entry.id) },
      ),
    )
    await openModal(page)
    await modal(page)
      .getByRole('button', { name: /^All wallets/ })
      .waitFor()
    const popular = await rows(section(page, 'Popular wallets')).allTextContents()
    // #9 is both featured and excluded: excluded wins. Then 4 recommended from the rest.
    assert.deepEqual(popular.slice(0, 2), [featured[0]!.name, featured[2]!.name])
    assert.equal(popular.length, 6)
    for (const entry of excluded) assert.ok(!popular.includes(entry.name), `${entry.name} is excluded`)
    const count = catalogue.count - excluded.length
    assert.equal(
      await modal(page)
        .getByRole('button', { name: /^All wallets/ })
        .textContent(),
      `All wallets${count} wallets${count}`,
    )
    await modal(page)
      .getByRole('button', { name: /^All wallets/ })
      .click()
    await until('the first page', async () => (await walletsList(page)).entries.length === 40)
    const listed = (await walletsList(page)).entries
    for (const entry of excluded) assert.ok(!listed.includes(entry.id))
    const last = service(requests, '/getWallets').at(-1)
    assert.equal(last?.url.searchParams.get('exclude'), excluded.map((entry) => entry.id).join(','))
  })

  it('reads the balance through the RPC proxy after connecting the Demo Wallet', async () => {
    const { page, requests } = await openDemo()
    await openModal(page)
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await page
      .getByRole('dialog', { name: 'Demo Wallet request' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await page.locator('wallet-button').getByText('10,000.000 ETH').waitFor()
    const proxied = service(requests, '/v1/').filter((request) => request.method === 'POST')
    assert.ok(proxied.length > 0, 'the modal read through /v1/')
    assert.ok(proxied.every((request) => request.url.search.includes('chainId=eip155%3A31337')))
    // ETH and the listed tokens in one Multicall3 aggregate3 (selector 0x82ad56cb) through the proxy.
    assert.ok(
      proxied.some((request) => /"eth_call".*"data":"0x82ad56cb/.test(request.postData ?? '')),
      'the balances were read with one aggregate3 call',
    )
  })

  it('analytics: nothing before the first click; MODAL_OPEN and MODAL_CLOSE reach POST /e', async () => {
    // The page talks to the service whose database this test reads.
    const { page, requests } = await openDemo((page) =>
      page.evaluate((url) => document.querySelector('wallet-modal')?.setAttribute('api-url', url), own.url),
    )
    const toOwn = (path: string) =>
      requests.filter((request) => request.url.origin === own.url && request.url.pathname === path)
    await page.waitForTimeout(1_000)
    assert.deepEqual(
      requests.filter((request) => ['/e', '/getAnalyticsConfig'].includes(request.url.pathname)),
      [],
      'nothing before the person acts',
    )

    await openModal(page)
    await modal(page)
      .getByRole('button', { name: /^All wallets/ })
      .waitFor()
    await modal(page).getByRole('button', { name: 'Close' }).click()
    await modal(page).waitFor({ state: 'detached' })
    assert.equal(toOwn('/getAnalyticsConfig').length, 1, 'asked once, after the click')
    assert.deepEqual(toOwn('/e'), [], 'batched: not sent yet')
    // Leaving the page flushes the batch with sendBeacon (which the browser sends as the page goes).
    await page.goto('about:blank')
    const stored = async () =>
      (
        await ownDb.database.db
          .select()
          .from(analyticsEvents)
          .where(eq(analyticsEvents.projectId, 'dev-project'))
      ).sort((a, b) => a.clientTimestamp.getTime() - b.clientTimestamp.getTime())
    await until('POST /e to arrive', async () => (await stored()).length >= 2)
    const events = await stored()
    assert.deepEqual(
      events.map((event) => event.eventName),
      ['MODAL_OPEN', 'MODAL_CLOSE'],
    )
    assert.ok(events.every((event) => event.origin === new URL(stack.urls.demo).origin))
    assert.deepEqual(events[0]?.properties, { view: 'Connect' })
  })

  it('with the service down: opens at once, lists and connects the Demo Wallet, and offers a retry', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`
    const { page } = await openDemo((page) =>
      page.evaluate((url) => document.querySelector('wallet-modal')?.setAttribute('api-url', url), dead),
    )
    const clicked = Date.now()
    await openModal(page)
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .waitFor()
    const opened = Date.now() - clicked
    assert.ok(opened < 1_500, `opened in ${opened} ms`)
    await modal(page).getByText('Could not load the wallet list').waitFor()
    const retry = modal(page).getByRole('button', { name: 'Try again' })
    await retry.waitFor()

    // Try again asks again (the service is still down, so the error comes back).
    const asked = page.waitForRequest((request) => request.url().startsWith(`${dead}/getWallets`), {
      timeout: 10_000,
    })
    await retry.click()
    await asked
    await modal(page).getByRole('button', { name: 'Try again' }).waitFor()

    // The page points the modal at a live service: the catalogue loads on its own.
    await page.evaluate(
      (url) => document.querySelector('wallet-modal')?.setAttribute('api-url', url),
      stack.urls.service,
    )
    await modal(page)
      .getByRole('button', { name: /^All wallets/ })
      .waitFor()
    assert.equal(await modal(page).getByText('Could not load the wallet list').count(), 0)

    // Down again, and the browser wallet still connects.
    await page.evaluate((url) => document.querySelector('wallet-modal')?.setAttribute('api-url', url), dead)
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await page
      .getByRole('dialog', { name: 'Demo Wallet request' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
  })

  it('an origin the project does not allow: the `Invalid App Configuration` alert', async () => {
    const { page } = await openDemo((page) =>
      page.evaluate((url) => {
        const element = document.querySelector('wallet-modal')
        element?.setAttribute('api-url', url)
        element?.setAttribute('project-id', 'locked')
      }, own.url),
    )
    await openModal(page)
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .waitFor()
    const alert = modal(page).locator('[part="alert"]')
    await alert.waitFor()
    assert.equal(await alert.textContent(), 'Invalid App Configuration')
    await modal(page).getByText('Could not load the wallet list').waitFor()
  })
})
