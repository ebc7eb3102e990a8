/**
 * The modal's catalogue half against the running stack (see catalogue.test.ts): the page's wallet
 * options, the RPC proxy, analytics, a service that is down, and an origin the project does not allow.
 */
import assert from 'node:assert/strict'
import { type AddressInfo, createServer, type Socket } from 'node:net'
import { describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import { analyticsEvents } from '../../server/db/schema.ts'
import { freePort } from '../unit/server/helpers.ts'
import {
  catalogue,
  modal,
  openDemo,
  openModal,
  own,
  ownDb,
  rows,
  section,
  service,
  stack,
  until,
  useCatalogueStack,
  walletsList,
} from './catalogue-helpers.ts'

describe('the wallet catalogue in the modal: options, RPC proxy, analytics and failures', {
  timeout: 120_000,
}, () => {
  useCatalogueStack()

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
    // A service that takes the connection and never answers: the modal must not wait for it. The
    // browser wallet is listed while the catalogue request is still open (no clock in the assertion).
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => {
      sockets.add(socket)
      socket.on('error', () => {})
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const dead = `http://127.0.0.1:${await freePort()}`
    try {
      const { page } = await openDemo((page) =>
        page.evaluate(
          (url) => document.querySelector('wallet-modal')?.setAttribute('api-url', url),
          silentUrl,
        ),
      )
      await openModal(page)
      await modal(page)
        .getByRole('button', { name: /Demo Wallet/ })
        .waitFor()
      await until('the modal to ask the silent service', () => sockets.size > 0)
      assert.equal(await modal(page).getByText('Could not load the wallet list').count(), 0, 'still asking')

      // The service is down for good (connections refused): the list says so, with a retry.
      await page.evaluate((url) => document.querySelector('wallet-modal')?.setAttribute('api-url', url), dead)
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
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    }
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
