// Recovery by password: set up at sign-in, recover on a new browser, or later from Account.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core'
import { axeFindings } from './axe.ts'
import {
  closedAfterSignIn,
  codeOf,
  connections,
  fundEth,
  modal,
  nextMail,
  signInNewBrowser,
  signWithApproval,
  submitEmail,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

const PASSWORD = 'granite owl 42 lantern'

/**
 * A person protects a new wallet with a recovery password, loses the browser, and opens the same
 * wallet in a fresh one (no IndexedDB: a new device) with the password; another puts it off with Later
 * and is nagged on Account until it is set.
 */
describe('embedded wallet: recovery by password', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const contexts: BrowserContext[] = []
  const dappUrl = () => new URL('/dapp.html', stack.urls.demo).href

  const freshPage = async () => {
    const context = await newContext(browser)
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(dappUrl())
    return page
  }

  /** The wallet frame's own document (for axe and focus). */
  const frameDocument = (page: Page) => {
    const found = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
    if (!found) throw new Error('no wallet frame')
    return found
  }

  /** Clicks a button of the frame until `done` holds (Chromium may drop a click on a frame that just moved). */
  async function clickInFrame(page: Page, name: string, done: () => Promise<boolean>) {
    for (let attempt = 0; attempt < 5; attempt++) {
      await walletFrame(page).getByRole('button', { name, exact: true }).click()
      for (let poll = 0; poll < 40; poll++) {
        if (await done()) return
        await page.waitForTimeout(50)
      }
    }
    throw new Error(`${name} in the wallet frame did not take`)
  }

  /** The frame's alert, once it says `text`. */
  const alertSays = (frame: FrameLocator, text: string) => frame.getByRole('alert').filter({ hasText: text })

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await stack?.stop()
  })

  it('default: set a password at sign-in, then a new browser recovers the same accounts with it (a wrong one first) and signs', async () => {
    const email = `keeper.${Date.now()}@example.com`
    const first = await freshPage()
    await first.setViewportSize({ width: 375, height: 667 })
    await submitEmail(first, email)
    await modal(first)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))

    // Right after the keys are made: the set-up, in the frame, focus on the first field.
    const frame = walletFrame(first)
    await frame.getByRole('heading', { name: 'Protect your wallet' }).waitFor()
    const password = frame.getByLabel('Recovery password')
    const repeated = frame.getByLabel('Repeat the password')
    assert.equal(await password.evaluate((input) => input === document.activeElement), true)
    assert.equal(await password.getAttribute('type'), 'password')
    assert.deepEqual(await axeFindings(frameDocument(first), 'body'), [], 'the set-up view')
    const fits = await frameDocument(first).evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    )
    assert.ok(fits, 'the set-up view fits 375 px')

    // The rules, each refusal red and announced, the first field marked.
    await password.fill('owl42')
    await repeated.fill('owl42')
    const tooShort = alertSays(frame, 'Use at least 12 characters')
    await clickInFrame(first, 'Set up recovery', () => tooShort.isVisible())
    assert.equal(await password.getAttribute('aria-invalid'), 'true')
    await password.fill(PASSWORD)
    await repeated.fill(`${PASSWORD}!`)
    const mismatch = alertSays(frame, 'The two passwords are not the same')
    await clickInFrame(first, 'Set up recovery', () => mismatch.isVisible())

    // Show and hide what was typed.
    await frame.getByRole('button', { name: 'Show password' }).click()
    assert.equal(await password.getAttribute('type'), 'text')
    assert.equal(await repeated.getAttribute('type'), 'text')
    await frame.getByRole('button', { name: 'Hide password' }).click()
    assert.equal(await password.getAttribute('type'), 'password')

    // scrypt runs: the panel is busy and says so; then the modal closes, connected.
    await repeated.fill(PASSWORD)
    const busy = frame.getByRole('status').filter({ hasText: 'Securing your wallet…' })
    await clickInFrame(
      first,
      'Set up recovery',
      async () => (await busy.isVisible()) || !(await modal(first).isVisible()),
    )
    await modal(first).waitFor({ state: 'detached', timeout: 60_000 })
    const before = await connections(first)
    assert.equal(before.eip155?.status, 'connected')
    assert.equal(before.solana?.status, 'connected')
    // Set up: Account does not nag.
    await first.locator('wallet-button').getByRole('button').click()
    await modal(first).getByRole('button', { name: 'Export wallet' }).waitFor()
    assert.equal(await modal(first).getByRole('button', { name: 'Set up recovery' }).count(), 0)
    await first.keyboard.press('Escape')
    await modal(first).waitFor({ state: 'detached' })

    // A new device: the same e-mail in a fresh context (no IndexedDB), approved from the first.
    const second = await freshPage()
    await signInNewBrowser(stack, second, email, first)
    const recover = walletFrame(second)
    await recover.getByRole('heading', { name: 'Recover your wallet' }).waitFor()
    const field = recover.getByLabel('Recovery password')
    assert.equal(await field.evaluate((input) => input === document.activeElement), true)
    assert.deepEqual(await axeFindings(frameDocument(second), 'body'), [], 'the recovery view')

    // A wrong password: said, red and announced; nothing lost, the view stays for another try.
    await field.fill('granite owl 42 lanterns')
    const wrong = alertSays(recover, 'That password is not right: check it and try again')
    await clickInFrame(second, 'Recover', () => wrong.isVisible())
    assert.equal(await field.getAttribute('aria-invalid'), 'true')
    assert.ok(await recover.getByRole('heading', { name: 'Recover your wallet' }).isVisible())

    // The right one: a fresh set for this browser, the same accounts, and it signs.
    await field.fill(PASSWORD)
    const started = performance.now()
    await clickInFrame(second, 'Recover', async () => {
      const busyNow = await recover
        .getByRole('status')
        .filter({ hasText: 'Opening your wallet…' })
        .isVisible()
      return busyNow || !(await modal(second).isVisible())
    })
    await modal(second).waitFor({ state: 'detached', timeout: 60_000 })
    const recoveryMs = performance.now() - started
    console.log(`recovery: password -> usable in ${Math.round(recoveryMs)} ms`)
    const after = await connections(second)
    assert.equal(after.eip155?.address, before.eip155?.address)
    assert.equal(after.solana?.address, before.solana?.address)
    await signWithApproval(second, after.eip155?.address ?? '', 'Recovered on a new browser')
  })

  it('behavior: Later skips the set-up; Account nags (red once funds arrive) until "Set up recovery" (after a reload) sets it, and signing still works', async () => {
    const email = `later.${Date.now()}@example.com`
    const page = await freshPage()
    await submitEmail(page, email)
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    await walletFrame(page).getByRole('heading', { name: 'Protect your wallet' }).waitFor()
    await closedAfterSignIn(page)
    const { eip155 } = await connections(page)
    assert.equal(eip155?.status, 'connected')

    // The share made at sign-in is forgotten with the page: the set-up makes a fresh set.
    await page.reload()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    const nag = modal(page).getByText('No recovery set up: if you lose this browser, you lose this wallet.')
    await nag.waitFor()
    const region = modal(page).locator('[part="recovery-nag"]')
    assert.equal(await region.getAttribute('role'), 'status', 'the nag is a status until funds arrive')
    // Funds arrive while Account is open (its balance is read again on each block): the nag turns red.
    await fundEth(stack, eip155?.address ?? '', '0.01')
    await modal(page)
      .locator('.message.error')
      .filter({
        hasText:
          'This wallet holds funds and has no recovery: if you lose this browser, they are lost. Set up recovery now.',
      })
      .waitFor()
    assert.equal(await region.getAttribute('role'), 'alert', 'with funds at stake it is an alert')
    await modal(page).getByRole('button', { name: 'Set up recovery' }).click()
    const frame = walletFrame(page)
    await frame.getByRole('heading', { name: 'Protect your wallet' }).waitFor()
    await frame.getByLabel('Recovery password').fill(PASSWORD)
    await frame.getByLabel('Repeat the password').fill(PASSWORD)
    await clickInFrame(page, 'Set up recovery', async () => (await frame.getByRole('heading').count()) === 0)
    await nag.waitFor({ state: 'detached', timeout: 60_000 })
    await modal(page).getByRole('button', { name: 'Close' }).click()
    await modal(page).waitFor({ state: 'detached' })
    await signWithApproval(page, eip155?.address ?? '', 'Still mine after the set-up')
  })
})
