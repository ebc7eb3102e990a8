import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { devAccount } from '../../server/dev/chain/index.ts'
import { sweep } from './axe.ts'
import {
  apiRoute,
  closedAfterSignIn,
  connectedOnBoth,
  connections,
  fundEth,
  keptUsername,
  modal,
  sendWithApproval,
  signWithApproval,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * Social sign-in end to end on the local stack: a click on "Continue with Google" (or GitHub) opens
 * the sign-in window at once, the local `oidc-provider` stand-in's page takes an e-mail, the provider
 * sends the person back to the frame's origin, and the modal is connected on EVM and Solana with the
 * username kept; a message is then signed and ETH sent with approval in the frame. A closed window and a cancel at
 * the provider each show their message, and the buttons stay usable.
 */
describe('embedded wallet (social)', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext
  let page: Page

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const dappUrl = () => new URL('/dapp.html', stack.urls.demo).href

  /** Clicks a provider's button; answers the sign-in window that opened. */
  async function openProvider(name: string): Promise<Page> {
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      modal(page)
        .getByRole('button', { name: `Continue with ${name}` })
        .click(),
    ])
    return popup
  }

  async function signInAt(popup: Page, email: string) {
    await popup.getByRole('textbox', { name: 'E-mail' }).fill(email)
    await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()])
  }

  it('google: connected on EVM and Solana from a click, the username on Account; a message signed and ETH sent with approval', async () => {
    context = await newContext(browser)
    page = await context.newPage()
    await page.goto(dappUrl())
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const popup = await openProvider('Google')
    await popup.getByRole('textbox', { name: 'E-mail' }).waitFor()
    // While the window is open the modal says where to sign in.
    await modal(page)
      .getByRole('status')
      .filter({ hasText: 'Sign in with Google in the window that opened' })
      .waitFor()
    await signInAt(popup, 'grace.google@example.com')
    await closedAfterSignIn(page)
    const address = await connectedOnBoth(page)
    assert.equal(await keptUsername(page), JSON.stringify('grace.google'))
    await page.locator('wallet-button').getByRole('button').click()
    // The e-mail on Account is drawn by the wallet frame: the page never has it.
    await walletFrame(page).getByText('grace.google@example.com').waitFor()
    await modal(page).getByRole('button', { name: 'Close' }).click()
    await signWithApproval(page, address, 'Hello from a social login')
    // Then ETH sent from the page, approved in the frame.
    await fundEth(stack, address, '1')
    await sendWithApproval(page, stack, devAccount(5).address, '0.25')
  })

  it('a closed window and a cancel at the provider each say so; then github signs in', async () => {
    await context.close()
    context = await newContext(browser)
    page = await context.newPage()
    await page.goto(dappUrl())
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    // The Connect view comes in a chunk of its own: axe waits for the social buttons to be there.
    await modal(page).getByRole('button', { name: 'Continue with GitHub' }).waitFor()
    assert.deepEqual(await sweep(page, 'Connect with social buttons'), [])
    // The person closes the window.
    const closed = await openProvider('GitHub')
    await closed.getByRole('textbox', { name: 'E-mail' }).waitFor()
    await closed.close()
    await modal(page)
      .getByRole('alert')
      .filter({ hasText: 'The sign-in window was closed before you signed in' })
      .waitFor()
    assert.deepEqual(await sweep(page, 'Connect, social window closed'), [])
    // The person cancels at the provider (access_denied).
    const cancelled = await openProvider('Google')
    await Promise.all([
      cancelled.waitForEvent('close'),
      cancelled.getByRole('button', { name: 'Cancel' }).click(),
    ])
    await modal(page).getByRole('alert').filter({ hasText: 'You cancelled the sign-in at Google' }).waitFor()
    // Still usable: GitHub signs in.
    const github = await openProvider('GitHub')
    await signInAt(github, 'linus.github@example.com')
    await closedAfterSignIn(page)
    assert.equal((await connections(page)).eip155?.status, 'connected')
  })

  it('apple (form POST back, our ES256 client secret), facebook, x and discord: each connected on EVM and Solana', async () => {
    for (const [name, user] of [
      ['Apple', 'ada.apple@example.com'],
      ['Facebook', 'ada.facebook@example.com'],
      ['X', 'ada.x@example.com'],
      ['Discord', 'ada.discord@example.com'],
    ] as const) {
      await context.close()
      context = await newContext(browser)
      page = await context.newPage()
      await page.goto(dappUrl())
      await page.getByRole('button', { name: 'Connect Wallet' }).click()
      await signInAt(await openProvider(name), user)
      await closedAfterSignIn(page)
      await connectedOnBoth(page, name)
      // Apple's username is the e-mail: it stays in the wallet frame.
      if (name === 'Apple') assert.equal(await keptUsername(page), undefined)
      // X gives no e-mail: Account shows the username.
      if (name === 'X') {
        await page.locator('wallet-button').getByRole('button').click()
        await walletFrame(page).getByText('ada.x', { exact: true }).waitFor()
      }
    }
  })

  it('a redirect-URI or social request unanswered for 30 s: "Embedded Wallet Request Timed Out", the window closed, the buttons usable', async () => {
    const pages: Page[] = []
    for (const route of ['social/start', 'social/finish']) {
      const held = await newContext(browser)
      await held.route(apiRoute(route), () => {})
      const heldPage = await held.newPage()
      await heldPage.goto(dappUrl())
      await heldPage.getByRole('button', { name: 'Connect Wallet' }).click()
      pages.push(heldPage)
    }
    const [start, finish] = pages as [Page, Page]
    const outcomes = await Promise.all([
      (async () => {
        const [popup] = await Promise.all([
          start.context().waitForEvent('page'),
          modal(start).getByRole('button', { name: 'Continue with Google' }).click(),
        ])
        const at = Date.now()
        await modal(start)
          .getByRole('alert')
          .filter({ hasText: 'Embedded Wallet Request Timed Out' })
          .waitFor({ timeout: 40_000 })
        return { waited: Date.now() - at, closed: popup.isClosed() }
      })(),
      (async () => {
        const [popup] = await Promise.all([
          finish.context().waitForEvent('page'),
          modal(finish).getByRole('button', { name: 'Continue with GitHub' }).click(),
        ])
        await popup.getByRole('textbox', { name: 'E-mail' }).fill('slow.github@example.com')
        const at = Date.now()
        await popup.getByRole('button', { name: 'Sign in' }).click()
        await modal(finish)
          .getByRole('alert')
          .filter({ hasText: 'Embedded Wallet Request Timed Out' })
          .waitFor({ timeout: 40_000 })
        return { waited: Date.now() - at, closed: popup.isClosed() }
      })(),
    ])
    for (const outcome of outcomes) {
      assert.ok(outcome.waited >= 29_000, `gave up after ${outcome.waited} ms`)
      assert.ok(outcome.closed, 'the sign-in window was closed')
    }
    // The buttons are usable again (not disabled).
    assert.equal(
      await modal(finish).getByRole('button', { name: 'Continue with GitHub' }).getAttribute('aria-disabled'),
      null,
    )
    for (const each of pages) await each.context().close()
  })

  it('the providers the service has no credentials for are hidden; the rest keep the socials order', async () => {
    const hidden = await newContext(browser)
    await hidden.route(
      (url) => url.pathname === '/appkit/v1/config',
      async (route) => {
        const response = await route.fetch()
        const body = (await response.json()) as { features: Record<string, unknown> }
        await route.fulfill({
          response,
          json: { features: { ...body.features, socials: ['discord', 'github'] } },
        })
      },
    )
    const hiddenPage = await hidden.newPage()
    await hiddenPage.goto(dappUrl())
    await hiddenPage.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(hiddenPage).getByRole('button', { name: 'Continue with GitHub' }).waitFor()
    const names = await modal(hiddenPage)
      .locator('[part="social-logins"]')
      .getByRole('button', { name: /^Continue with / })
      .allTextContents()
    assert.deepEqual(names, ['Continue with GitHub', 'Continue with Discord'])
    await hidden.close()
  })
})
