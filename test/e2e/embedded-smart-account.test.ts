import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  isErc6492Signature,
  parseEther,
  toHex,
} from 'viem'
import { entryPoint08Address } from 'viem/account-abstraction'
import { devAccount } from '../../server/dev/chain/index.ts'
import { walletAccountAbi } from '../../server/embedded/walletAccount.ts'
import { axeFindings } from './axe.ts'
import {
  answerInFrame,
  codeOf,
  connections,
  modal,
  nextMail,
  putOffRecovery,
  signInByEmail,
  submitEmail,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

type Detail = { address: string; accountType?: string; smartAccountDeployed?: boolean; namespace: string }

/**
 * The embedded wallet's account type on Account: an e-mail user switches to a smart account
 * and back (the local chain has the bundler), with the type and the deployed flag shown and in the
 * `wallet-connect` / `wallet-account-change` details; on the second local chain (no bundler) the
 * switch answers `This application might not support Smart Accounts`, red and announced, and the EOA stays.
 */
describe('embedded wallet: EOA and smart account on Account', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page
  // The signed-in smart account of the SIWX test, deployed and funded, reused by the batch tests.
  let siwxPage: Page
  let smartAddress: Hex

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const events = (name: string) =>
    page.evaluate((type) => (window as unknown as { seen: Record<string, Detail[]> }).seen[type] ?? [], name)
  const evmAddress = async () => (await connections(page)).eip155?.address

  it('switches an e-mail user to a smart account on Account and back; the events say which', async () => {
    const context = await newContext(browser)
    page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await page.evaluate(() => {
      const element = document.querySelector('wallet-modal')
      element?.setAttribute('networks', 'eip155:31337,eip155:31338')
      const seen: Record<string, unknown[]> = {}
      ;(window as unknown as { seen: typeof seen }).seen = seen
      for (const type of ['wallet-connect', 'wallet-account-change'])
        element?.addEventListener(type, (event) => {
          seen[type] = [...(seen[type] ?? []), (event as CustomEvent).detail]
        })
    })
    const email = `smart.${Date.now()}@example.com`
    await signInByEmail(page, stack, email)
    const eoa = await evmAddress()
    const [connected] = await events('wallet-connect')
    assert.deepEqual(
      [connected?.address, connected?.accountType, connected?.smartAccountDeployed],
      [eoa, 'eoa', false],
    )

    await page.locator('wallet-button').getByRole('button').click()
    const type = modal(page).locator('[part="account-type"]')
    await type.getByText('EOA', { exact: true }).waitFor()
    // The switch is the person's to approve in the wallet frame, whichever frame asked: it shows the
    // account requests use now and the one they will use; rejected, nothing changes.
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    const asked = walletFrame(page).locator('[data-account-type-switch="smartAccount"]')
    await walletFrame(page).getByRole('heading', { name: 'Switch to a smart account' }).waitFor()
    await asked.getByText(eoa ?? '', { exact: true }).waitFor()
    await answerInFrame(page, 'Reject')
    await type.getByText('EOA', { exact: true }).waitFor()
    assert.equal(await modal(page).getByRole('alert').filter({ hasText: /\S/ }).count(), 0)
    assert.equal(await evmAddress(), eoa)
    assert.equal((await events('wallet-account-change')).length, 0)

    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    await walletFrame(page).getByRole('heading', { name: 'Switch to a smart account' }).waitFor()
    const shownNext = await asked.locator('strong').textContent()
    await answerInFrame(page, 'Approve')
    await type.getByText('Smart account', { exact: true }).waitFor()
    await type.getByText('Not deployed yet: your first transaction deploys it').waitFor()
    const smart = await evmAddress()
    assert.notEqual(smart, eoa)
    // What the frame showed is the account now in use.
    assert.equal(shownNext, smart)
    const [changed] = await events('wallet-account-change')
    assert.deepEqual(
      [changed?.address, changed?.accountType, changed?.smartAccountDeployed],
      [smart, 'smartAccount', false],
    )
    assert.deepEqual(await axeFindings(page, 'wallet-modal'), [])

    await modal(page).getByRole('button', { name: 'Switch to the EOA' }).click()
    await walletFrame(page).getByRole('heading', { name: 'Switch to the EOA' }).waitFor()
    await answerInFrame(page, 'Approve')
    await type.getByText('EOA', { exact: true }).waitFor()
    assert.equal(await evmAddress(), eoa)
    const back = (await events('wallet-account-change')).at(-1)
    assert.deepEqual([back?.address, back?.accountType], [eoa, 'eoa'])
  })

  it('error: on a network without a bundler: the account type follows the network (EOA there), and the switch answers This application might not support Smart Accounts', async () => {
    const eoa = await evmAddress()
    // On a smart account, then to the network without a bundler: the EOA there, shown at once.
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    await answerInFrame(page, 'Approve')
    await modal(page).locator('[part="account-type"]').getByText('Smart account', { exact: true }).waitFor()
    const smart = await evmAddress()
    await modal(page)
      .getByRole('button', { name: /Local Chain\s+Network/ })
      .click()
    await modal(page)
      .getByRole('button', { name: /Local Chain 2/ })
      .click()
    await page.waitForFunction(
      () =>
        document.querySelector('wallet-modal')?.walletConfig.$network.get()?.caipNetworkId === 'eip155:31338',
    )
    if (!(await modal(page).locator('[part="account-type"]').count()))
      await page.locator('wallet-button').getByRole('button').click()
    await modal(page).locator('[part="account-type"]').getByText('EOA', { exact: true }).waitFor()
    assert.equal(await evmAddress(), eoa)
    const moved = (await events('wallet-account-change')).at(-1)
    assert.deepEqual([moved?.address, moved?.accountType], [eoa, 'eoa'])
    assert.notEqual(smart, eoa)
    await modal(page).getByRole('button', { name: 'Switch to a smart account' }).click()
    await modal(page)
      .getByRole('alert')
      .filter({ hasText: 'This application might not support Smart Accounts' })
      .waitFor()
    await modal(page).locator('[part="account-type"]').getByText('EOA', { exact: true }).waitFor()
    assert.equal(await evmAddress(), eoa)
    assert.deepEqual(await axeFindings(page, 'wallet-modal'), [])
  })

  it('sign-in (SIWX) with a smart account: EIP-6492 before deployment, EIP-1271 after the first send; the service and viem accept both; eth_sendUserOperation approved in the frame', async () => {
    const context = await newContext(browser)
    siwxPage = await context.newPage()
    const chain = createPublicClient({ transport: http(stack.urls.chain, { retryCount: 0 }) })
    // Before the page's scripts, on every load: required sign-in, smart accounts for new users.
    await context.addInitScript(() => {
      const observer = new MutationObserver(() => {
        const element = document.querySelector('wallet-modal')
        if (!element) return
        observer.disconnect()
        element.setAttribute('siwx', 'required')
        element.setAttribute('default-account-type', 'smartAccount')
        element.addEventListener('wallet-connect', (event) => {
          ;(window as unknown as { connected: unknown }).connected = (event as CustomEvent).detail
        })
      })
      observer.observe(document, { childList: true, subtree: true })
    })
    await siwxPage.goto(new URL('/dapp.html', stack.urls.demo).href)
    const email = `smart.siwx.${Date.now()}@example.com`
    await submitEmail(siwxPage, email)
    await modal(siwxPage)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, 0)))
    await putOffRecovery(siwxPage)
    const signIn = async () => {
      await modal(siwxPage)
        .getByRole('heading', { name: /^Sign in to 127\.0\.0\.1:/ })
        .waitFor()
      await modal(siwxPage).getByRole('button', { name: 'Sign in' }).click()
      await walletFrame(siwxPage)
        .getByText(/wants you to sign in with your Ethereum account/)
        .waitFor()
      await answerInFrame(siwxPage, 'Approve')
      await modal(siwxPage).waitFor({ state: 'detached' })
      const session = await siwxPage.evaluate(() => document.querySelector('wallet-modal')?.getSession())
      assert.ok(session, 'the service verified the signature and issued a session')
      return { message: session.message, signature: session.signature as Hex }
    }

    const before = await signIn()
    const address = (await connections(siwxPage)).eip155?.address as Hex
    const connected = await siwxPage.evaluate(() => (window as unknown as { connected: Detail }).connected)
    assert.deepEqual([connected.address, connected.accountType], [address, 'smartAccount'])
    assert.ok(before.message.includes(address))
    assert.ok(isErc6492Signature(before.signature), 'signed before the account exists: EIP-6492')
    assert.equal(await chain.getCode({ address }), undefined)
    assert.equal(await chain.verifyMessage({ address, ...before }), true)

    // The first send deploys the account.
    await chain.request({ method: 'hardhat_setBalance', params: [address, toHex(parseEther('1'))] } as never)
    const sent = siwxPage.evaluate((to) => window.dapp.sendEth(to, '0.01'), devAccount(6).address)
    await answerInFrame(siwxPage, 'Approve')
    assert.equal((await sent).status, 'success')
    assert.ok((await chain.getCode({ address }))?.length, 'deployed')

    // The site forgets the session; the reload asks to sign in again, now as a deployed account.
    await siwxPage.evaluate(() => localStorage.removeItem('@wallet-elements/siwx-auth-token'))
    await siwxPage.reload()
    const after = await signIn()
    assert.equal(isErc6492Signature(after.signature), false, 'a deployed account signs plain EIP-1271')
    assert.equal(await chain.verifyMessage({ address, ...after }), true)

    // eth_sendUserOperation from the page: the frame shows each call it carries; the service signs it.
    const receiver = devAccount(7).address
    const callData = encodeFunctionData({
      abi: walletAccountAbi,
      functionName: 'executeBatch',
      args: [
        [
          { target: receiver, value: 5n, data: '0x' },
          { target: receiver, value: 6n, data: '0x' },
        ],
      ],
    })
    const userOpHash = siwxPage.evaluate(
      ([sender, data, entryPoint]) =>
        document
          .querySelector('wallet-modal')
          ?.getProvider()
          .request({ method: 'eth_sendUserOperation', params: [{ sender, callData: data }, entryPoint] }),
      [address, callData, entryPoint08Address] as const,
    )
    await walletFrame(siwxPage).getByRole('heading', { name: 'Approve calls' }).waitFor()
    await walletFrame(siwxPage).getByRole('heading', { name: 'Call 2' }).waitFor()
    const receivedBefore = await chain.getBalance({ address: receiver })
    await answerInFrame(siwxPage, 'Approve')
    assert.match(String(await userOpHash), /^0x[0-9a-f]{64}$/)
    for (
      let poll = 0;
      poll < 100 && (await chain.getBalance({ address: receiver })) === receivedBefore;
      poll++
    )
      await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal((await chain.getBalance({ address: receiver })) - receivedBefore, 11n)
    smartAddress = address
  })

  /** `wallet_sendCalls` from the page's EIP-1193 provider (the batch's id, or the error it is refused with). */
  const sendCalls = (calls: { to: Hex; value?: Hex; data?: Hex }[]) =>
    siwxPage.evaluate(
      ([from, batch]) =>
        document
          .querySelector('wallet-modal')
          ?.getProvider('eip155')
          .request({
            method: 'wallet_sendCalls',
            params: [{ version: '2.0.0', from, atomicRequired: true, calls: batch }],
          })
          .then(
            (answer) => ({ id: (answer as { id: string }).id }),
            (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
          ),
      [smartAddress, calls] as const,
    )
  /** `wallet_getCallsStatus` until the batch is no longer pending (100). */
  const settledStatus = async (id: string) => {
    for (let poll = 0; poll < 100; poll++) {
      const status = (await siwxPage.evaluate(
        (batch) =>
          document
            .querySelector('wallet-modal')
            ?.getProvider('eip155')
            .request({ method: 'wallet_getCallsStatus', params: [batch] }),
        id,
      )) as { status: number; atomic: boolean; receipts: { status: string; transactionHash: string }[] }
      if (status.status !== 100) return status
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`The batch ${id} stayed pending`)
  }

  it('wallet_sendCalls of an ETH transfer and a USDC approval: the frame shows both calls, the batch lands atomically and is confirmed with receipts; a failing second call reverts the first', async () => {
    const chain = createPublicClient({ transport: http(stack.urls.chain, { retryCount: 0 }) })
    const usdc = stack.market.tokens.USDC.address
    const [receiver, spender] = [devAccount(8).address, devAccount(3).address]
    const allowance = () =>
      chain.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [smartAddress, spender],
      })
    const receivedBefore = await chain.getBalance({ address: receiver })
    assert.equal(await allowance(), 0n)

    const sent = sendCalls([
      { to: receiver, value: toHex(parseEther('0.02')) },
      {
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 1_234_567n] }),
      },
    ])
    await walletFrame(siwxPage).getByRole('heading', { name: 'Approve calls' }).waitFor()
    for (const index of [1, 2]) {
      await walletFrame(siwxPage)
        .getByRole('heading', { name: `Call ${index}` })
        .waitFor()
    }
    await walletFrame(siwxPage).getByText(receiver).waitFor()
    // The approval inside the batch is named: the token (also the second call's receiver) and the spender.
    await walletFrame(siwxPage).getByRole('heading', { name: 'Approval (ERC-20)' }).waitFor()
    assert.equal(await walletFrame(siwxPage).getByText(usdc).count(), 2)
    await walletFrame(siwxPage).getByText(spender).first().waitFor()
    await walletFrame(siwxPage).getByText('0.02 ETH').waitFor()
    await walletFrame(siwxPage).getByText('68 bytes of contract data').waitFor()
    await answerInFrame(siwxPage, 'Approve')
    const { id } = (await sent) as { id: string }
    assert.match(String(id), /^0x[0-9a-f]{64}$/)
    const confirmed = await settledStatus(id)
    assert.deepEqual([confirmed.status, confirmed.atomic, confirmed.receipts.length], [200, true, 1])
    assert.equal(confirmed.receipts[0]?.status, '0x1')
    assert.equal((await chain.getBalance({ address: receiver })) - receivedBefore, parseEther('0.02'))
    assert.equal(await allowance(), 1_234_567n)

    // Both or neither: the second call (a USDC transfer the account cannot cover) reverts, and the first
    // call's ETH stays where it was.
    const receivedBetween = await chain.getBalance({ address: receiver })
    const failing = sendCalls([
      { to: receiver, value: toHex(parseEther('0.03')) },
      {
        to: usdc,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [receiver, 1_000_000n] }),
      },
    ])
    await walletFrame(siwxPage).getByRole('heading', { name: 'Call 2' }).waitFor()
    await answerInFrame(siwxPage, 'Approve')
    // Refused before it reaches the chain, with the reason (the token's ERC20InsufficientBalance).
    assert.deepEqual(await failing, {
      code: -32521,
      message: "The UserOperation's calls revert: call 1 of the batch: error 0xe450d38c",
    })
    assert.equal(await chain.getBalance({ address: receiver }), receivedBetween)
    assert.equal(await allowance(), 1_234_567n)
  })

  it('error: the bundler being down: the page’s send fails with a clear message, the modal stays usable, nothing is lost; once it is back a send works', async () => {
    const chain = createPublicClient({ transport: http(stack.urls.chain, { retryCount: 0 }) })
    const receiver = devAccount(9).address
    const receivedBefore = await chain.getBalance({ address: receiver })
    const balanceBefore = await chain.getBalance({ address: smartAddress })
    await stack.restartBundler(async () => {
      const sent = siwxPage.evaluate(
        ([from, to]) =>
          document
            .querySelector('wallet-modal')
            ?.getProvider('eip155')
            .request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x8e1bc9bf040000' }] })
            .then(
              () => 'sent',
              (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
            ),
        [smartAddress, receiver] as const,
      )
      await walletFrame(siwxPage).getByText('0.04 ETH').waitFor()
      await answerInFrame(siwxPage, 'Approve')
      // A clear error (-32603, as the RPC proxy answers), not a rejection, and nothing left the account.
      const failed = await sent
      assert.ok(typeof failed === 'object', 'the send failed')
      assert.equal(failed.code, -32603)
      assert.match(String(failed.message), /The bundler for eip155:31337 is unreachable/)
      assert.equal(await chain.getBalance({ address: receiver }), receivedBefore)
      assert.equal(await chain.getBalance({ address: smartAddress }), balanceBefore)
      // The modal still opens on Account, the smart account shown.
      await siwxPage.locator('wallet-button').getByRole('button').click()
      await modal(siwxPage)
        .locator('[part="account-type"]')
        .getByText('Smart account', { exact: true })
        .waitFor()
      await modal(siwxPage).getByRole('button', { name: 'Close' }).click()
      await modal(siwxPage).waitFor({ state: 'detached' })
    })
    const sent = siwxPage.evaluate((to) => window.dapp.sendEth(to, '0.04'), receiver)
    await walletFrame(siwxPage).getByText('0.04 ETH').waitFor()
    await answerInFrame(siwxPage, 'Approve')
    assert.equal((await sent).status, 'success')
    assert.equal((await chain.getBalance({ address: receiver })) - receivedBefore, parseEther('0.04'))
  })
})
