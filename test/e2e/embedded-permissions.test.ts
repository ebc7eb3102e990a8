import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  parseUnits,
} from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { walletAccountSessionAbi } from '../../server/embedded/walletAccount.ts'
import { axeFindings } from './axe.ts'
import { answerInFrame, connections, fundEth, modal, signInByEmail, walletFrame } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

const SWAP = 'swapExactTokensForTokens(uint256,uint256,address[],address,uint256)'
const routerAbi = parseAbi([`function ${SWAP}`])

/**
 * Smart sessions (ERC-7715 permissions): a dapp on the page asks for a permission (10 USDC a day to the
 * local market's router, for an hour); the person approves it once in the frame, in plain words; the dapp
 * swaps three times with no prompt; a fourth swap over the day's allowance is refused with the account's
 * reason and nothing moves; Account lists the permission with what it used; Revoke (approved in the frame):
 * revoked on chain, and the next swap with that context is refused.
 */
describe('embedded wallet: permissions (ERC-7715)', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const chain = () => createPublicClient({ transport: http(stack.urls.chain) })
  const usdc = () => stack.market.tokens.USDC.address
  const usdcOf = (address: Hex) =>
    chain().readContract({ address: usdc(), abi: erc20Abi, functionName: 'balanceOf', args: [address] })

  /** A request through the page's EIP-1193 provider: its result, or `{ error }` with the wallet's words. */
  const request = (method: string, params: unknown) =>
    page.evaluate(
      async ([method, params]) => {
        try {
          const result = await document
            .querySelector('wallet-modal')
            ?.getProvider('eip155')
            .request({ method: method as string, params: params as unknown[] })
          return { result }
        } catch (error) {
          const { message, code } = error as { message: string; code?: number }
          return { error: { message, code } }
        }
      },
      [method, params] as const,
    )

  /** The dapp's swap of `amount` USDC for WETH with the permission: approve the router, then swap. */
  const swap = (account: Hex, context: string, amount: bigint) =>
    request('wallet_sendCalls', [
      {
        version: '2.0.0',
        chainId: '0x7a69',
        calls: [
          {
            to: usdc(),
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: 'approve',
              args: [stack.market.uniswapV2.router, amount],
            }),
          },
          {
            to: stack.market.uniswapV2.router,
            data: encodeFunctionData({
              abi: routerAbi,
              functionName: 'swapExactTokensForTokens',
              args: [
                amount,
                0n,
                [usdc(), stack.market.tokens.WETH.address],
                account,
                BigInt(Math.floor(Date.now() / 1000) + 600),
              ],
            }),
          },
        ],
        capabilities: { permissions: { context } },
      },
    ])

  /** Waits for a batch's final status through the provider. */
  async function landed(id: string): Promise<number> {
    for (let poll = 0; poll < 100; poll++) {
      const { result } = await request('wallet_getCallsStatus', [id])
      const status = (result as { status: number } | undefined)?.status ?? 0
      if (status !== 100) return status
      await page.waitForTimeout(100)
    }
    return 100
  }

  it('grants 10 USDC a day once, swaps three times without a prompt, refuses the fourth, lists and revokes it', async () => {
    const context = await newContext(browser)
    page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await signInByEmail(page, stack, `permissions.${Date.now()}@example.com`)

    // Permissions need the smart account: the person switches to it on Account (approved in the frame).
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    await walletFrame(page).getByRole('heading', { name: 'Switch to a smart account' }).waitFor()
    await answerInFrame(page, 'Approve')
    await modal(page).locator('[part="account-type"]').getByText('Smart account', { exact: true }).waitFor()
    const account = (await connections(page)).eip155?.address as Hex
    await modal(page).getByRole('button', { name: 'Close' }).click()
    await modal(page).waitFor({ state: 'hidden' })
    await fundEth(stack, account, '1')
    const funder = createWalletClient({ account: devAccount(2), transport: http(stack.urls.chain) })
    await chain().waitForTransactionReceipt({
      hash: await funder.writeContract({
        chain: null,
        address: usdc(),
        abi: erc20Abi,
        functionName: 'transfer',
        args: [account, parseUnits('50', 6)],
      }),
    })

    // The dapp asks; the frame says what, in plain words; the person approves once.
    const asked = request('wallet_grantPermissions', [
      {
        chainId: '0x7a69',
        expiry: Math.floor(Date.now() / 1000) + 3600,
        permissions: [
          {
            type: 'erc20-token-periodic',
            data: { tokenAddress: usdc(), periodAmount: '0x989680', periodDuration: 86_400 },
          },
          { type: 'contract-call', data: { address: stack.market.uniswapV2.router, calls: [SWAP] } },
        ],
      },
    ])
    const frame = walletFrame(page)
    await frame.getByRole('heading', { name: 'Allow actions without asking' }).waitFor()
    await frame.getByText('10 USDC a day', { exact: true }).waitFor()
    await frame.getByText(stack.market.uniswapV2.router, { exact: true }).waitFor()
    await frame.getByText(SWAP, { exact: true }).waitFor()
    await frame.getByText(/Anyone in control of this site can use this permission/).waitFor()
    assert.deepEqual(await axeFindings(page, 'wallet-modal'), [])
    await answerInFrame(page, 'Approve')
    const granted = (await asked).result as { permissionsContext: string }
    assert.ok(granted?.permissionsContext, JSON.stringify(await asked))
    // Opened for the approval, the modal closes with it.
    await modal(page).waitFor({ state: 'hidden' })

    // Three swaps of 3 USDC: no approval view, no modal.
    const before = await usdcOf(account)
    for (let count = 1; count <= 3; count++) {
      const sent = await swap(account, granted.permissionsContext, parseUnits('3', 6))
      assert.ok(sent.result, `swap ${count}: ${JSON.stringify(sent)}`)
      assert.equal(await landed((sent.result as { id: string }).id), 200)
    }
    assert.equal(await modal(page).isVisible(), false, 'no prompt was shown')
    assert.equal(await usdcOf(account), before - parseUnits('9', 6))

    // The fourth would spend 12 of the day's 10: refused, nothing moves.
    const fourth = await swap(account, granted.permissionsContext, parseUnits('3', 6))
    assert.deepEqual(fourth.error, {
      message: "These calls would spend more than the permission's allowance for this period",
      code: 4100,
    })
    assert.equal(await usdcOf(account), before - parseUnits('9', 6), 'nothing moved')

    // Account lists the permission with what it used; Revoke, approved in the frame.
    await page.locator('wallet-button').getByRole('button').click()
    const listed = modal(page).locator('[data-permission]')
    await listed.first().waitFor()
    await listed
      .getByText(/10(\.000)? USDC a day/)
      .first()
      .waitFor()
    await listed
      .getByText(/Used 9(\.000)? of 10(\.000)? USDC this period/)
      .first()
      .waitFor()
    await listed.locator('[data-action="revoke-permission"]').click()
    await frame.getByRole('heading', { name: 'End a permission' }).waitFor()
    await answerInFrame(page, 'Approve')
    await listed
      .getByText(/Revoked/)
      .first()
      .waitFor()
    assert.deepEqual(await axeFindings(page, 'wallet-modal'), [])
    await modal(page).getByRole('button', { name: 'Close' }).click()

    // Revoked on chain: the account refuses the key from the next block (the service's test sends a
    // signed op with it and sees the chain refuse it); the frame has forgotten the key, so the next swap
    // with that context is refused before anything is signed, and nothing moves.
    const revoked = await chain().readContract({
      address: account,
      abi: walletAccountSessionAbi,
      functionName: 'isSessionRevoked',
      args: [granted.permissionsContext as Hex],
    })
    assert.equal(revoked, true)
    const after = await swap(account, granted.permissionsContext, parseUnits('1', 6))
    assert.deepEqual(after.error, {
      message: 'This site holds no permission of that context here',
      code: 4100,
    })
    assert.equal(await usdcOf(account), before - parseUnits('9', 6))
  })
})
