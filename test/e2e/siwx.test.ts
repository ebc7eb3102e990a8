import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import {
  launchBrowser,
  newContext,
  openPhoneWallet,
  startGenericPairing,
  startTestStack,
  type TestStack,
} from './harness.ts'
import { watchShake } from './shake.ts'

/** Sign in with the wallet, end to end: the Demo Wallet signs, the service verifies and issues a session. */
describe('sign in with the wallet (SIWX)', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  // The Demo Wallet's prompt, by its test ids: while our aria-modal dialog is open, role queries treat
  // the rest of the page (where the extension's prompt lives) as hidden.
  const answer = (page: Page, choice: 'approve' | 'reject') =>
    page.locator(`[data-demo-wallet="${choice}"]`).click()
  const events = async (page: Page) => {
    await page.evaluate(() => {
      const log: string[] = []
      ;(window as unknown as { siwxLog: string[] }).siwxLog = log
      for (const name of ['sign-in', 'sign-out', 'error', 'disconnect', 'connect']) {
        document.addEventListener(`wallet-${name}`, (event) =>
          log.push(`${name} ${JSON.stringify((event as CustomEvent).detail)}`),
        )
      }
    })
    return () => page.evaluate(() => (window as unknown as { siwxLog: string[] }).siwxLog)
  }

  async function connectWith(page: Page, mode: 'optional' | 'required') {
    await page.goto(new URL('/', stack.urls.demo).href)
    await page.evaluate((siwx) => document.querySelector('wallet-modal')?.setAttribute('siwx', siwx), mode)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .first()
      .click()
    await answer(page, 'approve')
    await modal(page)
      .getByRole('heading', { name: /^Sign in to 127\.0\.0\.1:/ })
      .waitFor()
  }

  it('optional: decline, then sign; the session is stored, verified by the service, kept on reload, ended by disconnect', async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await connectWith(page, 'optional')
    const log = await events(page)

    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await answer(page, 'reject')
    await modal(page).getByText('Signature declined').waitFor()
    assert.ok((await log()).some((line) => line.startsWith('error') && line.includes('Signature declined')))

    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await answer(page, 'approve')
    await modal(page).waitFor({ state: 'detached' })
    const signedIn = (await log()).find((line) => line.startsWith('sign-in'))
    assert.ok(signedIn)
    assert.match(signedIn, /wants you to sign in with your Ethereum account/)

    const session = await page.evaluate(() => document.querySelector('wallet-modal')?.getSession())
    assert.ok(session?.message.includes('Chain ID: 31337'))
    assert.equal(session?.cacao.h.t, 'eip4361')

    // The stored token is the service's session: /auth/v1/me answers for it.
    // Stored as JSON under the common prefix (the value itself is the JSON of the session record).
    const token = await page.evaluate(
      () =>
        JSON.parse(JSON.parse(localStorage.getItem('@wallet-elements/siwx-auth-token') ?? '""'))
          .token as string,
    )
    const me = await fetch(new URL('/auth/v1/me?projectId=dev-project&st=test&sv=1', stack.urls.service), {
      headers: { authorization: `Bearer ${token}`, origin: new URL(stack.urls.demo).origin },
    })
    assert.equal(me.status, 200)

    await page.reload()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
    await page.waitForTimeout(500)
    assert.equal(await modal(page).count(), 0, 'no sign-in asked again after a reload')

    const after = await events(page)
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    await modal(page).getByRole('button', { name: 'Disconnect' }).click()
    await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
    assert.ok((await after()).some((line) => line.startsWith('sign-out')))
    assert.equal(await page.evaluate(() => localStorage.getItem('@wallet-elements/siwx-auth-token')), null)
    const revoked = await fetch(
      new URL('/auth/v1/me?projectId=dev-project&st=test&sv=1', stack.urls.service),
      {
        headers: { authorization: `Bearer ${token}`, origin: new URL(stack.urls.demo).origin },
      },
    )
    assert.equal(revoked.status, 401)
    await context.close()
  })

  it('required: the view cannot be closed without a session (it shakes); Cancel disconnects', async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await connectWith(page, 'required')
    const shook = await watchShake(page)
    await page.keyboard.press('Escape')
    await shook()
    assert.equal(await modal(page).count(), 1, 'still open')
    await modal(page).getByRole('button', { name: 'Cancel and disconnect' }).click()
    // In required mode the button says Connect Wallet before the session too, so wait for the
    // disconnect itself (the dialog closes when it is done).
    await modal(page).waitFor({ state: 'detached' })
    await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
    assert.equal(
      await page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$status.get()),
      'disconnected',
    )
    await context.close()
  })

  it('required: nothing counts as connected until the session exists', async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(new URL('/', stack.urls.demo).href)
    const log = await events(page)
    await page.evaluate(() => document.querySelector('wallet-modal')?.setAttribute('siwx', 'required'))
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .first()
      .click()
    await answer(page, 'approve')
    await modal(page).getByRole('button', { name: 'Sign in' }).waitFor()
    // The wallet is connected, but the site has not heard of it and the button still offers to connect.
    assert.equal((await log()).filter((line) => line.startsWith('connect')).length, 0)
    assert.equal(
      await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).count(),
      1,
    )
    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await answer(page, 'approve')
    await modal(page).waitFor({ state: 'detached' })
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
    const names = (await log()).map((line) => line.split(' ')[0])
    assert.deepEqual(
      names.filter((name) => name === 'connect' || name === 'sign-in'),
      ['connect', 'sign-in'],
    )
    await context.close()
  })

  it('over Solana: the Demo Wallet signs the CAIP-122 message and the service verifies ed25519', async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(new URL('/', stack.urls.demo).href)
    const log = await events(page)
    await page.evaluate(async () => {
      const modalElement = document.querySelector('wallet-modal')
      modalElement?.setAttribute('siwx', 'optional')
      await modalElement?.switchNetwork('solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9')
    })
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .first()
      .click()
    await answer(page, 'approve')
    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await answer(page, 'reject')
    await modal(page).getByText('Signature declined').waitFor()
    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await answer(page, 'approve')
    await modal(page).waitFor({ state: 'detached' })
    const signedIn = (await log()).find((line) => line.startsWith('sign-in'))
    assert.ok(signedIn?.includes('wants you to sign in with your Solana account'), signedIn)
    const session = await page.evaluate(() => document.querySelector('wallet-modal')?.getSession())
    assert.equal(session?.cacao.h.t, 'caip122')
    assert.equal(session?.cacao.s.t, 'solana:ed25519')
    assert.match(session?.message ?? '', /Chain ID: 45HEQDFcNoxGz8mrpTbTT37jixbR5dy9/)
    const token = await page.evaluate(
      () =>
        JSON.parse(JSON.parse(localStorage.getItem('@wallet-elements/siwx-auth-token') ?? '""'))
          .token as string,
    )
    const me = await fetch(new URL('/auth/v1/me?projectId=dev-project&st=test&sv=1', stack.urls.service), {
      headers: { authorization: `Bearer ${token}`, origin: new URL(stack.urls.demo).origin },
    })
    assert.equal(me.status, 200)
    await context.close()
  })

  it("config.siwx: the site's own verifier checks the signature and keeps the session", async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    // The site's backend, played by this test: it verifies with viem and keeps sessions in memory.
    const sessions = new Map<
      string,
      { message: string; signature: string; data: Record<string, unknown> }[]
    >()
    const calls: string[] = []
    await page.exposeFunction(
      'siteAddSession',
      async (session: {
        message: string
        signature: string
        data: { accountAddress: string; chainId: string }
      }) => {
        calls.push('addSession')
        const valid = await verifyMessage({
          address: session.data.accountAddress as `0x${string}`,
          message: session.message,
          signature: session.signature as `0x${string}`,
        })
        if (!valid) throw new Error('bad signature')
        sessions.set(`${session.data.chainId}:${session.data.accountAddress}`, [session])
      },
    )
    await page.exposeFunction('siteGetSessions', (chainId: string, address: string) => {
      calls.push('getSessions')
      return sessions.get(`${chainId}:${address}`) ?? []
    })
    await page.exposeFunction('siteRevokeSession', (chainId: string, address: string) => {
      calls.push('revokeSession')
      sessions.delete(`${chainId}:${address}`)
    })
    await page.addInitScript(() => {
      const site = window as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
      void customElements.whenDefined('wallet-modal').then(() => {
        const element = document.querySelector('wallet-modal') as unknown as { config: unknown }
        element.config = {
          siwx: {
            required: true,
            statement: 'Sign in to the demo site.',
            getNonce: async () => 'siteNonce12345',
            addSession: (session: unknown) => site.siteAddSession?.(session),
            getSessions: (chainId: unknown, address: unknown) => site.siteGetSessions?.(chainId, address),
            revokeSession: (chainId: unknown, address: unknown) => site.siteRevokeSession?.(chainId, address),
          },
        }
      })
    })
    await page.goto(new URL('/', stack.urls.demo).href)
    const log = await events(page)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .first()
      .click()
    await answer(page, 'approve')
    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await answer(page, 'approve')
    await modal(page).waitFor({ state: 'detached' })
    assert.ok(calls.includes('addSession'))
    const [stored] = [...sessions.values()][0] ?? []
    assert.match(stored?.message ?? '', /Sign in to the demo site\.\n/)
    assert.match(stored?.message ?? '', /Nonce: siteNonce12345/)
    const signedIn = (await log()).find((line) => line.startsWith('sign-in'))
    assert.ok(signedIn?.includes('siteNonce12345'))
    // Nothing went to the service.
    assert.equal(await page.evaluate(() => localStorage.getItem('@wallet-elements/siwx-auth-token')), null)

    // Reload: the site still has the session, so nothing is asked.
    await page.reload()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
    await page.waitForTimeout(500)
    assert.equal(await modal(page).count(), 0)
    const session = await page.evaluate(() => document.querySelector('wallet-modal')?.getSession())
    assert.match(session?.message ?? '', /siteNonce12345/)

    // Disconnect signs out at the site.
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    await modal(page).getByRole('button', { name: 'Disconnect' }).click()
    // Required mode: the button says Connect Wallet as soon as the session is gone; the dialog
    // closes once the disconnect (and the site's revokeSession) is done.
    await modal(page).waitFor({ state: 'detached' })
    await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
    assert.ok(calls.includes('revokeSession'))
    assert.equal(sessions.size, 0)
    await context.close()
  })

  it('optional: Cancel closes and stays connected', async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await connectWith(page, 'optional')
    await modal(page).getByRole('button', { name: 'Cancel' }).click()
    await modal(page).waitFor({ state: 'detached' })
    assert.equal(
      await page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$status.get()),
      'connected',
    )
    await context.close()
  })

  it('over WalletConnect: the demo phone wallet signs the sign-in message', async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    await page.evaluate(() => document.querySelector('wallet-modal')?.setAttribute('siwx', 'optional'))
    const log = await events(page)
    const uri = await startGenericPairing(page)
    const phone = await openPhoneWallet(context, stack.urls.demo, uri)
    await phone
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .click()

    await modal(page)
      .getByRole('heading', { name: /^Sign in to 127\.0\.0\.1:/ })
      .waitFor()
    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await phone
      .getByRole('article', { name: 'personal_sign' })
      .getByRole('button', { name: 'Approve' })
      .click()
    await modal(page).waitFor({ state: 'detached' })
    const signedIn = (await log()).find((line) => line.startsWith('sign-in'))
    assert.ok(signedIn?.includes('wants you to sign in with your Ethereum account'))
    const session = await page.evaluate(() => document.querySelector('wallet-modal')?.getSession())
    assert.equal(session?.cacao.h.t, 'eip4361')
    await context.close()
  })
})
