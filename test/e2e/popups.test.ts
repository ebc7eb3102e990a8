import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import {
  closedAfterSignIn,
  connections,
  modal,
  pressInFrame,
  signInByEmail,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

declare global {
  interface Window {
    /** Every `window.open` of this document under the rule: what it asked for and whether it opened. */
    __opens?: { url: string; opened: boolean }[]
    /** Set by a test: the next `window.open` is refused whatever the tap (a blocker's own refusal). */
    __refuseNextOpen?: boolean
  }
}

/**
 * Mobile Safari's popup rule, in Chromium: `window.open` opens only in the task of a tap the person
 * made (a trusted pointer, mouse, touch or key event, with the transient user activation it gives,
 * `navigator.userActivation.isActive`); once the handler has awaited anything that comes back in a
 * later task (a network answer, a timer) it answers `null`. Chromium alone keeps the activation 5 s across
 * awaits, so without this a product path that awaits before opening would pass here and fail on an
 * iPhone. Runs in every document of the context, the cross-origin wallet frame included.
 */
const SAFARI_POPUP_RULE = `(() => {
  const open = window.open
  let inTap = false
  const start = (event) => {
    if (!event.isTrusted) return
    inTap = true
    // Over with the tap's task: the first timer queued after it (a submit the click causes, inside a
    // shadow root the window does not see, runs in the same task).
    setTimeout(() => { inTap = false }, 0)
  }
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'touchend', 'keydown', 'keyup'])
    window.addEventListener(type, start, true)
  window.__opens = []
  window.open = function (...args) {
    const refused = window.__refuseNextOpen === true
    window.__refuseNextOpen = false
    const opened = !refused && inTap && navigator.userActivation.isActive
    window.__opens.push({ url: String(args[0] ?? ''), opened })
    return opened ? open.apply(this, args) : null
  }
})()`

/** The provider stand-in's sign-in page: the e-mail, Sign in, and the window closes. */
async function signInAt(popup: Page, email: string) {
  await popup.getByRole('textbox', { name: 'E-mail' }).fill(email)
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()])
}

/**
 * Every window the product opens, under mobile Safari's popup rule: the social sign-in window, the
 * on-ramp's checkout tab and the wallet frame's approval window (engines without IntersectionObserver
 * v2) each open from the tap that asks for them; where the browser refuses anyway, the view says so
 * and a new tap (Try again, a link, the frame's button again) opens it.
 */
