import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { formatBalance } from '../../src/core/format.ts'
import {
  answerInFrame,
  codeOf,
  connections,
  fundEth,
  modal,
  nextMail,
  submitEmail,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * Issue 26 on the local stack, as a person meets it with the embedded wallet (e-mail) on the demo's
 * first page: the Send view keeps what was typed and shows what happened after the approval view
 * replaced it (items 1), and balances and the smart account's deployed state follow the chain while
 * the views are open (item 3). Each step checks what the person sees, not only the chain.
 */
describe('the views keep what the person did and show what is true now', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page
  let address: Hex
  const receiver = devAccount(5).address

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    const context = await newContext(browser)
    page = await context.newPage()
    // The demo's first page, its Demo Wallet off: the e-mail sign-in is the way in here.
    await page.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    const email = `views.${Date.now()}@example.com`
    await submitEmail(page, email)
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    await modal(page).waitFor({ state: 'detached' })
    address = (await connections(page)).eip155?.address as Hex
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const chain = () => createPublicClient({ transport: http(stack.urls.chain, { retryCount: 0 }) })
  /** The balance as the modal shows it (3 decimals), read from the chain. */
  const shown = async () => `${formatBalance(await chain().getBalance({ address }), 18)} ETH`
  const balance = () => modal(page).locator('[part="balance"]')
  const openAccount = () => page.locator('wallet-button').getByRole('button').click()

  it('the demo’s first page offers every way in: the Demo Wallet, WalletConnect, e-mail, social sign-ins and Farcaster (item 7)', async () => {
    const other = await (await newContext(browser)).newPage()
    await other.goto(stack.urls.demo)
    await other.getByRole('button', { name: 'Connect Wallet' }).click()
    const connect = modal(other)
    await connect.getByRole('button', { name: /Demo Wallet/ }).waitFor()
    await connect.getByRole('button', { name: /WalletConnect/ }).waitFor()
    await connect.getByLabel('Email').waitFor()
    for (const provider of ['Google', 'GitHub'])
      await connect.getByRole('button', { name: `Continue with ${provider}` }).waitFor()
    await connect.getByRole('button', { name: /Farcaster/ }).waitFor()
    await other.close()
  })

  it('Account shows ETH that arrives while it is open, within a few seconds and without reopening', async () => {
    await fundEth(stack, address, '2')
    await openAccount()
    await balance().getByText('2.000 ETH').waitFor()
    // Within the 30 s cache: only a new block can bring this in.
    await fundEth(stack, address, '1')
    await balance().getByText('3.000 ETH').waitFor({ timeout: 6_000 })
  })

  it('Send: the balance under the amount follows the chain while the form is open', async () => {
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    const form = modal(page).locator('[part="send-form"]')
    await form.getByText('Available: 3.000 ETH').waitFor()
    await form.getByLabel('Amount').fill('10')
    await form.getByLabel('Receiver').fill(receiver)
    await form.getByRole('button', { name: 'Send' }).click()
    await form.getByText('Insufficient balance').waitFor()
    await fundEth(stack, address, '20')
    await form.getByText('Available: 23.000 ETH').waitFor({ timeout: 6_000 })
    // What was typed is still there.
    assert.equal(await form.getByLabel('Amount').inputValue(), '10')
    await modal(page).getByRole('button', { name: 'Back' }).click()
  })

  it('Send approved in the frame: the view comes back with the confirmation, and Account the new balance', async () => {
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    const form = modal(page).locator('[part="send-form"]')
    await form.getByLabel('Amount').fill('0.25')
    await form.getByLabel('Receiver').fill(receiver)
    const before = await chain().getBalance({ address: receiver })
    await form.getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('heading', { name: 'Approve request' }).waitFor()
    await walletFrame(page).getByText('0.25 ETH').waitFor()
    await answerInFrame(page, 'Approve')
    const result = modal(page).locator('[part="send-result"]')
    await result.getByText(`Sent 0.25 ETH to ${receiver.slice(0, 6)}…${receiver.slice(-4)}`).waitFor()
    assert.equal(await chain().getBalance({ address: receiver }), before + parseEther('0.25'))
    const hash = await page.evaluate(
      () => document.querySelector('wallet-modal')?.walletConfig.$send.get().hash,
    )
    assert.match(hash ?? '', /^0x[0-9a-f]{64}$/)
    await result.getByRole('button', { name: 'Done' }).click()
    await balance()
      .getByText(await shown())
      .waitFor({ timeout: 6_000 })
  })

  it('Send declined in the frame: the form comes back with the amount, the receiver and the refusal', async () => {
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    const form = modal(page).locator('[part="send-form"]')
    // A new send starts empty.
    assert.equal(await form.getByLabel('Amount').inputValue(), '')
    await form.getByLabel('Amount').fill('0.1')
    await form.getByLabel('Receiver').fill(receiver)
    await form.getByRole('button', { name: 'Send' }).click()
    await answerInFrame(page, 'Reject')
    await form.getByText('User rejected the request.').waitFor()
    assert.equal(await form.getByLabel('Amount').inputValue(), '0.1')
    assert.equal(await form.getByLabel('Receiver').inputValue(), receiver)
    await modal(page).getByRole('button', { name: 'Back' }).click()
  })

  it('smart account: "Not deployed yet" turns to "Deployed" after its first transaction, without a reload', async () => {
    const type = modal(page).locator('[part="account-type"]')
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    // Approved in the wallet frame (issue 23 item 4b).
    await answerInFrame(page, 'Approve')
    await type.getByText('Not deployed yet: your first transaction deploys it').waitFor()
    // The switch is as wide as Account's other buttons, and apart from the row above it (item 6).
    const layout = await type.evaluate((section) => {
      const button = section.querySelector('button') as HTMLElement
      const above = button.previousElementSibling as HTMLElement
      const send = (section.getRootNode() as ShadowRoot).querySelector('[part="send-button"]') as HTMLElement
      return {
        width: button.getBoundingClientRect().width,
        sendWidth: send.getBoundingClientRect().width,
        gap: button.getBoundingClientRect().top - above.getBoundingClientRect().bottom,
      }
    })
    assert.ok(Math.abs(layout.width - layout.sendWidth) < 1, JSON.stringify(layout))
    assert.ok(layout.gap >= 4, JSON.stringify(layout))
    address = (await connections(page)).eip155?.address as Hex
    await fundEth(stack, address, '1')
    await balance().getByText('1.000 ETH').waitFor({ timeout: 6_000 })
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    const form = modal(page).locator('[part="send-form"]')
    await form.getByLabel('Amount').fill('0.01')
    await form.getByLabel('Receiver').fill(receiver)
    await form.getByRole('button', { name: 'Send' }).click()
    await answerInFrame(page, 'Approve')
    const result = modal(page).locator('[part="send-result"]')
    await result.getByText(/^Sent 0\.01 ETH to /).waitFor({ timeout: 20_000 })
    assert.ok((await chain().getCode({ address }))?.length, 'deployed on the chain')
    await result.getByRole('button', { name: 'Done' }).click()
    await type.getByText('Deployed', { exact: true }).waitFor({ timeout: 6_000 })
    await balance()
      .getByText(await shown())
      .waitFor({ timeout: 6_000 })
  })
})
