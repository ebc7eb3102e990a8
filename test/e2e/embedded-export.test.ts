import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { mnemonicToSeedSync } from '@scure/bip39'
import { Keypair } from '@solana/web3.js'
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { SOLANA_PATH } from '../../src/frame/keys/derive.ts'
import { deriveEd25519 } from '../../src/frame/keys/slip10.ts'
import { decodeBase58, encodeBase58 } from '../../src/protocol/siwx/base58.ts'
import { axeFindings } from './axe.ts'
import {
  codeOf,
  connections,
  listenAsPageScript,
  modal,
  nextMail,
  signInByEmail,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * Export and leave, as a person does it, with the page's own scripts listening to
 * everything they can (window messages, both ends of every MessagePort, the console, every DOM and
 * shadow root they reach, storage): the keys show in the frame, on its own origin, and nowhere else.
 */
describe('embedded wallet: export and delete', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const email = `leaver.${Date.now()}@example.com`
  const consoleLines: string[] = []

  /**
   * Clicks a button of the frame until `done` holds (Chromium may drop a click on a frame that just
   * moved). A click that took (the button gone or busy) is waited for, not repeated: under load the
   * service's answer can take seconds.
   */
  async function clickInFrame(frame: FrameLocator, name: string, done: () => Promise<boolean>) {
    const button = frame.getByRole('button', { name, exact: true })
    for (let attempt = 0; attempt < 5; attempt++) {
      if ((await button.isVisible()) && (await button.isEnabled())) await button.click()
      for (let poll = 0; poll < 100; poll++) {
        if (await done()) return
        await page.waitForTimeout(50)
      }
    }
    throw new Error(`${name} in the wallet frame did not take`)
  }

  /** Everything the page can read: what it heard, its DOM with every open shadow root, storage, cookies. */
  const pageCanRead = async () =>
    `${consoleLines.join('\n')}\n${await page.evaluate(() => {
      const texts: string[] = []
      const walk = (root: Document | ShadowRoot) => {
        texts.push((root as Document).documentElement?.outerHTML ?? (root as ShadowRoot).innerHTML)
        for (const element of root.querySelectorAll('*')) if (element.shadowRoot) walk(element.shadowRoot)
      }
      walk(document)
      return [
        ...(window as unknown as { seen: string[] }).seen,
        ...texts,
        JSON.stringify({ ...localStorage }),
        JSON.stringify({ ...sessionStorage }),
        document.cookie,
      ].join('\n')
    })}`

  /** Whether `text` holds `secret` or any 10-character piece of it. */
  const leaks = (text: string, secret: string) => {
    for (let start = 0; start + 10 <= secret.length; start += 5)
      if (text.includes(secret.slice(start, start + 10))) return true
    return false
  }

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
    context = await newContext(browser)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.urls.frame })
    await listenAsPageScript(context)
    page = await context.newPage()
    page.on('console', (message) => consoleLines.push(message.text()))
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await signInByEmail(page, stack, email)
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  it('Export wallet: a fresh code, the warning, then both keys in the frame only; the page reads none of them, and closing removes them', async () => {
    const before = await connections(page)
    assert.equal(before.eip155?.status, 'connected')
    // A phone's width: every view of the export fits and passes axe (the frame's own document too).
    await page.setViewportSize({ width: 375, height: 667 })
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Export wallet' }).click()
    const frame = walletFrame(page)
    const frameDocument = () => {
      const found = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
      if (!found) throw new Error('no wallet frame')
      return found
    }
    const fits = () =>
      frameDocument().evaluate(
        () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
      )
    await frame.getByLabel('Code').waitFor()
    assert.deepEqual(await axeFindings(frameDocument(), 'body'), [], 'the code view')
    assert.ok(await fits(), 'the code view fits 375 px')
    const wrong = await nextMail(stack, email, 1)
    await frame.getByLabel('Code').fill(codeOf(wrong) === '000000' ? '111111' : '000000')
    const alert = frame.getByRole('alert').filter({ hasText: 'Invalid code: 4 tries left' })
    await clickInFrame(frame, 'Confirm', () => alert.isVisible())
    // The sign-in's code is spent; a new one comes for the export.
    await frame.getByLabel('Code').fill(codeOf(await nextMail(stack, email, 1)))
    const warning = frame.getByText('Anyone with these keys controls your wallet', { exact: false })
    await clickInFrame(frame, 'Confirm', () => warning.isVisible())
    assert.equal(await frame.locator('[data-secret]').count(), 0, 'no key before the second click')
    await clickInFrame(frame, 'Show my keys', async () => (await frame.locator('[data-secret]').count()) > 0)

    const evmKey = (await frame.locator('[data-secret="evm"]').textContent()) ?? ''
    const solanaKey = (await frame.locator('[data-secret="solana"]').textContent()) ?? ''
    assert.equal(privateKeyToAccount(evmKey as `0x${string}`).address, before.eip155?.address)
    const pair = decodeBase58(solanaKey)
    assert.equal(pair?.length, 64, 'the 64-byte form Phantom imports')
    assert.ok(pair)
    assert.equal(encodeBase58(ed25519.getPublicKey(pair.slice(0, 32))), before.solana?.address)
    // A wallet made in the frame has a recovery phrase: other wallets open the same accounts.
    const phrase = ((await frame.locator('[data-secret="phrase"]').textContent()) ?? '').trim()
    assert.equal(phrase.split(/\s+/).length, 12, 'a 12-word phrase')
    assert.equal(
      mnemonicToAccount(phrase).address,
      before.eip155?.address,
      "MetaMask's path opens the account",
    )
    const phantomSeed = deriveEd25519(mnemonicToSeedSync(phrase), SOLANA_PATH).privateKey
    assert.equal(
      Keypair.fromSeed(phantomSeed).publicKey.toBase58(),
      before.solana?.address,
      "Phantom's path opens the account",
    )
    assert.equal(await frame.locator('[data-no-phrase]').count(), 0)
    assert.deepEqual(await axeFindings(frameDocument(), 'body'), [], 'the keys view')
    assert.ok(await fits(), 'the keys view fits 375 px')

    await frame.getByRole('button', { name: 'Copy: EVM private key' }).click()
    await frame.getByRole('status').filter({ hasText: 'Copied' }).waitFor()

    // While the keys are on screen: the page, its modal and everything it heard hold no piece of them.
    const readable = await pageCanRead()
    assert.ok(readable.includes('EXPORT_WALLET'), 'the listener heard the export request')
    assert.ok(!leaks(readable, evmKey.slice(2)), 'a piece of the EVM key reached the page')
    assert.ok(!leaks(readable, solanaKey), 'a piece of the Solana key reached the page')

    await clickInFrame(frame, 'Close', async () => (await frame.locator('#app *').count()) === 0)
    assert.equal(await frame.locator('[data-secret]').count(), 0, 'nothing stays in the frame’s DOM')
    const afterClose = await pageCanRead()
    assert.ok(!leaks(afterClose, evmKey.slice(2)) && !leaks(afterClose, solanaKey))
    assert.ok(afterClose.includes('"exported":true'), 'the page hears only that the keys were shown')
  })

  it('after a reload, Account still offers Delete wallet to the person who exported (the service remembers the export)', async () => {
    await page.reload()
    await page.waitForFunction(
      () =>
        document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155?.status ===
        'connected',
      undefined,
      { timeout: 30_000 },
    )
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Export wallet' }).waitFor()
    await modal(page).getByRole('button', { name: 'Delete wallet' }).waitFor({ timeout: 10_000 })
  })

  it('Delete wallet (offered after the export): a second fresh code, then the site is disconnected', async () => {
    await modal(page).getByRole('button', { name: 'Delete wallet' }).click()
    const frame = walletFrame(page)
    await frame.getByLabel('Code').fill(codeOf(await nextMail(stack, email, 2)))
    await clickInFrame(frame, 'Delete my wallet', async () => {
      const now = await connections(page)
      return now.eip155?.status !== 'connected'
    })
    assert.notEqual((await connections(page)).eip155?.status, 'connected')
  })
})
