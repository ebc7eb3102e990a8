import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import { createPublicClient, erc20Abi, http, parseEther, parseUnits } from 'viem'
import type { SwapQuote } from '../../src/protocol/api/blockchain.ts'
import { formatBalance } from '../../src/shared/format.ts'
import {
  axeClean,
  connectDemoWallet,
  focusIs,
  launchBrowser,
  newContext,
  startTestStack,
  type TestStack,
} from './harness.ts'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/**
 * Tokens with prices, an ERC-20 send and swaps on the local market, end to end: the demo page, the
 * Demo Wallet approving in its prompt, the companion service's data API and RPC proxy, Uniswap V2 on
 * the local chain; every balance checked on the chain.
 */
describe('tokens, sends and swaps end to end', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    const context = await newContext(browser)
    page = await context.newPage()
    await page.goto(stack.urls.demo)
    await connectDemoWallet(page)
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const modal = () => page.locator('wallet-modal').getByRole('dialog')
  const approve = () => page.locator('[data-demo-wallet="approve"]').click()
  const chain = () => createPublicClient({ transport: http(stack.urls.chain, { retryCount: 0 }) })
  const usdc = () => stack.market.tokens.USDC.address
  const usdcOf = (owner: `0x${string}`) =>
    chain().readContract({ address: usdc(), abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
  const row = (token: string) => modal().locator(`[data-token="${token}"]`)
  const swapState = () =>
    page.evaluate(() => {
      const { quote, status } = document.querySelector('wallet-modal')?.walletConfig.$swap.get() ?? {}
      return { quote: quote as SwapQuote | undefined, status }
    })

  it('shows the native and token balances with their USD value and the total on Account', async () => {
    await modal().getByText('10,000.000 ETH').waitFor()
    await row(usdc()).getByText('$10,000.00').waitFor()
    assert.match((await row(usdc()).textContent()) ?? '', /USDC\s*10,000\.000/)
    assert.match(
      (await row(stack.market.tokens.DEV.address).textContent()) ?? '',
      /DEV\s*1,000\.000\s*\$1,500\.00/,
    )
    assert.match((await row('native').textContent()) ?? '', /ETH\s*10,000\.000\s*\$30,000,000\.00/)
    await modal().getByText('$30,011,500.00').waitFor()
    // Icons come from the service; WETH is listed but not held, so it has no row.
    assert.equal(await row(stack.market.tokens.WETH.address).count(), 0)
    assert.match(
      (await row(usdc()).locator('img').getAttribute('src')) ?? '',
      /\/public\/getTokenImage\/USDC\?/,
    )
    await axeClean(page, 'Account with tokens and USD values')
  })

  it('sends 25 USDC to another dev account through the wallet, with its USD value shown', async () => {
    const before = await usdcOf(BOB)
    await modal().getByRole('button', { name: 'Send' }).click()
    await modal().getByLabel('Token').selectOption({ label: 'USDC (10,000.000)' })
    await modal().getByText('Available: 10,000.000 USDC (≈ $10,000.00)').waitFor()
    await modal().getByLabel('Amount').fill('25')
    await modal().getByText('≈ $25.00', { exact: true }).waitFor()
    await modal().getByLabel('Receiver address').fill(BOB)
    await axeClean(page, 'Send with an ERC-20 and USD values')
    await modal().getByRole('button', { name: 'Send' }).click()
    await approve()
    await modal().getByText('Sent 25 USDC to 0x7099…79C8').waitFor()
    assert.equal((await usdcOf(BOB)) - before, parseUnits('25', 6))
    assert.equal(await usdcOf(ALICE), parseUnits('9975', 6))
    await modal().getByRole('button', { name: 'Done' }).click()
    await row(usdc()).getByText('9,975.000').waitFor()
  })

  it('Max on the native currency leaves the gas of the send', async () => {
    await modal().getByRole('button', { name: 'Send' }).click()
    await modal().getByRole('button', { name: 'Max' }).click()
    // Max asks the chain for the gas price first.
    await page.waitForFunction(
      () =>
        document
          .querySelector('wallet-modal')
          ?.shadowRoot?.querySelector<HTMLInputElement>('input[name="amount"]')?.value,
    )
    const typed = Number(await modal().getByLabel('Amount').inputValue())
    assert.ok(typed < 10_000 && typed > 9_999.99, String(typed))
    await modal().getByRole('button', { name: 'Back' }).click()
  })

  it('swaps 0.1 ETH to USDC (no approval), the quote is what arrives', async () => {
    const before = await usdcOf(ALICE)
    await modal().getByRole('button', { name: 'Swap' }).click()
    await modal().getByRole('heading', { name: 'Swap' }).waitFor()
    await focusIs(page, { inModal: true, tag: 'input' }, 'Swap opens on the amount')
    assert.equal(await modal().getByLabel('You pay').inputValue(), 'native')
    assert.equal(await modal().getByLabel('You receive').inputValue(), usdc())
    await modal().getByLabel('Amount').fill('0.1')
    await modal().getByText('Price impact').waitFor()
    await modal().getByText('Minimum received (1% slippage)').waitFor()
    await modal().getByText('Network fee').waitFor()
    const { quote } = await swapState()
    assert.ok(quote)
    assert.equal(quote.amountIn, parseEther('0.1').toString())
    await modal()
      .getByText(/^298\.\d{3} USDC \(\$298\.\d\d\)$/)
      .waitFor()
    await axeClean(page, 'Swap with a quote')
    await modal().getByRole('button', { name: 'Swap', exact: true }).click()
    await modal().getByText('Confirm the swap in your wallet').waitFor()
    await axeClean(page, 'Swap waiting for the wallet')
    await approve()
    await modal()
      .getByText(/^Swapped 0\.1 ETH for 298\.\d{3} USDC$/)
      .waitFor()
    await focusIs(page, { inModal: true, name: 'Done' }, 'the swap confirmed')
    await axeClean(page, 'Swap, swapped')
    assert.equal((await usdcOf(ALICE)) - before, BigInt(quote.amountOut))
    await modal().getByRole('button', { name: 'Done' }).click()
  })

  it('swaps 10 USDC back to ETH: approval first, then the swap, both through the wallet', async () => {
    const usdcBefore = await usdcOf(ALICE)
    const ethBefore = await chain().getBalance({ address: ALICE })
    await modal().getByRole('button', { name: 'Swap' }).click()
    await modal().getByLabel('You pay').selectOption(usdc())
    // Picking the other side's token switches the two.
    assert.equal(await modal().getByLabel('You receive').inputValue(), 'native')
    await modal().getByLabel('Amount').fill('10')
    const button = modal().getByRole('button', { name: 'Approve USDC and swap' })
    await button.waitFor()
    const { quote } = await swapState()
    assert.ok(quote)
    await button.click()
    await modal().getByText('Approve USDC in your wallet').waitFor()
    await approve()
    await modal().getByText('Confirm the swap in your wallet').waitFor()
    await approve()
    await modal()
      .getByText(/^Swapped 10 USDC for 0\.003 ETH$/)
      .waitFor()
    assert.equal(usdcBefore - (await usdcOf(ALICE)), parseUnits('10', 6))
    // ETH grew by what the quote said, less the two transactions' gas.
    const gained = (await chain().getBalance({ address: ALICE })) - ethBefore
    assert.ok(
      gained < BigInt(quote.amountOut) && gained > BigInt(quote.amountOut) - parseEther('0.001'),
      String(gained),
    )
    await modal().getByRole('button', { name: 'Done' }).click()
    // Balances were read again.
    await row(usdc())
      .getByText(formatBalance(await usdcOf(ALICE), 6), { exact: true })
      .waitFor()
  })

  it('shows "Network not supported for Swaps" on a network without a market', async () => {
    await modal()
      .getByRole('button', { name: /Local Chain\s+Network/ })
      .click()
    await modal()
      .getByRole('button', { name: /Local Chain 2/ })
      .click()
    await approve()
    await page.waitForFunction(
      () =>
        document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId === 'eip155:31338',
    )
    await modal().getByRole('button', { name: 'Swap' }).click()
    const alert = modal().getByRole('alert').getByText('Network not supported for Swaps')
    await alert.waitFor()
    assert.equal(await modal().getByLabel('Amount').count(), 0)
    await focusIs(page, { inModal: true, tag: 'h2', name: 'Swap' }, 'an unsupported network')
    await axeClean(page, 'Swap on a network without swaps')
  })

  it('the Swap view at 375 px and at 200 % zoom: nothing wider than the panel, every control reachable', async () => {
    await modal().getByRole('button', { name: 'Back' }).click()
    await modal()
      .getByRole('button', { name: /Local Chain 2\s+Network/ })
      .click()
    await modal()
      .getByRole('button', { name: /^Local Chain\b(?! 2)/ })
      .click()
    // The wallet knows the chain already: it may switch with or without asking.
    while (
      (await page.evaluate(
        () => document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId,
      )) !== 'eip155:31337'
    ) {
      await page.evaluate(() => window.demoWallet?.approve())
      await page.waitForTimeout(100)
    }
    // 375 px wide, then 1280 × 720 at 200 % (640 × 360 CSS pixels).
    for (const size of [
      { width: 375, height: 740 },
      { width: 640, height: 360 },
    ]) {
      await page.setViewportSize(size)
      await modal().getByRole('button', { name: 'Swap' }).click()
      await modal().getByLabel('Amount').fill('0.01')
      await modal().getByText('Network fee').waitFor()
      const overflow = await page.evaluate(() => {
        const root = document.querySelector('wallet-modal')?.shadowRoot
        const panel = root?.querySelector('.panel') as HTMLElement
        const body = root?.querySelector('.body') as HTMLElement
        return {
          panelFits: panel.getBoundingClientRect().right <= window.innerWidth + 0.5,
          bodyScrollsSideways: body.scrollWidth > body.clientWidth + 1,
        }
      })
      assert.deepEqual(overflow, { panelFits: true, bodyScrollsSideways: false }, JSON.stringify(size))
      const submit = modal().getByRole('button', { name: 'Swap', exact: true })
      await submit.scrollIntoViewIfNeeded()
      assert.ok(await submit.isVisible())
      await axeClean(page, `Swap at ${size.width} × ${size.height}`)
      await modal().getByRole('button', { name: 'Back' }).click()
    }
  })
})
