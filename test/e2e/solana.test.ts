import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import type { Browser, Page } from 'playwright-core'
import { devKeypair } from '../../server/dev/solana/keys.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

const LOCAL_SOLANA = 'solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9' as const
const TEST_MINT = '3NgR9cyptmChF72pCdDbrajWsehczWmp6iEbBnnFkHPU'

/**
 * Solana beside EVM on the local stack: the demo page lists both, the Demo Wallet serves both (one
 * row in Connect), balances and transfers go to the real local Solana network (litesvm).
 */
describe('Solana end to end', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const sender = devKeypair(0).publicKey.toBase58()
  const solReceiver = devKeypair(1).publicKey.toBase58()
  const tokenReceiver = devKeypair(2).publicKey.toBase58()

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ solana: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const rpc = async (method: string, params: unknown[]) => {
    const response = await fetch(stack.urls.solana, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    const body = (await response.json()) as { result: unknown }
    return body.result
  }
  const lamports = async (address: string) =>
    ((await rpc('getBalance', [address, { commitment: 'confirmed' }])) as { value: number }).value
  const tokenUnits = async (owner: string) => {
    const answer = (await rpc('getTokenAccountsByOwner', [
      owner,
      { mint: TEST_MINT },
      { encoding: 'jsonParsed', commitment: 'confirmed' },
    ])) as { value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[] }
    return answer.value.reduce(
      (sum, entry) => sum + BigInt(entry.account.data.parsed.info.tokenAmount.amount),
      0n,
    )
  }

  const openDemo = async (query = '') => {
    const context = await newContext(browser)
    const page = await context.newPage()
    const events: string[] = []
    await page.exposeFunction('recordWalletEvent', (line: string) => events.push(line))
    await page.addInitScript(() => {
      for (const name of ['connect', 'disconnect', 'network-change', 'account-change', 'error']) {
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

  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  const accountButton = (page: Page) =>
    page.locator('wallet-button').getByRole('button', { name: /, Account$/ })
  // The modal is aria-modal, so the wallet's own prompt is reached by its test ids while it is open.
  const approve = (page: Page) => page.locator('[data-demo-wallet="approve"]').click()
  const reject = (page: Page) => page.locator('[data-demo-wallet="reject"]').click()
  const state = (page: Page) =>
    page.evaluate(() => {
      const config = document.querySelector('wallet-modal')?.walletConfig
      const connections = config?.$connections.get() ?? {}
      return {
        active: config?.$activeNamespace.get(),
        network: config?.$network.get()?.caipNetworkId,
        eip155: connections.eip155?.status,
        solana: connections.solana?.status,
        solanaAccount: connections.solana?.accounts[0],
      }
    })

  it('connects the Demo Wallet on Solana, shows SOL and the test token, sends 0.5 SOL and 10 tokens, switches to EVM and back, and stays connected after a reload', async () => {
    const { page, events, context } = await openDemo()
    // The page lists EVM networks first; choose the local Solana network before connecting.
    await page.evaluate((id) => document.querySelector('wallet-modal')?.switchNetwork(id), LOCAL_SOLANA)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    // One row for the wallet that serves both ecosystems.
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .waitFor()
    assert.equal(
      await modal(page)
        .getByRole('button', { name: /Demo Wallet/ })
        .count(),
      1,
    )
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await approve(page)
    await accountButton(page).waitFor()
    assert.match(
      (await accountButton(page).textContent()) ?? '',
      new RegExp(`${sender.slice(0, 6)}…${sender.slice(-4)}`),
    )
    await page.locator('wallet-button').getByText('1,000.000 SOL').waitFor()
    const connected = events.find((line) => line.startsWith('wallet-connect'))
    assert.ok(connected?.includes(`"namespace":"solana"`), connected)
    assert.ok(connected?.includes(LOCAL_SOLANA))
    assert.deepEqual(await state(page), {
      active: 'solana',
      network: LOCAL_SOLANA,
      eip155: undefined,
      solana: 'connected',
      solanaAccount: sender,
    })

    // Account: SOL and the test token.
    await accountButton(page).click()
    await modal(page).getByText('Local Solana', { exact: true }).waitFor()
    await modal(page).getByText('1,000.000 SOL', { exact: true }).waitFor()
    const tokenRow = modal(page).locator(`[data-token="${TEST_MINT}"]`)
    await tokenRow.getByText('1,000,000.000').waitFor()
    assert.match((await tokenRow.textContent()) ?? '', /TEST/)

    // Send 0.5 SOL to dev key 1.
    const before = { sender: await lamports(sender), receiver: await lamports(solReceiver) }
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByLabel('Amount').fill('0.5')
    await modal(page).getByLabel('Receiver address').fill(solReceiver)
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await approve(page)
    await modal(page)
      .getByRole('status')
      .getByText(`Sent 0.5 SOL to ${solReceiver.slice(0, 6)}…${solReceiver.slice(-4)}`)
      .waitFor()
    assert.equal(await lamports(solReceiver), before.receiver + 500_000_000)
    const spent = before.sender - (await lamports(sender))
    assert.ok(spent > 500_000_000 && spent < 500_100_000, `sender paid ${spent} lamports`)
    await modal(page).getByRole('button', { name: 'Done' }).click()
    await modal(page).getByText('999.499 SOL').waitFor()

    // Send 10 test tokens to dev key 2, who has no token account yet: it is created.
    assert.equal(await tokenUnits(tokenReceiver), 0n)
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByLabel('Token').selectOption({ label: 'TEST (1,000,000.000)' })
    await modal(page).getByLabel('Amount').fill('10')
    await modal(page).getByLabel('Receiver address').fill(tokenReceiver)
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await approve(page)
    await modal(page)
      .getByText(/^Sent 10 TEST to /)
      .waitFor()
    assert.equal(await tokenUnits(tokenReceiver), 10_000_000n)
    assert.equal(await tokenUnits(sender), 999_990_000_000n)
    await modal(page).getByRole('button', { name: 'Done' }).click()
    await tokenRow.getByText('999,990.000').waitFor()

    // Switch to an EVM network: the same wallet connects its EVM side (one prompt).
    await modal(page)
      .getByRole('button', { name: /Local Solana\s+Network/ })
      .click()
    // Networks are grouped by ecosystem.
    await modal(page).getByRole('heading', { name: 'EVM networks' }).waitFor()
    await modal(page).getByRole('heading', { name: 'Solana networks' }).waitFor()
    await modal(page)
      .getByRole('button', { name: /^Local Chain$/ })
      .click()
    await approve(page)
    await modal(page).getByText('10,000.000 ETH').waitFor()
    assert.match((await accountButton(page).textContent()) ?? '', /0xf39F…2266/)
    assert.ok(
      events.some((line) => line.includes('wallet-network-change') && line.includes('"namespace":"eip155"')),
    )
    assert.deepEqual(await state(page), {
      active: 'eip155',
      network: 'eip155:31337',
      eip155: 'connected',
      solana: 'connected',
      solanaAccount: sender,
    })

    // And back: already connected, so no prompt.
    await modal(page)
      .getByRole('button', { name: /Local Chain\s+Network/ })
      .click()
    await modal(page)
      .getByRole('button', { name: /Local Solana/ })
      .click()
    await modal(page)
      .getByText(/999\.49\d SOL/)
      .waitFor()
    assert.equal(await page.locator('[data-demo-wallet="approve"]').count(), 0)
    assert.ok(
      events.some(
        (line) => line.includes('wallet-network-change') && line.includes(`"chainId":"${LOCAL_SOLANA}"`),
      ),
    )

    // Reload: both namespaces come back without a prompt, Solana shown (used last).
    await page.reload()
    await page
      .locator('wallet-button')
      .getByText(/999\.49\d SOL/)
      .waitFor()
    assert.equal(await page.locator('[data-demo-wallet="approve"]').count(), 0)
    await page.waitForFunction(() => {
      const connections = document.querySelector('wallet-modal')?.walletConfig.$connections.get()
      return connections?.eip155?.status === 'connected' && connections.solana?.status === 'connected'
    })
    assert.equal((await state(page)).active, 'solana')
    await context.close()
  })

  it('keeps the form and shows the error when the wallet rejects, and validates before asking', async () => {
    const { page, events, context } = await openDemo()
    await page.evaluate((id) => document.querySelector('wallet-modal')?.switchNetwork(id), LOCAL_SOLANA)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await approve(page)
    await accountButton(page).click()
    await modal(page).getByRole('button', { name: 'Send' }).click()

    // Nothing typed: the spec's message, and the wallet is not asked.
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('alert').getByText('An amount and receiver address are required').waitFor()
    await modal(page).getByLabel('Amount').fill('0.25')
    await modal(page).getByLabel('Receiver address').fill('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('alert').getByText('Invalid Solana address').waitFor()
    assert.equal(await page.locator('[data-demo-wallet="approve"]').count(), 0)

    // The wallet rejects: the error shows, what was typed stays, no SOL moved.
    const before = await lamports(solReceiver)
    await modal(page).getByLabel('Receiver address').fill(solReceiver)
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await reject(page)
    await modal(page).getByRole('alert').getByText('User rejected the request.').waitFor()
    assert.equal(await modal(page).getByLabel('Amount').inputValue(), '0.25')
    assert.equal(await modal(page).getByLabel('Receiver address').inputValue(), solReceiver)
    assert.equal(await lamports(solReceiver), before)
    assert.ok(events.some((line) => line.startsWith('wallet-error') && line.includes('4001')))

    // A page signing through getProvider('solana'): approved, then rejected.
    const signed = page.evaluate(async () => {
      const provider = document.querySelector('wallet-modal')?.getProvider('solana')
      const signature = await provider?.signMessage(new TextEncoder().encode('hello from the page'))
      return signature?.length
    })
    await approve(page)
    assert.equal(await signed, 64)
    const rejected = page.evaluate(async () => {
      const provider = document.querySelector('wallet-modal')?.getProvider('solana')
      try {
        await provider?.signMessage(new TextEncoder().encode('no'))
        return 'signed'
      } catch (error) {
        return `${(error as { code?: number }).code} ${(error as Error).message.split('\n')[0]}`
      }
    })
    await reject(page)
    assert.equal(await rejected, '4001 User rejected the request.')
    await context.close()
  })

  it('signs and sends a transaction the page builds, through getProvider("solana"), and follows the wallet', async () => {
    const { page, events, context } = await openDemo('?demoAutoApprove=1')
    await page.evaluate((id) => document.querySelector('wallet-modal')?.switchNetwork(id), LOCAL_SOLANA)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .click()
    await accountButton(page).waitFor()
    const before = await lamports(solReceiver)
    const { blockhash } = (
      (await rpc('getLatestBlockhash', [{ commitment: 'confirmed' }])) as {
        value: { blockhash: string }
      }
    ).value
    const tx = new Transaction({ feePayer: new PublicKey(sender), recentBlockhash: blockhash }).add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(sender),
        toPubkey: new PublicKey(solReceiver),
        lamports: 1_000_000,
      }),
    )
    const bytes = [...tx.serialize({ requireAllSignatures: false, verifySignatures: false })]
    const signature = await page.evaluate(async (wire) => {
      const provider = document.querySelector('wallet-modal')?.getProvider('solana')
      return provider?.sendTransaction(new Uint8Array(wire))
    }, bytes)
    assert.match(signature ?? '', /^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
    for (let i = 0; i < 50 && (await lamports(solReceiver)) === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    assert.equal(await lamports(solReceiver), before + 1_000_000)

    // The wallet switches account: the page follows; then the wallet disconnects the site.
    await page.evaluate(() => window.demoWallet?.solana?.switchAccount(1))
    await accountButton(page)
      .getByText(`${solReceiver.slice(0, 6)}…${solReceiver.slice(-4)}`)
      .waitFor()
    assert.ok(
      events.some(
        (line) =>
          line.startsWith('wallet-account-change') && line.includes(solReceiver) && line.includes('solana'),
      ),
    )
    await page.evaluate(() => window.demoWallet?.solana?.disconnect())
    await page.getByRole('button', { name: 'Connect Wallet' }).waitFor()
    assert.ok(events.some((line) => line.startsWith('wallet-disconnect') && line.includes('solana')))
    await context.close()
  })
})
