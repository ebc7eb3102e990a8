import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext } from 'playwright-core'
import { sweep } from './axe.ts'
import { closedAfterSignIn, codeOf, connections, modal, nextMail } from './embedded-helpers.ts'
import { launchBrowser, startTestStack, type TestStack } from './harness.ts'

/** Instagram's in-app browser on an iPhone (WKWebView), as it sends its user agent. */
const INSTAGRAM_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.3.18.107 (iPhone14,5; iOS 17_1_2; en_US; en; scale=3.00; 1170x2532; 532277229)'
/** Instagram's in-app browser on Android (a WebView). */
const INSTAGRAM_ANDROID =
  'Mozilla/5.0 (Linux; Android 13; SM-S908B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 Instagram 309.0.0.40.113 Android (33/13; 480dpi; 1080x2186; samsung; SM-S908B; b0q; qcom; en_US; 537288532)'

const NOTICE =
  'Signing in with Google or another account does not work inside Instagram. Use your e-mail above, or open this page in your browser.'

/**
 * A page opened from a link in Instagram: its in-app browser cannot finish a social sign-in (Google
 * refuses OAuth in embedded web views, and the sign-in window has no opener to report to). Connect
 * shows no social button there, says why, offers the e-mail sign-in (which works) and the way into the
 * phone's own browser: the link to copy on iOS, an Android intent on Android.
 */
describe('in-app browsers (Instagram)', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  /** A phone-sized context with the app's user agent. */
  async function phone(userAgent: string): Promise<BrowserContext> {
    const context = await browser.newContext({
      userAgent,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
    })
    await context.addInitScript({ content: 'globalThis.__name ??= (target) => target' })
    return context
  }

  it("iOS: the notice instead of the social buttons, the page's link to copy, and the e-mail sign-in works", async () => {
    const context = await phone(INSTAGRAM_IOS)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(stack.urls.demo).origin,
    })
    const page = await context.newPage()
    const pageUrl = new URL('/dapp.html?from=instagram', stack.urls.demo).href
    await page.goto(pageUrl)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const notice = modal(page).locator('[part="in-app-notice"]')
    await notice.getByText(NOTICE).waitFor()
    // No social button that cannot work here; Farcaster (its own app, by a link) stays.
    assert.equal(
      await modal(page)
        .getByRole('button', { name: /^Continue with (Google|GitHub|Apple|X)/ })
        .count(),
      0,
    )
    await modal(page).getByRole('button', { name: 'Continue with Farcaster' }).waitFor()
    // iOS web views have no way out a page can take: the link, to copy (or to select by hand).
    assert.equal(await notice.getByLabel('Link to this page').inputValue(), pageUrl)
    await notice.getByRole('button', { name: 'Copy link' }).click()
    await notice.getByRole('status').filter({ hasText: 'Link copied' }).waitFor()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), pageUrl)
    assert.deepEqual(await sweep(page, 'Connect in an in-app browser'), [])

    // The e-mail way works here.
    const email = `insta.${Date.now()}@example.com`
    await modal(page).getByLabel('Email').fill(email)
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    await closedAfterSignIn(page)
    assert.equal((await connections(page)).eip155?.status, 'connected')
    await context.close()
  })

  it('Android: "Open in your browser" is an intent for the default browser, falling back to the page', async () => {
    const context = await phone(INSTAGRAM_ANDROID)
    const page = await context.newPage()
    const pageUrl = new URL('/dapp.html', stack.urls.demo).href
    await page.goto(pageUrl)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const open = modal(page).getByRole('link', { name: 'Open in your browser' })
    const href = (await open.getAttribute('href')) ?? ''
    const target = new URL(pageUrl)
    assert.equal(
      href,
      `intent://${target.host}${target.pathname}#Intent;scheme=http;action=android.intent.action.VIEW;S.browser_fallback_url=${encodeURIComponent(pageUrl)};end`,
    )
    assert.equal(await modal(page).getByRole('button', { name: 'Continue with Google' }).count(), 0)
    await context.close()
  })
})
