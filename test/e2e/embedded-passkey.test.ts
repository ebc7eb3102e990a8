// Passkeys in the wallet frame: Account's Add, list and Remove; Connect's sign-in, create and cancel.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, CDPSession, Frame, FrameLocator, Page } from 'playwright-core'
import { axeFindings } from './axe.ts'
import {
  addPasskeyAuthenticator,
  connectedOnBoth,
  modal,
  pressInFrame,
  signInByEmail,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

describe('embedded wallet: passkeys', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let cdp: CDPSession
  let authenticatorId: string
  let emailAddress = ''
  const email = `passkey.${Date.now()}@example.com`

  /** The frame's own document (for axe and its width). */
  const frameDocument = (): Frame => {
    const found = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
    if (!found) throw new Error('no wallet frame')
    return found
  }
  const fits = () =>
    frameDocument().evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    )

  /** A person's click on a button of the frame ({@link pressInFrame}). */
  const press = (_frame: FrameLocator, name: string | RegExp, done: () => Promise<boolean>) =>
    pressInFrame(page, name, done)

  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.map((credential) => [
      credential.rpId,
      credential.isResidentCredential,
    ])

  /** Account, from the page (or already open: back from the frame's list). */
  const openAccount = async () => {
    if ((await modal(page).count()) === 0) await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Passkeys' }).waitFor()
  }
  const signOut = async () => {
    await openAccount()
    await modal(page).getByRole('button', { name: 'Disconnect' }).click()
    await page.getByRole('button', { name: 'Connect Wallet' }).waitFor()
  }
  /** Connect → "Continue with a passkey": the frame's passkey view, laid over the modal. */
  const openPasskeySignIn = async () => {
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page).getByRole('button', { name: 'Continue with a passkey' }).click()
    await walletFrame(page).getByRole('heading', { name: 'Sign in with a passkey' }).waitFor()
  }
  const alertIn = (frame: FrameLocator, text: string) => frame.getByRole('alert').filter({ hasText: text })
  const statusIn = (frame: FrameLocator, text: string) => frame.getByRole('status').filter({ hasText: text })

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    context = await newContext(browser)
    page = await context.newPage()
    ;({ cdp, authenticatorId } = await addPasskeyAuthenticator(context, page, true))
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await signInByEmail(page, stack, email)
    emailAddress = await connectedOnBoth(page)
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('Account → Passkeys → Add a passkey: created in the frame for its host and listed', async () => {
    await page.setViewportSize({ width: 375, height: 667 })
    await openAccount()
    await modal(page).getByRole('button', { name: 'Passkeys' }).click()
    const frame = walletFrame(page)
    await frame.getByRole('heading', { name: 'Your passkeys' }).waitFor()
    await frame.getByText('No passkey yet.').waitFor()
    assert.deepEqual(await axeFindings(frameDocument(), 'body'), [], 'the empty list')
    assert.ok(await fits(), 'the list fits 375 px')
    await press(frame, 'Add a passkey', () => statusIn(frame, 'Passkey added').isVisible())
    assert.equal(await frame.locator('[data-passkey]').count(), 1)
    await frame.getByText('Not used yet').waitFor()
    assert.deepEqual(await credentials(), [['localhost', true]], 'a discoverable passkey of the frame’s host')
    assert.deepEqual(await axeFindings(frameDocument(), 'body'), [], 'the list with a passkey')
    assert.ok(await fits(), 'the list with a passkey fits 375 px')
    await press(frame, 'Close', async () => (await frame.locator('#app *').count()) === 0)
    // Back on Account, the page heard only how many there are.
    await modal(page).getByRole('button', { name: 'Passkeys' }).waitFor()
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it('sign out, then Connect → Continue with a passkey: the same wallet (same EVM address)', async () => {
    await signOut()
    await openPasskeySignIn()
    const frame = walletFrame(page)
    assert.deepEqual(await axeFindings(frameDocument(), 'body'), [], 'the passkey sign-in view')
    await press(frame, 'Continue with a passkey', async () => (await modal(page).count()) === 0)
    assert.equal(await connectedOnBoth(page), emailAddress)
  })

  it('Account → Passkeys → Remove: the passkey is gone from the list', async () => {
    await openAccount()
    await modal(page).getByRole('button', { name: 'Passkeys' }).click()
    const frame = walletFrame(page)
    await frame.getByText(/^Last used /).waitFor()
    await press(frame, /^Remove: Passkey added /, () => statusIn(frame, 'Passkey removed').isVisible())
    await frame.getByText('No passkey yet.').waitFor()
    assert.equal(await frame.locator('[data-passkey]').count(), 0)
    await press(frame, 'Close', async () => (await frame.locator('#app *').count()) === 0)
  })

  it('error: a passkey no account has any more, then a cancelled dialog: said in the view, which still works', async () => {
    await signOut()
    await openPasskeySignIn()
    const frame = walletFrame(page)
    // The removed passkey is still on the authenticator: the service does not know it.
    const unknown = alertIn(frame, 'This passkey is not linked to any account here')
    await press(frame, 'Continue with a passkey', () => unknown.isVisible())
    // No passkey left to offer: the browser's dialog ends without one (NotAllowedError), said calmly.
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId })
    const calm = statusIn(frame, 'No passkey was used. You can try again when you are ready.')
    await press(frame, 'Continue with a passkey', () => calm.isVisible())
    assert.equal(await frame.getByRole('alert').textContent(), '', 'no error in red')
    assert.deepEqual(await axeFindings(frameDocument(), 'body'), [], 'the view after a cancel')
    // Still usable: Create a passkey makes a new person with a new wallet.
    await press(frame, 'Create a passkey', async () => (await modal(page).count()) === 0)
    const created = await connectedOnBoth(page)
    assert.notEqual(created, emailAddress, 'a new wallet')
    assert.deepEqual(await credentials(), [['localhost', true]])
  })

  it('error: removing the only way in of a passkey-only person is refused, in red, and the passkey stays', async () => {
    await openAccount()
    await modal(page).getByRole('button', { name: 'Passkeys' }).click()
    const frame = walletFrame(page)
    await frame.getByRole('heading', { name: 'Your passkeys' }).waitFor()
    const refused = alertIn(frame, 'This passkey is your only way in: add an e-mail or another passkey first')
    await press(frame, /^Remove: Passkey added /, () => refused.isVisible())
    assert.equal(await frame.locator('[data-passkey]').count(), 1)
    assert.deepEqual(await axeFindings(frameDocument(), 'body'), [], 'the refusal')
    await press(frame, 'Close', async () => (await frame.locator('#app *').count()) === 0)
  })
})
