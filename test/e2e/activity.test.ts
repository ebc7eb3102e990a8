import assert from 'node:assert/strict'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  parseEther,
  parseUnits,
} from 'viem'
import { historyNetworks } from '../../server/db/schema.ts'
import { devAccount } from '../../server/dev/chain/index.ts'
import { type TransactionsResponse, transactionsResponse } from '../../src/protocol/api/history.ts'
import {
  axeClean,
  connectDemoWallet,
  focusIs,
  launchBrowser,
  newContext,
  startTestStack,
  type TestStack,
} from './harness.ts'

const alice = devAccount(0)
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const local = 'eip155:31337'
const routerAbi = parseAbi([
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
])

/**
 * Account's Activity list end to end: the companion service indexes the local chain itself; the list
 * shows the sends and swaps made before it opened, newest first, reads the next page by cursor as the
 * visitor scrolls, says `Failed to fetch transactions` while the service is down, and after the
 * service restarts (same data folder) shows every transaction once.
 */
describe('Activity on Account end to end', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page
  let dataDir: string
  const hashes: Hex[] = []

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'activity-e2e-'))
    ;[stack, browser] = await Promise.all([
      startTestStack({ serviceDataDir: path.join(dataDir, 'service') }),
      launchBrowser(),
    ])
    page = await (await newContext(browser)).newPage()
    await page.goto(stack.urls.demo)
    await connectDemoWallet(page)
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  const modal = () => page.locator('wallet-modal').getByRole('dialog')
  const approve = () => page.locator('[data-demo-wallet="approve"]').click()
  const rows = () => modal().locator('[data-transaction]')
  const shownHashes = () =>
    rows().evaluateAll((items) => items.map((item) => item.getAttribute('data-transaction') ?? ''))
  const wallet = () =>
    createWalletClient({
      account: alice,
      chain: {
        id: 31337,
        name: 'Local',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [stack.urls.chain] } },
      },
      transport: http(stack.urls.chain, { retryCount: 0 }),
    })
  /** The whole history as the service's API pages it (what the list must show, in order). */
  async function apiHistory(): Promise<string[]> {
    const all: string[] = []
    let cursor: string | null = null
    do {
      const url = new URL('/blockchain/v1/transactions', stack.urls.service)
      url.search = new URLSearchParams({
        projectId: 'dev-project',
        st: 'wallet-elements',
        sv: '0.1.0',
        chainId: local,
        account: alice.address,
        ...(cursor ? { cursor } : {}),
      }).toString()
      const response = await fetch(url, { headers: { origin: new URL(stack.urls.demo).origin } })
      assert.equal(response.status, 200)
      const body: TransactionsResponse = transactionsResponse.parse(await response.json())
      all.push(...body.data.map((transaction) => transaction.metadata.hash))
      cursor = body.next
    } while (cursor)
    return all
  }
  /** Waits until the service has indexed the local chain up to its head. */
  async function indexed(): Promise<void> {
    const head = Number(await createPublicClient({ transport: http(stack.urls.chain) }).getBlockNumber())
    // Bounded, so a stuck indexer fails this test in a minute instead of holding the suite.
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const rows = await stack.serviceDatabase?.db.select().from(historyNetworks)
      if (rows?.some((row) => row.chainId === local && row.nextBlock > head)) return
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`Timed out waiting for the indexer to pass block ${head}`)
  }
  /** Back to Account from a view one level down, so the list reads its first page again. */
  async function reopenAccount(): Promise<void> {
    await modal()
      .getByRole('button', { name: /Local Chain\s+Network/ })
      .click()
    await modal().getByRole('button', { name: 'Back' }).click()
  }

  it('shows a send made in the modal and a swap and token transfer made before, newest first, with amounts, counterparty and time', async () => {
    await modal().getByRole('button', { name: 'Send' }).click()
    await modal().getByLabel('Token').selectOption('native')
    await modal().getByLabel('Amount').fill('1.5')
    await modal().getByLabel('Receiver address').fill(BOB)
    await modal().getByRole('button', { name: 'Send' }).click()
    await approve()
    await modal().getByText('Sent 1.5 ETH to 0x7099…79C8').waitFor()
    const client = wallet()
    hashes.push(
      await client.writeContract({
        address: stack.market.uniswapV2.router,
        abi: routerAbi,
        functionName: 'swapExactETHForTokens',
        args: [
          0n,
          [stack.market.tokens.WETH.address, stack.market.tokens.USDC.address],
          alice.address,
          2n ** 40n,
        ],
        value: parseEther('0.1'),
      }),
    )
    hashes.push(
      await client.writeContract({
        address: stack.market.tokens.USDC.address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [BOB, parseUnits('12.5', 6)],
      }),
    )
    await indexed()
    await modal().getByRole('button', { name: 'Done' }).click()
    await modal().getByRole('heading', { name: 'Activity' }).waitFor()
    // The list may first show what was read before the last two landed, then refresh while open:
    // the order is checked once the newest is there.
    await modal().locator(`[data-transaction="${hashes[1]}"]`).waitFor()
    const [usdc, swap, send] = [rows().nth(0), rows().nth(1), rows().nth(2)]
    assert.equal(await usdc.getAttribute('data-transaction'), hashes[1])
    assert.equal(await swap.getAttribute('data-transaction'), hashes[0])
    assert.match((await usdc.textContent()) ?? '', /^Sent−12\.500 USDCTo 0x7099…79C8/)
    assert.match((await swap.textContent()) ?? '', /^Swapped−0\.100 ETH, \+\d+\.\d{3} USDC/)
    assert.equal(await send.getAttribute('data-operation'), 'send')
    assert.match((await send.textContent()) ?? '', /^Sent−1\.500 ETHTo 0x7099…79C8/)
    // The time, as a machine-readable <time> and in words.
    const time = send.locator('time')
    assert.ok(!Number.isNaN(Date.parse((await time.getAttribute('datetime')) ?? '')))
    assert.match((await time.textContent()) ?? '', /\d{4}/)
    await axeClean(page, 'Account with Activity')
  })

  it('the starting USDC and DEV of dev account 0 (from the market) are receipts, not purchases', async () => {
    await indexed()
    const query = async (extra: Record<string, string>) => {
      const url = new URL('/blockchain/v1/transactions', stack.urls.service)
      url.search = new URLSearchParams({
        projectId: 'dev-project',
        st: 'wallet-elements',
        sv: '0.1.0',
        chainId: local,
        account: alice.address,
        ...extra,
      }).toString()
      const response = await fetch(url, { headers: { origin: new URL(stack.urls.demo).origin } })
      assert.equal(response.status, 200)
      return transactionsResponse.parse(await response.json())
    }
    // Nothing was bought through the on-ramp: its list is empty.
    assert.deepEqual((await query({ onramp: 'true' })).data, [])
    // The oldest entries are the market's funding of the account: received, with what came in.
    const all: TransactionsResponse['data'] = []
    let cursor: string | null = null
    do {
      const page: TransactionsResponse = await query(cursor ? { cursor } : {})
      all.push(...page.data)
      cursor = page.next
    } while (cursor)
    const funding = all.slice(-2)
    assert.deepEqual(
      funding.map((transaction) => transaction.metadata.operationType),
      ['receive', 'receive'],
    )
  })

  it('reads the next page by cursor as the list scrolls into view, in the API order, nothing twice', async () => {
    // 40 more sends: the history is three pages of 20.
    const client = wallet()
    for (let index = 0; index < 40; index++)
      await client.sendTransaction({ to: BOB, value: parseEther('0.001') + BigInt(index) })
    await indexed()
    await reopenAccount()
    await modal().getByRole('heading', { name: 'Activity' }).waitFor()
    await page.waitForFunction(
      () =>
        (document.querySelector('wallet-modal')?.shadowRoot?.querySelectorAll('[data-transaction]').length ??
          0) >= 20,
    )
    const expected = await apiHistory()
    assert.ok(expected.length > 40, `${expected.length} transactions`)
    assert.deepEqual(await shownHashes(), expected.slice(0, 20), 'the first page')
    // Scrolling to the end of the list reads the next page (the "Show more" button is its end).
    await modal().getByRole('button', { name: 'Show more' }).scrollIntoViewIfNeeded()
    await page.waitForFunction(
      () =>
        (document.querySelector('wallet-modal')?.shadowRoot?.querySelectorAll('[data-transaction]').length ??
          0) >= 40,
    )
    assert.deepEqual(await shownHashes(), expected.slice(0, 40), 'two pages, in order')
    // Keyboard: Tab reaches "Show more", which reads the page after.
    await modal().getByRole('button', { name: 'Show more' }).focus()
    await focusIs(page, { inModal: true, name: 'Show more' }, 'the end of the list')
    await page.keyboard.press('Enter')
    await page.waitForFunction(
      (count) =>
        (document.querySelector('wallet-modal')?.shadowRoot?.querySelectorAll('[data-transaction]').length ??
          0) >= count,
      expected.length,
    )
    assert.deepEqual(await shownHashes(), expected, 'the whole history, in order, nothing twice')
    // The last page has no next: nothing more to read.
    assert.equal(await modal().getByRole('button', { name: 'Show more' }).count(), 0)
  })

  it('says "Failed to fetch transactions" while the service is down; after its restart, every transaction once', async () => {
    const before = await apiHistory()
    const client = wallet()
    await stack.restartService(async () => {
      // Sent while the service is down: indexed when it is back, from where it stopped.
      hashes.push(await client.sendTransaction({ to: BOB, value: parseEther('0.02') }))
      await reopenAccount()
      const alert = modal().getByRole('alert').getByText('Failed to fetch transactions')
      await alert.waitFor()
      assert.equal(await rows().count(), 0, 'the error is the empty state')
      await axeClean(page, 'Activity, failed to fetch')
    })
    await indexed()
    await modal().getByRole('button', { name: 'Try again' }).click()
    await rows().first().waitFor()
    const after = await apiHistory()
    assert.deepEqual(after, [hashes[hashes.length - 1], ...before], 'one new transaction, nothing twice')
    assert.equal(new Set(after).size, after.length)
    assert.deepEqual(await shownHashes(), after.slice(0, 20))
  })

  it('the Activity list at 375 px, at 200 % zoom and right to left: nothing wider than the panel', async () => {
    for (const size of [
      { width: 375, height: 740 },
      { width: 640, height: 360 },
    ]) {
      await page.setViewportSize(size)
      await rows().first().scrollIntoViewIfNeeded()
      const overflow = await page.evaluate(() => {
        const root = document.querySelector('wallet-modal')?.shadowRoot
        const panel = root?.querySelector('.panel') as HTMLElement
        const body = root?.querySelector('.body') as HTMLElement
        const row = root?.querySelector('[data-transaction]') as HTMLElement
        return {
          panelFits: panel.getBoundingClientRect().right <= window.innerWidth + 0.5,
          bodyScrollsSideways: body.scrollWidth > body.clientWidth + 1,
          rowFits: row.getBoundingClientRect().right <= panel.getBoundingClientRect().right + 0.5,
        }
      })
      assert.deepEqual(
        overflow,
        { panelFits: true, bodyScrollsSideways: false, rowFits: true },
        JSON.stringify(size),
      )
      await axeClean(page, `Activity at ${size.width} × ${size.height}`)
    }
    await page.setViewportSize({ width: 1280, height: 720 })
    // Arabic: the list's own catalogue, right to left, the addresses kept left to right.
    await page.evaluate(() => document.querySelector('wallet-modal')?.setAttribute('locale', 'ar'))
    await modal().getByRole('heading', { name: 'النشاط' }).waitFor()
    const first = rows().first()
    assert.match((await first.textContent()) ?? '', /^تم الإرسال/)
    assert.equal(await modal().evaluate((dialog) => getComputedStyle(dialog).direction), 'rtl')
    assert.match((await first.locator('bdi[title]').textContent()) ?? '', /0x7099…79C8/)
    await axeClean(page, 'Activity in Arabic')
  })
})
