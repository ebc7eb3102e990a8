import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * The first whole journey on the local stack: a real Hardhat chain, the demo served by vite, the
 * Demo Wallet answering through its visible prompt, and Chromium clicking like a person.
 */
describe('connect a browser wallet end to end', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const openDemo = async (query = '') => {
    const context = await newContext(browser)
    const page = await context.newPage()
    const events: string[] = []
    await page.exposeFunction('recordWalletEvent', (line: string) => events.push(line))
    await page.addInitScript(() => {
      for (const name of ['connect', 'disconnect', 'network-change', 'error', 'open', 'close']) {
        document.addEventListener(`wallet-${name}`, (event) =>
          (window as unknown as { recordWalletEvent(line: string): void }).recordWalletEvent(
            `${event.type} ${JSON.stringify((event as CustomEvent).detail)}`,
          ),
        )
      }
    })
    await page.goto(new URL(`/${query}`, stack.urls.demo).href)
    return { page, events, context }
  }

  const walletPrompt = (page: Page) => page.getByRole('dialog', { name: 'Demo Wallet request' })
  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')

  it('opens, connects the Demo Wallet, shows address and balance from the chain, switches network, survives a reload, disconnects', async () => {
    const { page, events, context } = await openDemo()
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()

    const account = page.locator('wallet-button').getByRole('button', { name: /, Account$/ })
    await account.waitFor()
    await page.locator('wallet-button').getByText('10,000.000 ETH').waitFor()
    assert.match((await account.textContent()) ?? '', /0xf39F…2266/)
    assert.ok(
      events.some((line) => line.startsWith('wallet-connect') && line.includes('"chainId":"eip155:31337"')),
    )

    // Account view: address, network and balance.
    await account.click()
    await modal(page).getByText('Local Chain', { exact: true }).waitFor()
    await modal(page).getByText('10,000.000 ETH').waitFor()

    // Switch to the second local chain: the wallet does not know it (4902), so it is added first.
    await modal(page)
      .getByRole('button', { name: /Local Chain\s+Network/ })
      .click()
    await modal(page)
      .getByRole('button', { name: /Local Chain 2/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await page.waitForFunction(
      () =>
        document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId === 'eip155:31338',
    )
    assert.ok(events.some((line) => line.includes('wallet-network-change') && line.includes('eip155:31338')))
    await modal(page).getByText('10,000.000 ETH').waitFor()

    // Reload: reconnecting, then connected, with no prompt.
    await page.reload()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
    assert.equal(await walletPrompt(page).count(), 0)
    const status = await page.evaluate(() =>
      document.querySelector('wallet-modal')?.walletConfig.$status.get(),
    )
    assert.equal(status, 'connected')

    // Disconnect is remembered across reloads.
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    await modal(page).getByRole('button', { name: 'Disconnect' }).click()
    await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
    await page.reload()
    await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
    await page.waitForTimeout(500)
    assert.equal(
      await page.evaluate(() => document.querySelector('wallet-modal')?.walletConfig.$status.get()),
      'disconnected',
    )
    await context.close()
  })

  it('shows the rejection and a retry when the wallet declines the connection', async () => {
    const { page, events, context } = await openDemo()
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Reject' }).click()
    await modal(page).getByText('Connection declined').waitFor()
    assert.ok(events.some((line) => line.startsWith('wallet-error') && line.includes('4001')))
    await modal(page).getByRole('button', { name: 'Try again' }).click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .waitFor()
    await context.close()
  })

  it('shows UnsupportedChain when the wallet is on a network the site does not list, and switches from there', async () => {
    const { page, context } = await openDemo('?demoChain=1')
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await modal(page).getByRole('heading', { name: 'Unsupported chain' }).waitFor()
    await modal(page)
      .getByRole('button', { name: /^Local Chain$/ })
      .click()
    await modal(page).getByText('10,000.000 ETH').waitFor()
    await context.close()
  })

  it('sends ETH from the Send view: the wallet approves, the receipt lands, both balances change', async () => {
    const receiver = '0x70997970C51812Dc3A010C7D01B50E2d73dC79C8'
    const balanceOf = async (address: string) => {
      const response = await fetch(stack.urls.chain, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_getBalance',
          params: [address, 'latest'],
        }),
      })
      return BigInt(((await response.json()) as { result: string }).result)
    }
    const { page, events, context } = await openDemo()
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await walletPrompt(page).getByRole('button', { name: 'Approve' }).click()
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByLabel('Amount').fill('1.5')
    await modal(page).getByLabel('Receiver address').fill('0x1234')
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('alert').getByText('Invalid EVM address').waitFor()
    // One letter's case wrong: the EIP-55 checksum catches the typo before the wallet is asked.
    await modal(page).getByLabel('Receiver address').fill('0x70997970c51812Dc3A010C7D01B50E2d73dC79C8')
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('alert').getByText('Invalid EVM address').waitFor()
    assert.equal(await page.locator('[data-demo-wallet="approve"]').count(), 0)
    await modal(page).getByLabel('Amount').fill('999999')
    await modal(page).getByLabel('Receiver address').fill(receiver)
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('alert').getByText('Insufficient balance').waitFor()

    const before = await balanceOf(receiver)
    await modal(page).getByLabel('Amount').fill('1.5')
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await page.locator('[data-demo-wallet="approve"]').click()
    await modal(page).getByText('Sent 1.5 ETH to 0x7099…79C8').waitFor()
    assert.equal(await balanceOf(receiver), before + 1_500_000_000_000_000_000n)
    await modal(page).getByRole('button', { name: 'Done' }).click()
    await modal(page)
      .getByText(/9,998\.49\d ETH/)
      .waitFor()
    assert.ok(!events.some((line) => line.startsWith('wallet-error')), events.join('\n'))
    await context.close()
  })
})
