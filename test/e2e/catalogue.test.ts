/**
 * The modal's catalogue half against the running stack: Connect (browser wallets once, popular
 * wallets with their logos, the count) and AllWallets (paging, lazy images, debounced search, empty
 * state, a wallet to get). The page's wallet options, the RPC proxy, analytics, a service that is
 * down and an origin the project does not allow are in catalogue-options.test.ts.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { CatalogueEntry } from '../../src/protocol/api/index.ts'
import {
  catalogue,
  DEMO_RDNS,
  imageIds,
  modal,
  openDemo,
  openModal,
  rows,
  searched,
  section,
  service,
  stack,
  until,
  useCatalogueStack,
  walletsList,
} from './catalogue-helpers.ts'

describe('the wallet catalogue in the modal: Connect and AllWallets', { timeout: 120_000 }, () => {
  useCatalogueStack()

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
    // The resource timing buffer keeps 250 entries, which the page's chunks and logos may have filled
    // already: emptied here, so the search request's entry is kept.
    await page.evaluate(() => {
      performance.clearResourceTimings()
      document.addEventListener(
        'input',
        () => {
          ;(window as unknown as { lastInput: number }).lastInput = performance.now()
        },
        true,
      )
    })
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

    // A catalogue wallet that is not installed opens its pairing view, which offers to
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
})
