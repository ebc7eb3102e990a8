import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
  createPublicClient,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  parseUnits,
  stringToHex,
  verifyMessage,
} from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import {
  launchBrowser,
  newContext,
  openPhoneWallet,
  startGenericPairing,
  startTestStack,
  type TestStack,
} from './harness.ts'

/**
 * WalletConnect end to end on the local stack, on a computer: the modal shows a QR code and links, the
 * demo phone wallet pairs from the copied link through the dev relay, requests go over the session
 * through `getProvider('eip155')`, the session survives a reload, and a wallet-side disconnect or
 * rejection is followed by the modal. On a phone: walletconnect-phone.test.ts.
 */
const dev = (index: number) =>
  mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: index })

describe('WalletConnect pairing with the demo phone wallet', { timeout: 240_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    context = await newContext(browser)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(stack.urls.demo).origin,
    })
  })
  after(async () => {
    await context?.close()
    await browser?.close()
    await stack?.stop()
  })

  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  const waitForEvent = (page: Page, name: string) =>
    page.evaluate(
      (type) =>
        new Promise<unknown>((resolve) =>
          document.addEventListener(type, (event) => resolve((event as CustomEvent).detail), { once: true }),
        ),
      name,
    )
  const request = (page: Page, method: string, params: unknown[]) =>
    page.evaluate(
      ([m, p]) =>
        document.querySelector('wallet-modal')?.getProvider('eip155').request({ method: m, params: p }),
      [method, params] as const,
    )
  const approveIn = async (phone: Page, method: string) => {
    const card = phone.getByRole('article', { name: method })
    await card.getByRole('button', { name: 'Approve' }).click()
  }

  it('pairs from the copied link, signs and sends over the session, survives a reload, follows the wallet disconnecting', async () => {
    const page = await context.newPage()
    await page.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Rainbow/ })
      .click()

    // The view: a QR code with the wallet's logo and a copy button (Rainbow has no desktop app link).
    await modal(page).getByRole('img', { name: 'QR code to connect Rainbow' }).waitFor()
    await modal(page).getByRole('button', { name: 'Copy link' }).click()
    await modal(page).getByText('Link copied').waitFor()
    const uri = await page.evaluate(() => navigator.clipboard.readText())
    assert.match(uri, /^wc:[0-9a-f]{64}@2\?/)
    assert.equal(await modal(page).getByRole('link', { name: 'Open Rainbow' }).count(), 0)

    const connected = waitForEvent(page, 'wallet-connect')
    const phone = await context.newPage()
    await phone.goto(new URL(`/wallets/phone.html?uri=${encodeURIComponent(uri)}`, stack.urls.demo).href)
    await phone
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Approve' })
      .click()
    const detail = (await connected) as { address: string; connector: { type: string }; chainId: string }
    assert.equal(detail.address.toLowerCase(), dev(0).address.toLowerCase())
    assert.equal(detail.connector.type, 'walletConnect')
    assert.equal(detail.chainId, 'eip155:31337')
    await page.locator('wallet-button').getByText('10,000.000 ETH').waitFor()

    // personal_sign over the session, approved on the phone, verified with viem.
    const message = 'Hello from the modal'
    const signed = request(page, 'personal_sign', [stringToHex(message), detail.address])
    await approveIn(phone, 'personal_sign')
    assert.ok(await verifyMessage({ address: dev(0).address, message, signature: (await signed) as Hex }))

    // eth_sendTransaction over the session, mined on the local chain.
    const sent = request(page, 'eth_sendTransaction', [
      { from: detail.address, to: dev(1).address, value: `0x${parseEther('0.25').toString(16)}` },
    ])
    await approveIn(phone, 'eth_sendTransaction')
    const hash = (await sent) as Hex
    const chain = createPublicClient({ transport: http(stack.urls.chain) })
    const receipt = await chain.waitForTransactionReceipt({ hash })
    assert.equal(receipt.status, 'success')

    // wallet_sendCalls (EIP-5792 2.0) to a wallet that did not approve it: the page's fallback sends the
    // calls one after another over the session, each approved on the phone, and reads their status.
    const ethOf = () => chain.getBalance({ address: dev(2).address })
    const ethBefore = await ethOf()
    const batch = request(page, 'wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        from: detail.address,
        calls: [
          { to: dev(2).address, value: `0x${parseEther('0.01').toString(16)}` },
          { to: dev(2).address, value: `0x${parseEther('0.02').toString(16)}` },
        ],
      },
    ])
    await approveIn(phone, 'eth_sendTransaction')
    await approveIn(phone, 'eth_sendTransaction')
    const { id } = (await batch) as { id: string }
    let calls: { status: number; receipts: unknown[] } = { status: 100, receipts: [] }
    while (calls.status === 100) calls = (await request(page, 'wallet_getCallsStatus', [id])) as typeof calls
    assert.equal(calls.status, 200)
    assert.equal(calls.receipts.length, 2)
    assert.equal((await ethOf()) - ethBefore, parseEther('0.03'))

    // The Send view's ERC-20 transfer goes over the session too: 5 USDC, approved on the phone.
    const usdc = stack.market.tokens.USDC.address
    const usdcOf = (owner: Hex) =>
      chain.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
    const bobBefore = await usdcOf(dev(1).address)
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByLabel('Token').selectOption({ label: 'USDC (10,000.000)' })
    await modal(page).getByLabel('Amount').fill('5')
    await modal(page).getByLabel('Receiver address').fill(dev(1).address)
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await approveIn(phone, 'eth_sendTransaction')
    await modal(page).getByText('Sent 5 USDC to 0x7099…79C8').waitFor()
    assert.equal((await usdcOf(dev(1).address)) - bobBefore, parseUnits('5', 6))
    await modal(page).getByRole('button', { name: 'Done' }).click()
    await page.keyboard.press('Escape')

    // A reload restores the session without a new pairing.
    await page.reload()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
    assert.equal(
      await page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$status.get()),
      'connected',
    )

    // The wallet ends the session; the modal follows.
    const disconnected = waitForEvent(page, 'wallet-disconnect')
    await phone
      .getByRole('button', { name: /^Disconnect/ })
      .first()
      .click()
    await disconnected
    await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
    await phone.close()
    await page.close()
  })

  it('shows the rejection and a retry when the phone wallet declines, and resets the link on close', async () => {
    const page = await context.newPage()
    await page.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    const uri = await startGenericPairing(page)

    const phone = await openPhoneWallet(context, stack.urls.demo, uri)
    await phone
      .getByRole('region', { name: 'Session proposal' })
      .getByRole('button', { name: 'Reject' })
      .click()
    await modal(page).getByText('Connection declined').waitFor()
    const retry = modal(page).getByRole('button', { name: 'Try again' })
    await retry.waitFor()
    await page.waitForFunction(() => {
      const button = document
        .querySelector('wallet-modal')
        ?.shadowRoot?.querySelector<HTMLButtonElement>('.actions button.primary')
      return button && !button.disabled
    })
    await retry.click()
    await modal(page)
      .getByRole('img', { name: /QR code/ })
      .waitFor()
    const fresh = await page.evaluate(
      () => document.querySelector('wallet-modal')?.walletConfig.$pairing.get().uri,
    )
    assert.ok(fresh && fresh !== uri, 'a fresh link after the retry')

    await page.keyboard.press('Escape')
    await modal(page).waitFor({ state: 'detached' })
    assert.equal(
      await page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$pairing.get().uri),
      undefined,
    )
    assert.equal(
      await page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$status.get()),
      'disconnected',
    )
    await phone.close()
    await page.close()
  })
})
