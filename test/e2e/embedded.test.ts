import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { encodeFunctionData, erc20Abi, type Hex, maxUint256, verifyMessage } from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { devKeypair } from '../../server/dev/solana/keys.ts'
import { axeFindings, focused, sweep } from './axe.ts'
import {
  answerInFrame,
  closedAfterSignIn,
  codeOf,
  connections,
  deviceLinkOf,
  fundEth,
  inbox,
  modal,
  nextMail,
  sendWithApproval,
  submitEmailPastCooldown,
  walletFrame,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * The embedded wallet end to end on the local stack: e-mail, code from the dev inbox, connected on
 * EVM and Solana, a message signed and 1 ETH and 0.5 SOL sent on the local chains with approval in the
 * frame, a rejection answering 4001, a reload that stays connected, a fresh browser that has to be
 * approved by the mailed link (with the code it shows), an e-mail update with both codes, and disconnect. On the way every view
 * is checked as a person meets it: focus moves to it, errors are announced, axe finds nothing in light
 * and dark, on a desktop and at 375 px, and at 200 % zoom it fits (`sweep`).
 */
describe('embedded wallet (e-mail)', { timeout: 300_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const email = `ada.${Date.now()}@example.com`
  const newEmail = `ada.new.${Date.now()}@example.com`
  let context: BrowserContext
  let page: Page
  let evmAddress: Hex
  let solanaAddress: string

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const dappUrl = () => new URL('/dapp.html', stack.urls.demo).href
  const solanaRpc = async (method: string, params: unknown[]) => {
    const response = await fetch(stack.urls.solana, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    return ((await response.json()) as { result: unknown }).result
  }
  const lamports = async (address: string) =>
    ((await solanaRpc('getBalance', [address, { commitment: 'confirmed' }])) as { value: number }).value

  it('signs in with a code from the dev inbox: connected on EVM and Solana, the e-mail on Account', async () => {
    context = await newContext(browser)
    page = await context.newPage()
    await page.goto(dappUrl())
    // By keyboard, Connect opens on the e-mail field (no browser wallet here to come first).
    await page.getByRole('button', { name: 'Connect Wallet' }).focus()
    await page.keyboard.press('Enter')
    const field = modal(page).getByLabel('Email')
    await field.waitFor()
    assert.match(await focused(page), /^input Email/)
    assert.deepEqual(await sweep(page, 'Connect with e-mail'), [])
    // A malformed address: red, announced, the field marked; nothing is sent.
    await field.fill('ada@example')
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
    await modal(page).getByRole('alert').filter({ hasText: 'Invalid email address' }).waitFor()
    assert.equal(await field.getAttribute('aria-invalid'), 'true')
    assert.deepEqual(await sweep(page, 'Connect, invalid e-mail'), [])
    assert.equal((await inbox(stack, 'ada@example')).length, 0)
    await field.fill(email)
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
    await modal(page).getByRole('heading', { name: 'Enter the code' }).waitFor()
    await modal(page).getByLabel('Code').waitFor()
    assert.match(await focused(page), /^input Code/)
    const mail = await nextMail(stack, email, 0)
    assert.match(mail.subject, /^\d{6} is your sign-in code$/)
    assert.deepEqual(await sweep(page, 'EmailVerifyOtp'), [])
    // A wrong code: announced with the tries left; the right one still works after it.
    const code = codeOf(mail)
    await modal(page)
      .getByLabel('Code')
      .fill(code === '000000' ? '111111' : '000000')
    await modal(page).getByRole('alert').filter({ hasText: 'Invalid code: 4 tries left' }).waitFor()
    assert.deepEqual(await sweep(page, 'EmailVerifyOtp, wrong code'), [])
    // A pasted code with a space works (it is typed in one go here, as a paste would).
    await modal(page)
      .getByLabel('Code')
      .fill(`${code.slice(0, 3)} ${code.slice(3)}`)
    await closedAfterSignIn(page)
    const state = await connections(page)
    assert.equal(state.eip155?.status, 'connected')
    assert.equal(state.solana?.status, 'connected')
    evmAddress = state.eip155?.address as Hex
    solanaAddress = state.solana?.address ?? ''
    assert.match(evmAddress, /^0x[0-9a-fA-F]{40}$/)
    assert.match(solanaAddress, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/)

    await page.locator('wallet-button').getByRole('button').click()
    // The e-mail on Account is drawn by the wallet frame: the page never has it.
    await walletFrame(page).getByText(email).waitFor()
    await walletFrame(page).getByText('Signed in with').waitFor()
    await modal(page).getByRole('button', { name: 'Close' }).click()
  })

  it('signs a message and sends 1 ETH and 0.5 SOL with viem and web3.js, each approved in the frame', async () => {
    await fundEth(stack, evmAddress, '3')
    await solanaRpc('requestAirdrop', [solanaAddress, 2_000_000_000])
    for (let attempt = 0; attempt < 50 && (await lamports(solanaAddress)) === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100))

    // A message: the frame shows its text; Approve signs in the service.
    const signature = page.evaluate(() => window.dapp.signMessage('Hello from the dapp'))
    await modal(page).getByRole('heading', { name: 'Approve request' }).waitFor()
    await walletFrame(page).getByText('Hello from the dapp').waitFor()
    // The frame takes focus; axe checks the modal and, inside the frame's own origin, the request.
    assert.match(await focused(page), /^iframe/)
    const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
    assert.ok(frame, 'the wallet frame')
    assert.deepEqual(await sweep(page, 'ApproveTransaction', { frame }), [])
    // By keyboard: Tab inside the frame goes through the message (it scrolls), Reject and Approve; from
    // the dialog's controls Tab enters the frame.
    const order: (string | undefined)[] = []
    for (let step = 0; step < 3; step++) {
      await page.keyboard.press('Tab')
      order.push(await frame?.evaluate(() => document.activeElement?.textContent ?? undefined))
    }
    assert.deepEqual(order, ['Hello from the dapp', 'Reject', 'Approve'])
    await modal(page).getByRole('button', { name: 'Close' }).focus()
    await page.keyboard.press('Tab')
    assert.match(await focused(page), /^iframe/)
    await answerInFrame(page, 'Approve')
    assert.ok(
      await verifyMessage({
        address: evmAddress,
        message: 'Hello from the dapp',
        signature: await signature,
      }),
    )
    await modal(page).waitFor({ state: 'detached' })

    // 1 ETH: receiver, amount and network in plain words.
    await sendWithApproval(page, stack, devAccount(5).address, '1')

    // 0.5 SOL with web3.js.
    const solReceiver = devKeypair(1).publicKey.toBase58()
    const solBefore = await lamports(solReceiver)
    const solSent = page.evaluate((to) => window.dapp.sendSol(to, 0.5), solReceiver)
    await walletFrame(page).getByText('0.5 SOL').waitFor()
    await answerInFrame(page, 'Approve')
    assert.match(await solSent, /^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
    for (let attempt = 0; attempt < 50 && (await lamports(solReceiver)) === solBefore; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(await lamports(solReceiver), solBefore + 500_000_000)
  })

  it('reject in the frame answers 4001 to the page; the frame speaks the modal’s language', async () => {
    await page.evaluate(() => document.querySelector('wallet-modal')?.setAttribute('locale', 'de'))
    const rejected = page.evaluate(() =>
      window.dapp.signMessage('Do not sign').then(
        () => 'signed',
        (error: { code?: number; cause?: { code?: number } }) => error.code ?? error.cause?.code,
      ),
    )
    await walletFrame(page).getByRole('heading', { name: 'Diese Nachricht signieren' }).waitFor()
    await walletFrame(page).getByRole('button', { name: 'Ablehnen' }).click()
    assert.equal(await rejected, 4001)
    await modal(page).waitFor({ state: 'detached' })
    await page.evaluate(() => document.querySelector('wallet-modal')?.removeAttribute('locale'))
  })

  it('an unlimited token approval is shown decoded in the frame: "Unlimited", the spender and a plain warning', async () => {
    const spender = devAccount(6).address
    const token = devAccount(7).address
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] })
    type Provider = { request(args: { method: string; params: unknown[] }): Promise<unknown> }
    const rejected = page.evaluate(
      ([from, to, input]) =>
        (document.querySelector('wallet-modal') as unknown as { getProvider(name: string): Provider })
          .getProvider('eip155')
          .request({ method: 'eth_sendTransaction', params: [{ from, to, data: input }] })
          .then(
            () => 'sent',
            (error: { code?: number; cause?: { code?: number } }) => error.code ?? error.cause?.code,
          ),
      [evmAddress, token, data] as const,
    )
    // Not "To: token, 0 ETH, Data: 68 bytes" alone: what the data does, in plain words, as an approval.
    await walletFrame(page).getByRole('heading', { name: 'Approval (ERC-20)' }).waitFor()
    await walletFrame(page).getByText('Unlimited', { exact: true }).waitFor()
    await walletFrame(page).getByText(spender).waitFor()
    await walletFrame(page)
      .getByText(/Unlimited approval: the spender can take all of this token/)
      .waitFor()
    await answerInFrame(page, 'Reject')
    assert.equal(await rejected, 4001)
    await modal(page).waitFor({ state: 'detached' })
  })

  it('a reload stays connected with no code', async () => {
    const mails = (await inbox(stack, email)).length
    await page.reload()
    await page.waitForFunction(() => {
      const all = document.querySelector('wallet-modal')?.walletConfig.$connections.get()
      return all?.eip155?.status === 'connected' && all?.solana?.status === 'connected'
    })
    assert.equal((await connections(page)).eip155?.address, evmAddress)
    assert.equal((await inbox(stack, email)).length, mails)
  })

  it('a fresh browser: the code first, then VERIFY_DEVICE: the mailed link on the frame origin approves it with the code this browser shows', async () => {
    const other = await newContext(browser)
    const fresh = await other.newPage()
    await fresh.goto(dappUrl())
    const seen = (await inbox(stack, email)).length
    // Another browser, the same address, within 30 s of the last mail: the service holds the cooldown.
    // Before a code is proven every address gets the same answer, a code: none tells whether it has a wallet.
    await submitEmailPastCooldown(fresh, email)
    const codeMail = await nextMail(stack, email, seen)
    assert.match(codeMail.subject, /^\d{6} is your sign-in code$/)
    await modal(fresh).getByLabel('Code').fill(codeOf(codeMail))
    const heading = modal(fresh).getByRole('heading', { name: 'Approve this browser' })
    await heading.waitFor()
    assert.match(await focused(fresh), /Approve this browser/)
    assert.deepEqual(await sweep(fresh, 'EmailVerifyDevice'), [])
    const compare = ((await modal(fresh).locator('.compare-code strong').textContent()) ?? '').trim()
    assert.match(compare, /^[A-HJ-NP-Z2-9]{6}$/)
    const mail = await nextMail(stack, email, seen + 1)
    assert.match(mail.subject, /^Approve a new browser for /)
    assert.ok(!mail.text.includes(compare), 'the code to type is on the browser signing in, not in the mail')
    const link = deviceLinkOf(stack, mail)
    assert.ok(link?.startsWith(stack.urls.frame), 'the link opens on the frame origin')
    if (!link) return
    // The person opens the link from their mailbox (here: a tab of the first browser).
    const approval = await context.newPage()
    await approval.goto(link)
    await approval.getByText(/is signing in to 127\.0\.0\.1/).waitFor()
    assert.deepEqual(await axeFindings(approval, 'body'), [])
    // A click alone approves nothing: the page wants the code that browser shows.
    const field = approval.getByLabel('Code shown on the browser that is signing in')
    await approval.getByRole('button', { name: 'Approve this browser' }).click()
    assert.equal(await field.getAttribute('aria-invalid'), 'true')
    await field.fill(compare.toLowerCase())
    await approval.getByRole('button', { name: 'Approve this browser' }).click()
    await approval.getByText(/Approved/).waitFor()
    await approval.close()
    await closedAfterSignIn(fresh)
    assert.equal((await connections(fresh)).eip155?.address, evmAddress)
    await other.close()
  })

  it('updates the e-mail with a code to the current address, then one to the new address', async () => {
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByRole('button', { name: 'Update e-mail' }).click()
    await modal(page).getByLabel('New e-mail address').waitFor()
    assert.match(await focused(page), /^input New e-mail address/)
    assert.deepEqual(await sweep(page, 'UpdateEmailWallet'), [])
    const seenOld = (await inbox(stack, email)).length
    await modal(page).getByLabel('New e-mail address').fill(newEmail)
    await modal(page).getByRole('button', { name: 'Continue', exact: true }).click()
    await modal(page).getByText(`Enter the code we sent to your current address, ${email}.`).waitFor()
    await modal(page).getByLabel('Code').waitFor()
    assert.match(await focused(page), /^input Code/)
    assert.deepEqual(await sweep(page, 'UpdateEmailOtp, current address'), [])
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, email, seenOld)))
    await modal(page).getByText(`Enter the code we sent to ${newEmail}.`).waitFor()
    await modal(page)
      .getByLabel('Code')
      .fill(codeOf(await nextMail(stack, newEmail, 0)))
    await modal(page).getByText('Your e-mail address was updated').waitFor()
    await walletFrame(page).getByText(newEmail).waitFor()
    assert.deepEqual(await sweep(page, 'Account, e-mail updated'), [])
  })

  it('disconnect clears the cached login and signs out: a reload is not connected', async () => {
    await modal(page).getByRole('button', { name: 'Disconnect' }).click()
    await page.getByRole('button', { name: 'Connect Wallet' }).waitFor()
    const stored = await page.evaluate(() => ({
      email: localStorage.getItem('@wallet-elements/email'),
      used: localStorage.getItem('@wallet-elements/login-email-used'),
    }))
    assert.deepEqual(stored, { email: null, used: null })
    await page.reload()
    await page.getByRole('button', { name: 'Connect Wallet' }).waitFor()
    assert.deepEqual(await connections(page), {})
    await context.close()
  })
})
