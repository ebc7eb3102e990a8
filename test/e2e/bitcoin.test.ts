import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { p2wpkh, Transaction } from '@scure/btc-signer'
import type { Browser, Page } from 'playwright-core'
import { verifyBitcoinSignature } from '../../server/auth/bitcoin.ts'
import { devKey, REGTEST_NETWORK } from '../../server/dev/bitcoin/keys.ts'
import { sweep } from './axe.ts'
import { answerInFrame, connections, signInByEmail, walletFrame } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'
import { REGTEST, regtestNode } from './regtest-node.ts'

/**
 * Bitcoin beside EVM on the local stack: the Demo Wallet's Bitcoin side (Wallet Standard and WBIP004 under
 * one name), its balance read from the regtest node (bcoin), a send the node checks, keeps in its mempool
 * and mines on demand, and the send form's refusals.
 */
describe('Bitcoin end to end', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const sender = devKey(0).address

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ bitcoin: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const { read: node, balance, mine, freshAddress } = regtestNode(() => stack.urls.bitcoin)

  /** Pays `satoshis` to `address` from a funded dev key (signed here, checked by the node), and mines it. */
  const pay = async (address: string, satoshis: bigint) => {
    const from = devKey(3)
    const [coin] = await node<{ hash: string; index: number; value: number }[]>(
      `/coin/address/${from.address}`,
    )
    assert.ok(coin && BigInt(coin.value) > satoshis + 10_000n, 'the dev key has a coin to pay from')
    const tx = new Transaction()
    const script = p2wpkh(from.publicKey, REGTEST_NETWORK).script
    tx.addInput({ txid: coin.hash, index: coin.index, witnessUtxo: { script, amount: BigInt(coin.value) } })
    tx.addOutputAddress(address, satoshis, REGTEST_NETWORK)
    tx.addOutputAddress(from.address, BigInt(coin.value) - satoshis - 5_000n, REGTEST_NETWORK)
    tx.sign(from.privateKey)
    tx.finalize()
    await node('/broadcast', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: tx.hex }),
    })
    await mine()
  }

  const openDemo = async (query = '') => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(new URL(`/${query}`, stack.urls.demo).href)
    await page.evaluate(
      ({ id, url }) => {
        const modal = document.querySelector('wallet-modal')
        if (!modal) throw new Error('no wallet-modal')
        modal.config = { networks: ['eip155:31337', id], rpcUrls: { [id]: url } }
      },
      { id: REGTEST, url: stack.urls.bitcoin },
    )
    await page.evaluate((id) => document.querySelector('wallet-modal')?.switchNetwork(id), REGTEST)
    return { page, context }
  }

  const modal = (page: Page) => page.locator('wallet-modal').getByRole('dialog')
  const accountButton = (page: Page) =>
    page.locator('wallet-button').getByRole('button', { name: /, Account$/ })
  const approve = (page: Page) => page.locator('[data-demo-wallet="approve"]').click()
  const connection = (page: Page) =>
    page.evaluate(() => {
      const record = document.querySelector('wallet-modal')?.walletConfig.$connections.get().bip122
      return { status: record?.status, accounts: record?.accounts, chainId: record?.chainId }
    })

  const connectDemo = async (page: Page) => {
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const row = modal(page).getByRole('button', { name: /Demo Wallet/ })
    await row.first().waitFor()
    // One row: the wallet announces EVM, Solana and Bitcoin (two ways) under one name.
    assert.equal(await row.count(), 1)
    await row.click()
    await approve(page)
    await accountButton(page).waitFor()
  }

  it('connects the Demo Wallet on regtest, shows the BTC balance, sends 0.01 BTC that the node keeps in its mempool and confirms in a block', async () => {
    const { page, context } = await openDemo()
    await connectDemo(page)
    // The button shows the account of the network the page switched to: the wallet's Bitcoin one (its
    // EVM account may be connected a moment earlier, and shown until the Bitcoin one is).
    await page
      .locator('wallet-button')
      .getByRole('button', { name: new RegExp(`^${sender.slice(0, 6)}…${sender.slice(-4)}.*, Account$`) })
      .waitFor({ timeout: 10_000 })
    assert.deepEqual(await connection(page), { status: 'connected', accounts: [sender], chainId: REGTEST })
    const start = await balance(sender)
    // Three decimals, rounded down (SPEC 9): whatever the address held before this test.
    const sats = BigInt(start.confirmed + start.pending)
    const shown = `${sats / 100_000_000n}.${((sats % 100_000_000n) / 100_000n).toString().padStart(3, '0')}`
    await page.locator('wallet-button').getByText(`${shown} BTC`).waitFor()

    // Account: the network and the address.
    await accountButton(page).click()
    await modal(page).getByText('Local Bitcoin', { exact: true }).waitFor()
    await modal(page)
      .getByText(new RegExp(`${sender.slice(0, 6)}…${sender.slice(-4)}`))
      .first()
      .waitFor()

    // Send 0.01 BTC to a fresh address.
    const receiver = freshAddress()
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByLabel('Amount').fill('0.01')
    await modal(page).getByLabel('Receiver address').fill(receiver)
    // The fee: the node's rate to confirm within 1 block (10 sat/vB on the regtest node) rather than 3 (5).
    await modal(page).getByLabel('Network fee').selectOption({ label: 'Fast, about 10 minutes' })
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await approve(page)
    await modal(page)
      .getByRole('status')
      .getByText(`Sent 0.01 BTC to ${receiver.slice(0, 6)}…${receiver.slice(-4)}`)
      .waitFor()
    const txid = await page.evaluate(
      () => document.querySelector('wallet-modal')?.walletConfig.$send.get().hash,
    )
    assert.match(txid ?? '', /^[0-9a-f]{64}$/)
    assert.ok((await node<string[]>('/mempool')).includes(txid ?? ''), 'the payment waits in the mempool')
    assert.deepEqual(await balance(receiver), {
      address: receiver,
      confirmed: 0,
      pending: 1_000_000,
      total: 1_000_000,
    })

    await node('/dev/mine', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocks: 1 }),
    })
    assert.deepEqual(await balance(receiver), {
      address: receiver,
      confirmed: 1_000_000,
      pending: 0,
      total: 1_000_000,
    })
    const mined = await node<{ confirmations: number }>(`/tx/${txid}`)
    assert.ok(mined.confirmations >= 1)
    assert.ok(!(await node<string[]>('/mempool')).includes(txid ?? ''))
    const end = await balance(sender)
    const spent = start.confirmed + start.pending - (end.confirmed + end.pending)
    assert.ok(spent > 1_000_000 && spent < 1_010_000, `the sender paid ${spent} satoshis`)
    // About 141 vbytes at the fast rate (10 sat/vB), not the normal one (5 sat/vB).
    const fee = spent - 1_000_000
    assert.ok(fee >= 1_300 && fee <= 2_000, `the fee was ${fee} satoshis`)

    // Activity lists the payment once mined: the service reads the regtest node.
    await page.keyboard.press('Escape')
    await modal(page).waitFor({ state: 'detached' })
    await accountButton(page).click()
    await modal(page).getByRole('heading', { name: 'Activity' }).waitFor()
    const row = modal(page).locator(`[data-transaction="${txid}"]`)
    await row.waitFor()
    assert.match((await row.textContent()) ?? '', /^Sent−0\.010 BTC/)
    await context.close()
  })

  it('refuses an address of another network and an amount above the balance, with the messages in red', async () => {
    const { page, context } = await openDemo()
    await connectDemo(page)
    await accountButton(page).click()
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByLabel('Amount').fill('0.01')
    await modal(page).getByLabel('Receiver address').fill('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('alert').getByText('Invalid Bitcoin address').waitFor()
    assert.equal(await modal(page).getByLabel('Receiver address').getAttribute('aria-invalid'), 'true')

    await modal(page).getByLabel('Amount').fill('100000')
    await modal(page).getByLabel('Receiver address').fill(devKey(1).address)
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByRole('alert').getByText('Insufficient balance').waitFor()
    assert.equal(await modal(page).getByLabel('Amount').getAttribute('aria-invalid'), 'true')
    assert.equal(await page.locator('[data-demo-wallet="approve"]').count(), 0, 'the wallet was never asked')
    await context.close()
  })

  it('signs in with Bitcoin: the CAIP-122 message signed by the wallet, the session verified by the service', async () => {
    const { page, context } = await openDemo()
    await page.evaluate(() => document.querySelector('wallet-modal')?.setAttribute('siwx', 'optional'))
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page)
      .getByRole('button', { name: /Demo Wallet/ })
      .first()
      .click()
    await approve(page)
    await modal(page)
      .getByRole('heading', { name: /^Sign in to 127\.0\.0\.1:/ })
      .waitFor()
    await modal(page).getByRole('button', { name: 'Sign in' }).click()
    await approve(page)
    await modal(page).waitFor({ state: 'detached' })
    const session = await page.evaluate(() => document.querySelector('wallet-modal')?.getSession())
    assert.match(session?.message ?? '', /wants you to sign in with your Bitcoin account:\n/)
    assert.ok(session?.message.includes(`\n${sender}\n`), 'the message names the Bitcoin address')
    assert.ok(session?.message.includes('Chain ID: 0f9188f13cb7b2c71f2a335e3a4fc328'))
    assert.equal(session?.cacao.h.t, 'caip122')
    assert.match(session?.cacao.s.t ?? '', /^bip122:/)

    // The stored token is the service's session for the Bitcoin account.
    const token = await page.evaluate(
      () =>
        JSON.parse(JSON.parse(localStorage.getItem('@wallet-elements/siwx-auth-token') ?? '""'))
          .token as string,
    )
    const me = await fetch(new URL('/auth/v1/me?projectId=dev-project&st=test&sv=1', stack.urls.service), {
      headers: { authorization: `Bearer ${token}`, origin: new URL(stack.urls.demo).origin },
    })
    assert.equal(me.status, 200)
    assert.equal(((await me.json()) as { caipAddress: string }).caipAddress, `${REGTEST}:${sender}`)
    await context.close()
  })

  it("the embedded wallet's Bitcoin account: signed in by e-mail, connected on regtest, sends 0.01 BTC after approval in the frame", async () => {
    const { page, context } = await openDemo()
    await signInByEmail(page, stack, 'bitcoin-person@example.com')
    // Connected on every namespace of the site, Bitcoin with its native segwit (BIP-84) regtest address.
    const connected = await connections(page)
    assert.equal(connected.eip155?.status, 'connected')
    assert.equal(connected.bip122?.status, 'connected')
    const address = connected.bip122?.address ?? ''
    assert.match(address, /^bcrt1q[02-9ac-hj-np-z]{38}$/)
    // The button shows the Bitcoin account (the network the page switched to), once it has it.
    await page
      .locator('wallet-button')
      .getByRole('button', { name: new RegExp(`^${address.slice(0, 6)}…${address.slice(-4)}.*, Account$`) })
      .waitFor({ timeout: 10_000 })
    // The site's provider answers the same account.
    const listed = await page.evaluate(
      (account) =>
        document
          .querySelector('wallet-modal')
          ?.getProvider('bip122')
          .request({ method: 'getAccountAddresses', params: { account } }),
      address,
    )
    assert.equal(listed?.[0]?.address, address)

    // A message, each protocol: the frame shows its text, Approve signs; the signature verifies.
    for (const [protocol, verified] of [
      ['ecdsa', 'bip122:ecdsa'],
      ['bip322', 'bip122:bip322-simple'],
    ] as const) {
      const message = `Pay the rent (${protocol})`
      const signed = page.evaluate(
        ([account, text, kind]) =>
          document
            .querySelector('wallet-modal')
            ?.getProvider('bip122')
            .request({ method: 'signMessage', params: { account, message: text, protocol: kind } }),
        [address, message, protocol] as const,
      )
      await walletFrame(page).getByText(message).waitFor()
      await answerInFrame(page, 'Approve')
      const { signature } = (await signed) as { signature: string }
      assert.equal(
        verifyBitcoinSignature({ reference: REGTEST.slice('bip122:'.length), address, message, signature }),
        verified,
      )
    }

    // Two coins of 0.006 BTC: the payment of 0.01 BTC spends both (a PSBT with two inputs to sign).
    await pay(address, 600_000n)
    await pay(address, 600_000n)
    // Account reads the balance again while it is open (a block every poll): both coins.
    const receiver = freshAddress()
    await accountButton(page).click()
    await modal(page).getByText('Local Bitcoin', { exact: true }).waitFor()
    await modal(page).getByText('0.012 BTC').first().waitFor({ timeout: 30_000 })

    assert.deepEqual(await sweep(page, 'Account, embedded Bitcoin'), [])
    await modal(page).getByRole('button', { name: 'Send' }).click()
    await modal(page).getByLabel('Amount').fill('0.01')
    await modal(page).getByLabel('Receiver address').fill(receiver)
    assert.deepEqual(await sweep(page, 'Send BTC'), [])
    await modal(page).getByRole('button', { name: 'Send' }).click()
    // The frame shows the transaction read from the PSBT's bytes: the receiver among its outputs.
    await modal(page).getByRole('heading', { name: 'Approve request' }).waitFor()
    await walletFrame(page).getByText(receiver).waitFor()
    const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
    assert.ok(frame, 'the wallet frame')
    assert.deepEqual(await sweep(page, 'ApproveTransaction, Bitcoin', { frame }), [])
    await answerInFrame(page, 'Approve')
    await modal(page)
      .getByRole('status')
      .getByText(`Sent 0.01 BTC to ${receiver.slice(0, 6)}…${receiver.slice(-4)}`)
      .waitFor({ timeout: 30_000 })
    const txid = await page.evaluate(
      () => document.querySelector('wallet-modal')?.walletConfig.$send.get().hash,
    )
    assert.ok((await node<string[]>('/mempool')).includes(txid ?? ''), 'the payment waits in the mempool')
    await mine()
    assert.deepEqual(await balance(receiver), {
      address: receiver,
      confirmed: 1_000_000,
      pending: 0,
      total: 1_000_000,
    })
    const left = await balance(address)
    assert.ok(left.confirmed < 200_000 && left.confirmed > 190_000, `left ${left.confirmed} satoshis`)
    const spent = await node<{ inputs: unknown[] }>(`/tx/${txid}`)
    assert.equal(spent.inputs.length, 2, 'both coins spent, each input signed in the frame')
    await context.close()
  })
})