describe('popups under mobile Safari’s rule', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const contexts: BrowserContext[] = []

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  /** A browser context under the rule (and, with `noVisibilityTracking`, an engine without IOv2). */
  async function ruled(options: { noVisibilityTracking?: boolean } = {}): Promise<BrowserContext> {
    const context = await newContext(browser)
    await context.addInitScript({ content: SAFARI_POPUP_RULE })
    if (options.noVisibilityTracking)
      // Firefox and Safari: no `isVisible`, so the frame approves in a window of its own origin.
      await context.addInitScript({
        content: 'delete globalThis.IntersectionObserverEntry?.prototype.isVisible',
      })
    contexts.push(context)
    return context
  }

  const opens = (page: Page) => page.evaluate(() => window.__opens ?? [])

  it('the rule itself: a window opened in the tap opens, one opened after an await is refused', async () => {
    const context = await ruled()
    const page = await context.newPage()
    await page.goto(stack.urls.demo)
    await page.evaluate(() => {
      const add = (id: string, handler: () => void) => {
        const button = document.createElement('button')
        button.id = id
        button.textContent = id
        button.addEventListener('click', handler)
        document.body.append(button)
      }
      add('now', () => window.open('about:blank', '_blank')?.close())
      add('later', async () => {
        await fetch(location.href)
        // Timers keep their order: this one runs after the rule's end of the tap, whatever the network.
        await new Promise((resolve) => setTimeout(resolve, 0))
        window.open('about:blank', '_blank')?.close()
      })
    })
    await page.locator('#now').click()
    await page.locator('#later').click()
    await page.waitForFunction(() => (window.__opens ?? []).length === 2)
    assert.deepEqual(await opens(page), [
      { url: 'about:blank', opened: true },
      { url: 'about:blank', opened: false },
    ])
  })

  it('social sign-in: the window opens from the tap; refused, the view says so and Try again opens it', async () => {
    const context = await ruled()
    const page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const github = modal(page).getByRole('button', { name: 'Continue with GitHub' })
    // The tap opens the window (blank, before the frame is even asked for the provider's URL).
    const [opened] = await Promise.all([context.waitForEvent('page'), github.click()])
    await opened.getByRole('textbox', { name: 'E-mail' }).waitFor()
    await opened.close()
    await modal(page)
      .getByRole('alert')
      .filter({ hasText: 'The sign-in window was closed before you signed in' })
      .waitFor()

    // The browser refuses the next window whatever the tap.
    await page.evaluate(() => {
      window.__refuseNextOpen = true
    })
    await modal(page).getByRole('button', { name: 'Continue with Google' }).click()
    await modal(page)
      .getByRole('alert')
      .filter({
        hasText: 'Your browser blocked the sign-in window. Try again, or allow pop-ups for this site.',
      })
      .waitFor()
    const retry = modal(page).getByRole('button', { name: 'Try again with Google' })
    const [popup] = await Promise.all([context.waitForEvent('page'), retry.click()])
    // The retry is gone with the error; the window is at the provider's page.
    await modal(page).getByRole('status').filter({ hasText: 'Sign in with Google in the window' }).waitFor()
    assert.equal(await retry.count(), 0)
    await signInAt(popup, 'tapped.google@example.com')
    await closedAfterSignIn(page)
    assert.equal((await connections(page)).eip155?.status, 'connected')
    assert.deepEqual(
      (await opens(page)).map((each) => [each.url, each.opened]),
      [
        ['about:blank', true],
        ['about:blank', false],
        ['about:blank', true],
      ],
    )
  })

  /** Connects the Demo Wallet on the demo page and opens Buy crypto with a 50 USD quote. */
  async function onramp(context: BrowserContext): Promise<Page> {
    const page = await context.newPage()
    await page.goto(stack.urls.demo)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await page.waitForFunction(() => window.demoWallet?.approve() === true, undefined, { polling: 50 })
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    await modal(page).getByRole('button', { name: 'Buy crypto' }).click()
    await modal(page).getByLabel('Amount in USD').fill('50')
    await modal(page).getByText('You get about 49.250 USDC (fee $0.75)').waitFor()
    return page
  }

  it('on-ramp: the checkout tab opens from the tap; refused, the view offers the checkout as a link that opens it', async () => {
    const first = await ruled()
    const page = await onramp(first)
    const [checkout] = await Promise.all([
      first.waitForEvent('page'),
      modal(page).getByRole('button', { name: 'Continue to payment' }).click(),
    ])
    await checkout.waitForURL(/\/checkout\//)
    assert.ok(checkout.url().startsWith(stack.urls.onramp), checkout.url())
    await modal(page)
      .getByRole('heading', { name: /^The payment page is open in a new tab\./ })
      .waitFor()

    const second = await ruled()
    const refused = await onramp(second)
    await refused.evaluate(() => {
      window.__refuseNextOpen = true
    })
    await modal(refused).getByRole('button', { name: 'Continue to payment' }).click()
    await modal(refused)
      .getByRole('heading', { name: /^Your browser blocked the payment page\./ })
      .waitFor()
    // Exactly one window was asked for, in the tap: none after the service's answer.
    assert.deepEqual(await opens(refused), [{ url: 'about:blank', opened: false }])
    const link = modal(refused).getByRole('link', { name: 'Open the payment page' })
    const [tab] = await Promise.all([second.waitForEvent('page'), link.click()])
    await tab.waitForURL(/\/checkout\//)
    assert.ok(tab.url().startsWith(stack.urls.onramp), tab.url())
    assert.equal(await tab.evaluate(() => window.opener), null)
    // Opened: the purchase's status and Done remain, the link is gone.
    await modal(refused)
      .getByRole('heading', { name: /^The payment page is open in a new tab\./ })
      .waitFor()
    assert.equal(await link.count(), 0)
  })

  it('attack: a checkout URL that is a script is never followed in the blank tab of the site’s origin', async () => {
    const context = await ruled()
    // A service (or whoever answers for it) sends a `javascript:` URL: in the blank tab, which has the
    // site's origin, it would read and write the site's storage.
    await context.route(
      (url) => url.pathname === '/onramp/v1/url',
      async (route) => {
        const response = await route.fetch()
        const body = (await response.json()) as { purchaseId: string }
        await route.fulfill({
          response,
          json: { url: "javascript:localStorage.setItem('pwned','1')", purchaseId: body.purchaseId },
        })
      },
    )
    const page = await onramp(context)
    await modal(page).getByRole('button', { name: 'Continue to payment' }).click()
    await modal(page).getByRole('alert').filter({ hasText: 'That did not work' }).waitFor()
    // The blank tab was closed without going anywhere; no purchase is shown as started.
    for (let poll = 0; poll < 100 && context.pages().some((other) => other !== page); poll++)
      await page.waitForTimeout(50)
    assert.deepEqual(context.pages(), [page])
    assert.equal(await page.evaluate(() => localStorage.getItem('pwned')), null)
    assert.equal(await modal(page).getByRole('button', { name: 'Continue to payment' }).count(), 1)
  })

  it('the wallet frame’s approval window (no IntersectionObserver v2): opens from the tap in the frame; refused, the frame says so and a second tap opens it', async () => {
    const context = await ruled({ noVisibilityTracking: true })
    const page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await signInByEmail(page, stack, `window.${Date.now()}@example.com`)
    const address = (await connections(page)).eip155?.address ?? ''
    const message = 'Approved in a window opened by a tap'
    const signature = page.evaluate((text) => window.dapp.signMessage(text), message)
    const frame = walletFrame(page)
    await frame.getByText(message).waitFor()
    const status = frame.locator('[data-window-status]')
    const frameDocument = () =>
      page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
    await frameDocument()?.evaluate(() => {
      window.__refuseNextOpen = true
    })
    await pressInFrame(
      page,
      'Review in a new window',
      async () =>
        (await status.textContent()) ===
        'Your browser blocked the window. Allow pop-ups for this site, then try again.',
    )
    const [review] = await Promise.all([
      context.waitForEvent('page'),
      pressInFrame(
        page,
        'Review in a new window',
        async () =>
          (await status.textContent()) ===
          'Continue in the window that opened. Closing it rejects the request.',
      ),
    ])
    assert.ok(review.url().startsWith(new URL('/approve', stack.urls.frame).href), review.url())
    await review.bringToFront()
    await review.getByText(message).waitFor()
    const approve = review.locator('button[data-action="approve"]:not([aria-disabled])')
    await approve.click()
    assert.ok(await verifyMessage({ address: address as Hex, message, signature: (await signature) as Hex }))
    assert.deepEqual(
      (await frameDocument()?.evaluate(() => window.__opens ?? []))?.map((each) => each.opened),
      [false, true],
    )
  })
})
