import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { mnemonicToAccount } from 'viem/accounts'
import { axeClean, launchBrowser, openPhoneWallet, startTestStack, type TestStack } from './harness.ts'

/**
 * WalletConnect on a phone (Chromium emulating one: a phone's user agent, 390 × 844, touch): the
 * visitor has no wallet extension, taps a catalogue wallet and its app opens at once. The row is
 * already a link carrying the pairing made while Connect was open, so the tap itself navigates (in the
 * same tab) to the app's deep link; an app that did not open is said so with its store page; coming
 * back after approving in the app (the page hidden meanwhile, its relay socket dead without a word)
 * shows the connected account. A wallet's in-app browser connects directly.
 */
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const PIXEL =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'
const RAINBOW_APP_STORE = 'https://apps.apple.com/us/app/rainbow-ethereum-wallet/id1457119021'
const TRUST_GOOGLE_PLAY = 'https://play.google.com/store/apps/details?id=com.wallet.crypto.trustapp'

const dev = (index: number) =>
  mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: index })

/**
 * The phone's part that headless Chromium does not play: another app coming to the front hides the page
 * (`visibilitychange`, `pagehide`) and bringing the browser back shows it. Headless Chromium keeps every
 * page visible (and CDP's `Page.setWebLifecycleState` leaves a visible page running), so the test sets
 * what `document.visibilityState` says and fires the events a phone fires.
 */
const PHONE_PROBE = `(() => {
  let state = 'visible'
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => state })
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => state === 'hidden' })
  globalThis.__phone = {
    background() {
      state = 'hidden'
      document.dispatchEvent(new Event('visibilitychange'))
      globalThis.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }))
    },
    foreground() {
      state = 'visible'
      globalThis.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))
      document.dispatchEvent(new Event('visibilitychange'))
    },
  }
})()`

/**
 * The page's navigations as the Navigation API announces them: where to, and whether the person started
 * it (a tap on a link is; a script setting `location` is not). A deep link to an app that is not
 * installed goes nowhere in Chromium, but it is announced first.
 */
const NAVIGATION_PROBE = `(() => {
  globalThis.__navigations = []
  globalThis.navigation?.addEventListener('navigate', (event) => {
    globalThis.__navigations.push({ url: event.destination.url, userInitiated: event.userInitiated })
  })
})()`

