import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * Two tabs of one site in one browser (one context: one storage), each with the Demo Wallet, which
 * like an extension knows the site in every tab: what the person does in one tab shows in the other
 * (src/core/connection/sync.ts) without a prompt there, and a tab the browser froze catches up when it
 * is back.
 */
describe('two tabs of one site', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext
  let first: Page
  let second: Page

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    context = await newContext(browser)
    first = await context.newPage()
    second = await context.newPage()
    for (const page of [first, second]) {
      await page.goto(stack.urls.demo)
      await connectButton(page).waitFor()
    }
  })
  after(async () => {
    await context?.close()
    await browser?.close()
    await stack?.stop()
  })

  const connectButton = (page: Page) =>
    page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' })
  const accountButton = (page: Page) =>
    page.locator('wallet-button').getByRole('button', { name: /, Account$/ })
  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  const walletPrompt = (page: Page) => page.getByRole('dialog', { name: 'Demo Wallet request' })
  /** The demo page's log of the modal's events shows `pattern` (polled, `timeout` ms at most). */
  const logged = (page: Page, pattern: RegExp, timeout = 5_000) =>
    page.getByRole('log', { name: 'Events' }).filter({ hasText: pattern }).waitFor({ timeout })
  const network = (page: Page) =>
    page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId)

  /** The person connects the Demo Wallet in `page`, approving in its prompt. */
  async function connectIn(page: Page) {
    await connectButton(page).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await accountButton(page).waitFor()
  }

  it('default: a connect in one tab shows in the other, with no prompt there', async () => {
    await connectIn(first)
    // The other tab restores it as after a reload (its first time also loads the sync's code).
    await accountButton(second).waitFor({ timeout: 5_000 })
    await logged(second, /wallet-connect .*"chainId":"eip155:31337"/)
    assert.equal(await walletPrompt(second).count(), 0, 'no prompt in the other tab')
  })

  it('behavior: a network switch in one tab moves the other, its wallet asked without a prompt', async () => {
    await accountButton(first).click()
    await modal(first)
      .getByRole('button', { name: /Local Chain\s+Network/ })
      .click()
    await modal(first)
      .getByRole('button', { name: /Local Chain 2/ })
      .click()
    // The wallet adds the network it does not know yet, in the tab that asked.
    await walletPrompt(first).getByRole('button', { name: 'Approve' }).click()
    await first.waitForFunction(
      () =>
        document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId === 'eip155:31338',
    )
    await logged(second, /wallet-network-change .*"chainId":"eip155:31338"/)
    assert.equal(await network(second), 'eip155:31338')
    assert.equal(await walletPrompt(second).count(), 0, 'no prompt in the other tab')
    await first.keyboard.press('Escape')
    await modal(first).waitFor({ state: 'detached' })
  })

  it('behavior: a disconnect in one tab: the other tab’s button shows Connect Wallet within a second', async () => {
    await accountButton(first).click()
    await modal(first).getByRole('button', { name: 'Disconnect' }).click()
    await connectButton(first).waitFor()
    // Polled, at most a second after the first tab shows it.
    await connectButton(second).waitFor({ timeout: 1_000 })
    await logged(second, /wallet-disconnect/, 1_000)
    // A reload of the other tab does not bring the connection back (the disconnect is remembered).
    await second.reload()
    await connectButton(second).waitFor()
    assert.equal(
      await second.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$status.get()),
      'disconnected',
    )
  })

  it('behavior: a tab the browser froze (a phone’s background tab) shows the disconnect made meanwhile once it is back', async () => {
    await connectIn(first)
    await accountButton(second).waitFor({ timeout: 5_000 })
    const frozen = await context.newCDPSession(second)
    await frozen.send('Page.setWebLifecycleState', { state: 'frozen' })
    await accountButton(first).click()
    await modal(first).getByRole('button', { name: 'Disconnect' }).click()
    await connectButton(first).waitFor()
    await frozen.send('Page.setWebLifecycleState', { state: 'active' })
    await connectButton(second).waitFor({ timeout: 5_000 })
    await frozen.detach()
  })

  it('behavior: back from the back-forward cache (pageshow, persisted), a tab asks its wallet again and leaves no stale modal', async () => {
    await connectIn(first)
    await accountButton(second).waitFor({ timeout: 5_000 })
    await accountButton(second).click()
    await modal(second).getByRole('button', { name: 'Disconnect' }).waitFor()
    // While the page was away the wallet forgot the site, and told no tab (its list of sites, as an
    // extension keeps it, written without an event this tab hears).
    await second.evaluate(() => localStorage.setItem('demo-wallet/authorized', '[]'))
    await second.evaluate(() =>
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })),
    )
    await connectButton(second).waitFor({ timeout: 5_000 })
    await modal(second).waitFor({ state: 'detached' })
    await logged(second, /wallet-disconnect/)
    assert.equal(await walletPrompt(second).count(), 0, 'asked without a prompt')
    // Its finding is the others' too.
    await connectButton(first).waitFor({ timeout: 5_000 })
  })
})
