// Recovery by passkey: PRF set-up and recovery, the refusal without PRF, the custody line.
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { eq } from 'drizzle-orm'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { devKeypair } from '../../server/dev/solana/keys.ts'
import { projects } from '../../server/projects/tables.ts'
import { axeFindings } from './axe.ts'
import {
  addPasskeyAuthenticator,
  closedAfterSignIn,
  codeOf,
  connections,
  inbox,
  loseWalletData,
  modal,
  nextMail,
  pressInFrame,
  signInNewBrowser,
  signWithApproval,
  submitEmail,
  submitEmailPastCooldown,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

const PASSWORD = 'granite owl 42 lantern'
const NO_PRF =
  'This passkey or browser cannot protect a wallet (no PRF support): set a recovery password instead'
/**
 * Rounds of each repeated step here: 2, enough to show a wallet recovered (and so re-shared) recovers
 * again, and a returning sign-in works twice; each round waits out the 30 s resend cooldown. The medians
 * of 10 come from `test/bench/recovery.ts` (a person a run; one person may read the recovery share 6
 * times an hour: keyRoutes.ts).
 */
const RUNS = 2

describe('embedded wallet: recovery by passkey', { timeout: 600_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const contexts: BrowserContext[] = []
  const dappUrl = () => new URL('/dapp.html', stack.urls.demo).href

  /** A browser with a virtual authenticator (platform passkeys, verified), with or without PRF. */
  async function browserWithPasskeys(hasPrf: boolean) {
    const context = await newContext(browser)
    contexts.push(context)
    const page = await context.newPage()
    const { cdp, authenticatorId } = await addPasskeyAuthenticator(context, page, hasPrf)
    await page.goto(dappUrl())
    return { page, cdp, authenticatorId }
  }

  /** The frame's own document (for axe and its width). */
  const frameDocument = (page: Page) => {
    const found = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
    if (!found) throw new Error('no wallet frame')
    return found
  }

  const lamports = async (address: string) => {
    const response = await fetch(stack.urls.solana, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address] }),
    })
    return ((await response.json()) as { result: { value: number } }).result.value
  }

  /** The site sends 0.01 SOL with web3.js; the person approves in the frame; the receiver got it. */
  async function sendSolWithApproval(page: Page, receiver: string) {
    const before = await lamports(receiver)
    const sent = page.evaluate((to) => window.dapp.sendSol(to, 0.01), receiver)
    await walletFrame(page).getByText('0.01 SOL').waitFor()
    await pressInFrame(
      page,
      'Approve',
      async () => (await walletFrame(page).getByText('0.01 SOL').count()) === 0,
    )
    assert.match(await sent, /^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
    for (let attempt = 0; attempt < 50 && (await lamports(receiver)) === before; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(await lamports(receiver), before + 10_000_000)
  }

  /** Account, from the page: the frame's identity area over it. */
  async function openAccount(page: Page) {
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Export wallet' }).waitFor()
  }

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await stack?.stop()
  })

  it('default: a passkey protects the wallet at sign-in; a browser without its data recovers the same accounts with it and signs on EVM and Solana', async () => {
    const email = `prf.${Date.now()}@example.com`
    const { page } = await browserWithPasskeys(true)
    await page.setViewportSize({ width: 375, height: 667 })
    await submitEmail(page, email)
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))

    // The set-up offers the passkey beside the password form.
    const frame = walletFrame(page)
    await frame.getByRole('heading', { name: 'Protect your wallet' }).waitFor()
    assert.ok(await frame.getByRole('button', { name: 'Use a passkey' }).isVisible())
    assert.ok(await frame.getByLabel('Recovery password').isVisible())
    assert.deepEqual(await axeFindings(frameDocument(page), 'body'), [], 'the set-up view')
    await pressInFrame(page, 'Use a passkey', async () => (await modal(page).count()) === 0)
    const before = await connections(page)
    assert.equal(before.eip155?.status, 'connected')
    assert.equal(before.solana?.status, 'connected')
    const evm = before.eip155?.address ?? ''
    const solana = before.solana?.address ?? ''

    // The passkey made here is a way in too (Account → Passkeys lists it); Account shows the custody
    // line and no recovery nag.
    await openAccount(page)
    await walletFrame(page).getByText("Only you can use this wallet's keys").waitFor()
    assert.equal(await modal(page).getByRole('button', { name: 'Set up recovery' }).count(), 0)
    await modal(page).getByRole('button', { name: 'Passkeys' }).click()
    await frame.getByRole('heading', { name: 'Your passkeys' }).waitFor()
    assert.equal(await frame.getByRole('listitem').count(), 1)
    await pressInFrame(page, 'Close', async () => (await frame.locator('#app *').count()) === 0)
    await modal(page).getByRole('button', { name: 'Close' }).click()
    await modal(page).waitFor({ state: 'detached' })

    // It signs on both networks.
    await signWithApproval(page, evm, 'Protected by a passkey')
    const solReceiver = devKeypair(2).publicKey.toBase58()
    await fetch(stack.urls.solana, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'requestAirdrop',
        params: [solana, 1_000_000_000],
      }),
    })
    for (let attempt = 0; attempt < 50 && (await lamports(solana)) === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    await sendSolWithApproval(page, solReceiver)

    // A new device that still has the passkey: sign in (approved from another browser), then recover.
    const approver = await newContext(browser)
    contexts.push(approver)
    const approverPage = await approver.newPage()
    const timings: number[] = []
    for (let run = 0; run < RUNS; run++) {
      await loseWalletData(page, stack)
      await signInNewBrowser(stack, page, email, approverPage)
      const recover = walletFrame(page)
      await recover.getByRole('heading', { name: 'Recover your wallet' }).waitFor()
      // Sealed by a passkey alone: its button, no password field.
      assert.equal(await recover.getByLabel('Recovery password').count(), 0)
      if (run === 0) {
        const focused = recover.getByRole('button', { name: 'Use your passkey' })
        assert.equal(await focused.evaluate((button) => button === document.activeElement), true)
        assert.deepEqual(await axeFindings(frameDocument(page), 'body'), [], 'the recovery view')
      }
      const started = performance.now()
      await pressInFrame(page, 'Use your passkey', async () => (await modal(page).count()) === 0)
      await modal(page).waitFor({ state: 'detached', timeout: 60_000 })
      timings.push(performance.now() - started)
      const after = await connections(page)
      assert.equal(after.eip155?.address, evm)
      assert.equal(after.solana?.address, solana)
    }
    console.log(`recovery: passkey click -> usable: ${timings.map(Math.round).join(', ')} ms`)
    await signWithApproval(page, evm, 'Recovered with a passkey')
    await sendSolWithApproval(page, solReceiver)
  })

  it('error: an authenticator without PRF: the refusal is red and announced, and the password still protects the wallet; sign-in -> usable with the device share (timed)', async () => {
    const email = `noprf.${Date.now()}@example.com`
    const { page } = await browserWithPasskeys(false)
    await submitEmail(page, email)
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    const frame = walletFrame(page)
    await frame.getByRole('heading', { name: 'Protect your wallet' }).waitFor()
    const refusal = frame.getByRole('alert').filter({ hasText: NO_PRF })
    await pressInFrame(page, 'Use a passkey', () => refusal.isVisible())
    assert.equal(await frame.getByLabel('Recovery password').getAttribute('aria-invalid'), null)
    const color = await refusal.evaluate((element) => getComputedStyle(element).color)
    const [red = 0, green = 0] = (color.match(/\d+/g) ?? []).map(Number)
    assert.ok(red > green, `the refusal is red (${color})`)

    // The password form is still there and works.
    await frame.getByLabel('Recovery password').fill(PASSWORD)
    await frame.getByLabel('Repeat the password').fill(PASSWORD)
    const busy = frame.getByRole('status').filter({ hasText: 'Securing your wallet…' })
    const save = frame.getByRole('button', { name: 'Set up recovery', exact: true })
    for (
      let attempt = 0;
      attempt < 5 && (await busy.count()) === 0 && (await modal(page).count()) > 0;
      attempt++
    )
      await save.click({ timeout: 5_000 }).catch(() => {})
    await modal(page).waitFor({ state: 'detached', timeout: 60_000 })
    await openAccount(page)
    assert.equal(await modal(page).getByRole('button', { name: 'Set up recovery' }).count(), 0)

    // Sign-in -> usable on a browser that keeps its device share: code submitted -> modal closed.
    const signIns: number[] = []
    for (let run = 0; run < RUNS; run++) {
      if ((await modal(page).count()) === 0) await openAccount(page)
      await modal(page).getByRole('button', { name: 'Disconnect' }).click()
      await page.getByRole('button', { name: 'Connect Wallet' }).waitFor()
      const seen = (await inbox(stack, email)).length
      await submitEmailPastCooldown(page, email)
      const codeField = modal(page).getByLabel('Code')
      const code = codeOf(await nextMail(stack, email, seen))
      const started = performance.now()
      await codeField.fill(code)
      await modal(page).waitFor({ state: 'detached', timeout: 60_000 })
      signIns.push(performance.now() - started)
      assert.equal((await connections(page)).eip155?.status, 'connected')
    }
    console.log(
      `sign-in: code submitted -> usable with the device share: ${signIns.map(Math.round).join(', ')} ms`,
    )
  })

  it("behavior: in custody: operator the frame's Account line says the site can recover the wallet (and could sign)", async () => {
    const database = stack.serviceDatabase
    assert.ok(database, 'the service database')
    const projectId = process.env.DEV_PROJECT_ID || 'dev-project'
    await database.db.update(projects).set({ custody: 'operator' }).where(eq(projects.id, projectId))
    try {
      const email = `operator.${Date.now()}@example.com`
      const { page } = await browserWithPasskeys(true)
      await submitEmail(page, email)
      await modal(page)
        .getByLabel('Code')
        .fill(codeOf(await nextMail(stack, email, 0)))
      await closedAfterSignIn(page)
      await openAccount(page)
      await walletFrame(page).getByText('This site can recover your wallet (and could sign for it)').waitFor()
      assert.equal(await walletFrame(page).getByText("Only you can use this wallet's keys").count(), 0)
      const fits = await frameDocument(page).evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      )
      assert.ok(fits, 'the custody line fits')
    } finally {
      await database.db.update(projects).set({ custody: 'user' }).where(eq(projects.id, projectId))
    }
  })
})