describe('WalletConnect on a phone', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const phone = async (userAgent = IPHONE): Promise<BrowserContext> => {
    const context = await browser.newContext({
      userAgent,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    })
    await context.addInitScript({ content: 'globalThis.__name ??= (target) => target' })
    await context.addInitScript({ content: NAVIGATION_PROBE })
    await context.addInitScript({ content: PHONE_PROBE })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(stack.urls.demo).origin,
    })
    return context
  }
  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  const pairingUri = (page: Page) =>
    page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$pairing.get().uri)
  const navigations = (page: Page) =>
    page.evaluate(
      () =>
        (globalThis as unknown as { __navigations: { url: string; userInitiated: boolean }[] }).__navigations,
    )

  /** Opens the modal on the demo page and waits for `wallet`'s row to be a link carrying the pairing. */
  async function walletLink(page: Page, wallet: string, query = '?demoWallet=off') {
    await page.goto(new URL(`/${query}`, stack.urls.demo).href)
    await page.getByRole('button', { name: 'Connect Wallet' }).tap()
    // Connect is a phone's first view, with every way in.
    await modal(page).getByRole('heading', { name: 'Connect Wallet' }).waitFor()
    const row = modal(page).getByRole('link', { name: new RegExp(`^${wallet}`) })
    await row.waitFor()
    return row
  }

  it('the tap on Rainbow opens its app at once: the row is a link carrying the current pairing, followed in the same tab', async () => {
    const context = await phone()
    const page = await context.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    const rainbow = await walletLink(page, 'Rainbow')

    // Before the tap: the link's href carries the pairing URI the modal made while Connect was open.
    const uri = await pairingUri(page)
    assert.match(uri ?? '', /^wc:[0-9a-f]{64}@2\?/)
    const href = `rainbow://wc?uri=${encodeURIComponent(uri ?? '')}`
    assert.equal(await rainbow.getAttribute('href'), href)
    assert.equal(await rainbow.getAttribute('target'), '_self')
    await axeClean(page, 'Connect on a phone, its wallets as links')

    // The tap navigates this tab to the deep link, as the person's own navigation (what iOS Safari
    // requires to open an app).
    // (Before it, the only navigation is the dialog's own history entry for the back gesture: the
    // same URL, pushed by script.)
    const before = await navigations(page)
    assert.deepEqual(before, [{ url: page.url(), userInitiated: false }])
    await rainbow.tap()
    await page.waitForFunction(
      (count) => (globalThis as unknown as { __navigations: unknown[] }).__navigations.length > count,
      before.length,
    )
    assert.deepEqual((await navigations(page)).slice(before.length), [{ url: href, userInitiated: true }])

    // WalletConnect's Verify service knows no project of this relay's: the link did not wait for its frame.
    assert.deepEqual(
      requested.filter((url) => new URL(url).hostname.endsWith('walletconnect.org')),
      [],
    )

    // The modal waits on the same pairing, for Rainbow.
    await modal(page).getByRole('img', { name: 'QR code to connect Rainbow' }).waitFor()
    assert.equal(await pairingUri(page), uri, 'the tap used the pairing made ahead')
    assert.equal(await modal(page).getByRole('link', { name: 'Open Rainbow' }).getAttribute('href'), href)

    // Nothing opened (Rainbow is not installed here): about 2 s later the view says so, with the App
    // Store page for the iPhone and the link to copy.
    await modal(page).getByText("Didn't open? Rainbow may not be installed.").waitFor()
    const store = modal(page).getByRole('link', { name: 'Get Rainbow on the App Store' })
    assert.equal(await store.getAttribute('href'), RAINBOW_APP_STORE)
    assert.equal(await store.getAttribute('target'), '_blank')
    await axeClean(page, "ConnectingWalletConnect on a phone, the app didn't open")
    // (A click: Chromium keeps the deep link's navigation pending, since no app takes it, and a
    // synthesized touch waits behind it.)
    await modal(page).getByRole('button', { name: 'Copy link' }).click()
    await page.waitForFunction(async (expected) => (await navigator.clipboard.readText()) === expected, uri)
    await context.close()
  })

  it('on Android the store offered is Google Play', async () => {
    const context = await phone(PIXEL)
    const page = await context.newPage()
    await walletLink(page, 'Rainbow')
    await modal(page)
      .getByRole('button', { name: /^All wallets/ })
      .tap()
    await modal(page).getByRole('searchbox', { name: 'Search wallets' }).fill('Trust')
    const trust = modal(page).getByRole('link', { name: /^Trust Wallet/ })
    await trust.waitFor()
    const uri = await pairingUri(page)
    assert.equal(await trust.getAttribute('href'), `trust://wc?uri=${encodeURIComponent(uri ?? '')}`)
    await trust.tap()
    await modal(page).getByText("Didn't open? Trust Wallet may not be installed.").waitFor()
    const store = modal(page).getByRole('link', { name: 'Get Trust Wallet on Google Play' })
    assert.equal(await store.getAttribute('href'), TRUST_GOOGLE_PLAY)
    await context.close()
  })

  it('coming back after approving in the app (the page hidden, its socket dead meanwhile) shows the account', async () => {
    const context = await phone()
    const page = await context.newPage()
    // The relay socket, through a stand-in that can go silent: a suspended phone page's socket dies
    // without a close or an error, so nothing the wallet sends reaches it.
    const sockets: { alive: boolean }[] = []
    await page.routeWebSocket(
      (url) => url.href.startsWith(stack.urls.relay),
      (socket) => {
        const relay = socket.connectToServer()
        const link = { alive: true }
        sockets.push(link)
        socket.onMessage((message) => link.alive && relay.send(message))
        relay.onMessage((message) => link.alive && socket.send(message))
        socket.onClose(() => relay.close())
        relay.onClose(() => link.alive && socket.close())
      },
    )
    const rainbow = await walletLink(page, 'Rainbow')
    const uri = (await pairingUri(page)) ?? ''
    await rainbow.tap()
    await modal(page).getByRole('img', { name: 'QR code to connect Rainbow' }).waitFor()

    // Rainbow comes to the front: the page is hidden, its socket dies.
    await page.evaluate(() =>
      (globalThis as unknown as { __phone: { background(): void } }).__phone.background(),
    )
    for (const socket of sockets) socket.alive = false
    // The modal knows the app came up: no "didn't open" for it.
    await modal(page).getByText('Approve the connection in Rainbow, then come back here').waitFor()

    // The person approves in the wallet (the demo phone wallet, on the link's URI).
    const wallet = await openPhoneWallet(context, stack.urls.demo, uri)
    await wallet
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await wallet
      .getByRole('button', { name: /^Disconnect/ })
      .first()
      .waitFor()

    // Back to the page: it shows the connected account.
    await page.bringToFront()
    await page.evaluate(() =>
      (globalThis as unknown as { __phone: { foreground(): void } }).__phone.foreground(),
    )
    const account = page.locator('wallet-button').getByRole('button', { name: /, Account$/ })
    await account.waitFor()
    await page.locator('wallet-button').getByText('10,000.000 ETH').waitFor()
    assert.equal(
      await page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$account.get()?.address),
      dev(0).address,
    )
    assert.ok(sockets.length > 1, 'the page opened a new relay socket when it came back')
    await context.close()
  })

  it("a wallet's in-app browser (EIP-6963, or window.ethereum alone) shows as a browser wallet on Connect and connects directly", async () => {
    for (const [query, name] of [
      ['?demoWallet=eip6963', 'Demo Wallet'],
      ['?demoWallet=legacy&demoSolana=off&demoBitcoin=off', 'Browser Wallet'],
    ] as const) {
      const context = await phone()
      const page = await context.newPage()
      await page.goto(new URL(`/${query}`, stack.urls.demo).href)
      await page.getByRole('button', { name: 'Connect Wallet' }).tap()
      await modal(page).getByRole('heading', { name: 'Connect Wallet' }).waitFor()
      const row = modal(page).getByRole('button', { name: new RegExp(`^${name}.*Installed`) })
      await row.tap()
      await page.locator('[data-demo-wallet="approve"]').click()
      await page
        .locator('wallet-button')
        .getByRole('button', { name: /, Account$/ })
        .waitFor()
      const connector = await page.evaluate(() => {
        const config = document.querySelector('wallet-modal')?.walletConfig
        return config?.$connections.get().eip155?.connectorId
      })
      assert.notEqual(connector, 'walletConnect', name)
      await context.close()
    }
  })
})
