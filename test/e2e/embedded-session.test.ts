import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import type { Browser, BrowserContext, Page, Route } from 'playwright-core'
import { verifyMessage } from 'viem'
import { walletSessions, walletUsers } from '../../server/db/schema.ts'
import { axeFindings } from './axe.ts'
import {
  answerInFrame,
  apiRoute,
  closedAfterSignIn,
  codeOf,
  connections,
  inbox,
  modal,
  nextMail,
  putOffRecovery,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * The embedded wallet's session as a site meets it (SPEC 2, 4, 5): the e-mail field above the
 * wallets, the code read on the dev inbox page, `CONNECT` for a browser whose frame is still signed
 * in, a connection check that says "not connected" clearing the cached login, sign-in with the
 * wallet (SIWX) approved in the frame and verified by the service, and a disconnect that clears the
 * cached login first and waits at most 3 s for the sign-out.
 */
describe('embedded wallet: sessions', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const email = `grace.${Date.now()}@example.com`
  let context: BrowserContext
  let page: Page

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const stored = (on: Page) =>
    on.evaluate(() => ({
      email: localStorage.getItem('@wallet-elements/email'),
      used: localStorage.getItem('@wallet-elements/login-email-used'),
    }))

  it('default: the e-mail field sits above the wallets; the code is read on the dev inbox page', async () => {
    context = await newContext(browser)
    page = await context.newPage()
    // The demo page, with the Demo Wallet installed in the browser.
    await page.goto(new URL('/', stack.urls.demo).href)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const field = modal(page).getByLabel('Email')
    const wallet = modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .first()
    await wallet.waitFor()
    const fieldFirst = await field.evaluate(
      (input, other) => Boolean(input.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING),
      await wallet.elementHandle(),
    )
    assert.ok(fieldFirst, 'the e-mail field comes before the browser wallet')
    await field.fill(email)
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
    await modal(page).getByLabel('Code').waitFor()

    // A person reads the code on the dev inbox page (its link is on the demo page).
    await nextMail(stack, email, 0)
    const inboxPage = await context.newPage()
    await inboxPage.goto(stack.urls.inbox)
    const mail = inboxPage.locator('article').filter({ hasText: email }).first()
    await mail.getByText(/^\d{6} is your sign-in code$/).waitFor()
    assert.deepEqual(await axeFindings(inboxPage, 'body'), [])
    const code = codeOf({ text: (await mail.locator('pre').textContent()) ?? '' })
    await inboxPage.close()
    await modal(page).getByLabel('Code').fill(code)
    await closedAfterSignIn(page)
    assert.equal((await connections(page)).eip155?.status, 'connected')
    assert.deepEqual(await stored(page), { email: JSON.stringify(email), used: 'true' })
  })

  it('behavior: a page that forgot its connection while the frame is still signed in gets CONNECT: no code, no mail', async () => {
    const address = (await connections(page)).eip155?.address
    const mails = (await inbox(stack, email)).length
    // The site's own storage is gone (the frame's, on its own origin, is not).
    await page.evaluate(() => localStorage.clear())
    await page.reload()
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page).getByLabel('Email').fill(email)
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
    await closedAfterSignIn(page)
    const state = await connections(page)
    assert.equal(state.eip155?.status, 'connected')
    assert.equal(state.eip155?.address, address)
    assert.equal((await inbox(stack, email)).length, mails, 'no mail for a browser that is signed in')
    assert.deepEqual(await stored(page), { email: JSON.stringify(email), used: 'true' })
  })

  it('behavior: a connection check that says "not connected" clears the cached login', async () => {
    // The session ends on the service (it expired); the page still remembers the login.
    const database = stack.serviceDatabase
    assert.ok(database)
    const [user] = await database.db.select().from(walletUsers).where(eq(walletUsers.email, email))
    assert.ok(user)
    await database.db
      .update(walletSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(walletSessions.userId, user.id))
    await page.reload()
    await page.getByRole('button', { name: 'Connect Wallet' }).waitFor()
    await page.waitForFunction(() => localStorage.getItem('@wallet-elements/login-email-used') === null)
    assert.deepEqual(await stored(page), { email: null, used: null })
    assert.notEqual((await connections(page)).eip155?.status, 'connected')
    await context.close()
  })

  it('behavior: sign-in with the wallet (SIWX, required) over the embedded wallet: approved in the frame, verified by the service', async () => {
    context = await newContext(browser)
    page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await page.evaluate(() => {
      document.querySelector('wallet-modal')?.setAttribute('siwx', 'required')
      const log: string[] = []
      ;(window as unknown as { signIns: string[] }).signIns = log
      document.addEventListener('wallet-sign-in', (event) =>
        log.push((event as CustomEvent<{ message: string; signature: string }>).detail.message),
      )
    })
    const other = `hopper.${Date.now()}@example.com`
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page).getByLabel('Email').fill(other)
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, other, 0)))
    await putOffRecovery(page)

    // Required sign-in: the message view, then the frame shows the message for approval.
    await modal(page)
      .getByRole('heading', { name: /^Sign in to 127\.0\.0\.1:/ })
      .waitFor()
    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await walletFrame(page)
      .getByText(/wants you to sign in with your Ethereum account/)
      .waitFor()
    await answerInFrame(page, 'Approve')
    await modal(page).waitFor({ state: 'detached' })
    const session = await page.evaluate(() => document.querySelector('wallet-modal')?.getSession())
    assert.ok(session, 'the service verified the signature and issued a session')
    const address = (await connections(page)).eip155?.address as `0x${string}`
    assert.ok(session.message.includes(address))
    assert.ok(
      await verifyMessage({
        address,
        message: session.message,
        signature: session.signature as `0x${string}`,
      }),
    )
    assert.deepEqual(await page.evaluate(() => (window as unknown as { signIns: string[] }).signIns), [
      session.message,
    ])
  })

  it('behavior: disconnect clears the cached login first, then waits at most 3 s for a sign-out that hangs', async () => {
    const held: Route[] = []
    let cacheWhenSigningOut: { email: string | null; used: string | null } | undefined
    await context.route(apiRoute('sign-out'), async (route) => {
      held.push(route)
      cacheWhenSigningOut = await stored(page).catch(() => undefined)
    })
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Disconnect' }).click()
    const start = Date.now()
    await page.waitForFunction(
      () =>
        document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155?.status ===
        'disconnected',
    )
    const took = Date.now() - start
    assert.equal(held.length, 1, 'the sign-out reached the service')
    assert.deepEqual(cacheWhenSigningOut, { email: null, used: null })
    // The sign-out never answers: the disconnect goes on after 3 s.
    assert.ok(took >= 2_900 && took < 5_000, `disconnect took ${took} ms`)
    for (const route of held) await route.continue()
    await context.close()
  })
})
