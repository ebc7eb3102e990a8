import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { formatBalance } from '../../src/shared/format.ts'
import { answerInFrame, connections, fundEth, modal, signInByEmail, walletFrame } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * What the views show, on the local stack, as a person meets it with the embedded wallet (e-mail) on the
 * demo's first page: the Send view keeps what was typed and shows what happened after the approval view
 * replaced it, and balances and the smart account's deployed state follow the chain while
 * the views are open. Each step checks what the person sees, not only the chain.
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
    await signInByEmail(page, stack, email)
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

  it('the demo’s first page offers every way in: the Demo Wallet, WalletConnect, e-mail, social sign-ins and Farcaster', async () => {
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
    // The fee as the modal shows amounts (3 decimals, "<" below that) with its value in dollars, from
    // the local market's price, so its size reads at a glance.
    await walletFrame(page)
      .getByText(/^(< )?\d+\.\d{3} ETH \((< )?\$\d+\.\d\d\)$/)
      .waitFor()
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

  it('Swap approved in the frame: the Swap view comes back with its confirmation, kept in $swap', async () => {
    await modal(page).getByRole('button', { name: 'Swap', exact: true }).click()
    await modal(page).getByRole('heading', { name: 'Swap' }).waitFor()
    await modal(page).getByLabel('Amount').fill('0.1')
    await modal(page)
      .getByText(/^\d+\.\d{3} USDC \(\$[\d,]+\.\d\d\)$/)
      .waitFor()
    await modal(page).getByRole('button', { name: 'Swap', exact: true }).click()
    // The wallet's approval view replaces Swap while the frame asks.
    await modal(page).getByRole('heading', { name: 'Approve request' }).waitFor()
    await walletFrame(page).getByText('0.1 ETH', { exact: true }).waitFor()
    await answerInFrame(page, 'Approve')
    const result = modal(page).locator('[part="swap-result"]')
    await result.getByText(/^Swapped 0\.1 ETH for \d+\.\d{3} USDC$/).waitFor({ timeout: 20_000 })
    const swap = await page.evaluate(() => {
      const state = document.querySelector('wallet-modal')?.walletConfig.$swap.get()
      return { status: state?.status, hash: state?.hash }
    })
    assert.equal(swap.status, 'swapped')
    assert.match(swap.hash ?? '', /^0x[0-9a-f]{64}$/)
    const receipt = await chain().getTransactionReceipt({ hash: swap.hash as Hex })
    assert.equal(receipt.status, 'success')
    await result.getByRole('button', { name: 'Done' }).click()
    await balance()
      .getByText(await shown())
      .waitFor({ timeout: 6_000 })
  })

  it('wallet_sendCalls asked by the page while Send is open: approved in the frame, Send comes back with what was typed', async () => {
    await modal(page).getByRole('button', { name: 'Send', exact: true }).click()
    const form = modal(page).locator('[part="send-form"]')
    await form.getByLabel('Amount').fill('0.3')
    await form.getByLabel('Receiver').fill(receiver)
    const others = [devAccount(6).address, devAccount(7).address]
    const before = await Promise.all(others.map((to) => chain().getBalance({ address: to })))
    // The site's own code asks for two calls (EIP-5792) while the person is typing in Send.
    const asked = page.evaluate(
      ([from, calls]) =>
        document
          .querySelector('wallet-modal')
          ?.getProvider('eip155')
          .request({
            method: 'wallet_sendCalls',
            params: [
              {
                version: '2.0.0',
                chainId: '0x7a69',
                from,
                atomicRequired: false,
                calls: calls.map((to) => ({ to, value: '0x1000' })),
              },
            ],
          }) as Promise<{ id: string }>,
      [address, others] as const,
    )
    await modal(page).getByRole('heading', { name: 'Approve request' }).waitFor()
    for (const to of others) await walletFrame(page).getByText(to).waitFor()
    await answerInFrame(page, 'Approve')
    const { id } = (await asked) ?? { id: '' }
    assert.match(id, /^0x[0-9a-f]+$/)
    // The modal is back on Send, with what was typed.
    await form.waitFor()
    assert.equal(await form.getByLabel('Amount').inputValue(), '0.3')
    assert.equal(await form.getByLabel('Receiver').inputValue(), receiver)
    for (const [index, to] of others.entries()) {
      for (let attempt = 0; attempt < 100; attempt++) {
        if ((await chain().getBalance({ address: to })) === (before[index] ?? 0n) + 0x1000n) break
        await page.waitForTimeout(100)
      }
      assert.equal(await chain().getBalance({ address: to }), (before[index] ?? 0n) + 0x1000n)
    }
    await modal(page).getByRole('button', { name: 'Back' }).click()
  })

  it('smart account: "Not deployed yet" turns to "Deployed" after its first transaction, without a reload', async () => {
    const type = modal(page).locator('[part="account-type"]')
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    // Approved in the wallet frame: the switch is the person's to approve.
    await answerInFrame(page, 'Approve')
    await type.getByText('Not deployed yet: your first transaction deploys it').waitFor()
    // The switch is as wide as Account's other buttons, and apart from the row above it.
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
  it('the tab visible again: Account reads the balance at once, not at the next block poll', async () => {
    if (!(await modal(page).isVisible())) await openAccount()
    await balance()
      .getByText(await shown())
      .waitFor({ timeout: 6_000 })
    // The block poll is held: the page's timers of 500 ms or more (the poll waits the chain's block
    // time, 1 s here) are kept instead of run, while shorter ones (an RPC batch's) run as usual. So
    // only the tab's visibilitychange can bring the new balance in.
    await page.evaluate(() => {
      const original = { set: window.setTimeout, clear: window.clearTimeout }
      const real = { set: original.set.bind(window), clear: original.clear.bind(window) }
      const held = new Map<number, () => void>()
      let next = -1
      const hold = (handler: TimerHandler, ms?: number, ...args: unknown[]) => {
        if ((ms ?? 0) < 500) return real.set(handler, ms, ...args)
        const id = next--
        held.set(id, () => (handler as (...values: unknown[]) => void)(...args))
        return id
      }
      window.setTimeout = hold as typeof window.setTimeout
      window.clearTimeout = ((id?: number) => {
        if (id === undefined || !held.delete(id)) real.clear(id)
      }) as typeof window.clearTimeout
      Object.assign(window, {
        releaseTimers: () => {
          window.setTimeout = original.set
          window.clearTimeout = original.clear
          for (const run of held.values()) real.set(run, 0)
          held.clear()
        },
      })
    })
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((visibility) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => visibility === 'hidden' })
        document.dispatchEvent(new Event('visibilitychange'))
      }, state)
    try {
      // A poll already waiting when the hold began runs once more, and its next wait is held.
      await page.waitForTimeout(1_500)
      const old = await shown()
      await setVisibility('hidden')
      await fundEth(stack, address, '4')
      const now = await shown()
      assert.notEqual(now, old)
      // Hidden, and no poll to run: the old number stays.
      await page.waitForTimeout(2_000)
      await balance().getByText(old).waitFor({ timeout: 1_000 })
      await setVisibility('visible')
      await balance().getByText(now).waitFor({ timeout: 6_000 })
    } finally {
      await page.evaluate(() => (window as unknown as { releaseTimers(): void }).releaseTimers())
    }
  })
})
