/**
 * The Demo Phone Wallet (demo/wallets/phone.html) against a dapp-side `@walletconnect/sign-client` in
 * node, through the dev relay of the local stack: pairing from a `?uri=` link, the proposal, requests
 * approved and rejected in the page, a reload, and disconnects from the page.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { SignClient } from '@walletconnect/sign-client'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import {
  createPublicClient,
  type Hex,
  http,
  parseEther,
  stringToHex,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { devAccount } from '../../server/dev/chain/index.ts'
import { memoryStorage } from '../support/memoryStorage.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

type Client = Awaited<ReturnType<typeof SignClient.init>>
type Session = Awaited<ReturnType<Awaited<ReturnType<Client['connect']>>['approval']>>

const DAPP_NAME = 'Phone wallet test dapp'
const CHAIN = 'eip155:31337'
const wallet = devAccount(0)
const recipient = devAccount(1)

/** Map-backed storage in the shape of `@walletconnect/keyvaluestorage`. */

function within<T>(promise: Promise<T>, what: string, timeoutMs = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)
    }),
  ]).finally(() => clearTimeout(timer))
}

/** The error a rejected `client.request` or `approval()` settles with. */
async function rejection(
  promise: Promise<unknown>,
  what: string,
): Promise<{ code?: unknown; message?: unknown }> {
  try {
    await within(promise, what)
  } catch (error) {
    return error as { code?: unknown; message?: unknown }
  }
  throw new Error(`${what} resolved; expected a rejection`)
}

describe('demo phone wallet over WalletConnect', { timeout: 90_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let dapp: Client
  let session: Session

  const phoneUrl = (query = '') => new URL(`wallets/phone.html${query}`, stack.urls.demo).href
  const chain = () => createPublicClient({ transport: http(stack.urls.chain, { retryCount: 0 }) })
  const ready = () =>
    page.waitForFunction(() => window.phoneWallet !== undefined, undefined, { timeout: 20_000 })
  const requestCard = (method: string) => page.getByRole('article', { name: method })
  /** Adds the page's status log to an error, to see how far the wallet got. */
  const withPageStatus = async (error: Error): Promise<never> => {
    const lines = await page
      .getByRole('log', { name: 'Status' })
      .locator('p')
      .allTextContents()
      .catch(() => ['?'])
    throw new Error(`${error.message}; the phone wallet's status log:\n${lines.join('\n')}`, { cause: error })
  }
  const request = <T>(method: string, params: unknown, chainId = CHAIN, topic = session.topic) =>
    dapp.request<T>({ topic, chainId, request: { method, params } })

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    dapp = await SignClient.init({
      relayUrl: stack.urls.relay,
      projectId: 'dev-project',
      // WalletConnect's Core keeps one instance per prefix in the process: a new one each time the file
      // runs (a lane may run it again in the same process, and the last run's topics are gone).
      customStoragePrefix: `phone-wallet-test-${randomUUID()}`,
      telemetryEnabled: false,
      logger: 'silent',
      storage: memoryStorage(),
      metadata: {
        name: DAPP_NAME,
        description: 'Dapp side of the phone wallet test',
        url: 'http://127.0.0.1',
        icons: [],
      },
    })
    context = await newContext(browser)
    page = await context.newPage()
    if (process.env.PHONE_DEBUG) {
      page.on('console', (m) => console.log('[page]', m.type(), m.text()))
      page.on('framenavigated', (f) => console.log('[nav]', f.url().slice(0, 80)))
      page.on('requestfailed', (r) => console.log('[failed]', r.url().slice(0, 120)))
      page.on(
        'response',
        (r) => r.status() >= 400 && console.log('[http]', r.status(), r.url().slice(0, 120)),
      )
    }
    await page.setViewportSize({ width: 390, height: 844 })
  })

  after(async () => {
    await context?.close()
    await browser?.close()
    if (dapp) {
      dapp.core.heartbeat.stop()
      await dapp.core.relayer.transportClose().catch(() => {})
    }
    await stack?.stop()
  })

  test('behavior: pairs from ?uri=, shows the proposal, and Approve gives the dapp a session', async () => {
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: [CHAIN],
          methods: ['personal_sign', 'eth_sendTransaction', 'eth_signTypedData_v4'],
          events: ['accountsChanged', 'chainChanged'],
        },
      },
    })
    if (!uri) throw new Error('a new pairing gives a URI')
    assert.match(uri, /^wc:/)
    // Asked for before the wallet can answer: approval()'s promise takes the session only if it
    // exists when the session settles (@walletconnect/utils createDelayedPromise); asked for later,
    // it waits until the proposal expires (5 minutes) even though the dapp has the session.
    const settled = approval()
    const connected = new Promise((resolve) => dapp.once('session_connect', resolve))
    await page.goto(phoneUrl(`?uri=${encodeURIComponent(uri)}`))

    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.waitFor({ timeout: 20_000 })
    const text = (await proposal.textContent()) ?? ''
    for (const expected of [DAPP_NAME, 'http://127.0.0.1', CHAIN, 'personal_sign', 'eth_signTypedData_v4']) {
      assert.ok(text.includes(expected), `the proposal shows ${expected}: ${text}`)
    }
    assert.equal(new URL(page.url()).searchParams.has('uri'), false, 'the URI leaves the address bar')

    await proposal.getByRole('button', { name: 'Approve' }).click()
    // Settled first, read after: the order a busy machine produced; approval() must still resolve.
    await within(connected, 'the dapp to settle the session').catch(withPageStatus)
    session = await within(settled, 'the session').catch(withPageStatus)
    assert.deepEqual(session.namespaces.eip155?.accounts, [`${CHAIN}:${wallet.address}`])
    assert.deepEqual(session.namespaces.eip155?.chains, [CHAIN])
    assert.equal(session.peer.metadata.name, 'Demo Phone Wallet')
    assert.equal(await proposal.isHidden(), true)
    await page.getByRole('log', { name: 'Status' }).getByText(`Session approved with ${DAPP_NAME}`).waitFor()
    await page.getByRole('listitem').filter({ hasText: DAPP_NAME }).waitFor()
  })

  test('behavior: personal_sign shows the decoded message; Approve signs with the dev account', async () => {
    const message = 'Sign in to wallet-elements\nNonce: 42'
    const signing = request<Hex>('personal_sign', [stringToHex(message), wallet.address])
    const card = requestCard('personal_sign')
    await card.waitFor()
    assert.ok(((await card.textContent()) ?? '').includes('Nonce: 42'))
    await card.getByRole('button', { name: 'Approve' }).click()
    const signature = await within(signing, 'the signature')
    assert.ok(await verifyMessage({ address: wallet.address, message, signature }))
    await card.waitFor({ state: 'detached' })
  })

  test('behavior: eth_signTypedData_v4 shows the primary type and domain; the signature verifies', async () => {
    const typedData = {
      domain: { name: 'Mail', version: '1', chainId: 31337 },
      types: {
        Person: [
          { name: 'name', type: 'string' },
          { name: 'wallet', type: 'address' },
        ],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      message: { from: { name: 'Alice', wallet: wallet.address }, contents: 'Hello from the dapp' },
    } as const
    const signing = request<Hex>('eth_signTypedData_v4', [wallet.address, JSON.stringify(typedData)])
    const card = requestCard('eth_signTypedData_v4')
    await card.waitFor()
    const text = (await card.textContent()) ?? ''
    assert.ok(text.includes('Mail') && text.includes('name: Mail') && text.includes('chainId: 31337'), text)
    await card.getByRole('button', { name: 'Approve' }).click()
    const signature = await within(signing, 'the typed-data signature')
    assert.ok(await verifyTypedData({ ...typedData, address: wallet.address, signature }))
  })

  test('behavior: eth_sendTransaction of 0.01 ETH is filled, signed, sent and mined', async () => {
    const value = parseEther('0.01')
    const sending = request<Hex>('eth_sendTransaction', [
      { from: wallet.address, to: recipient.address, value: toHex(value) },
    ])
    const card = requestCard('eth_sendTransaction')
    await card.waitFor()
    const text = (await card.textContent()) ?? ''
    assert.ok(text.includes('0.01 ETH') && text.includes(recipient.address), text)
    await card.getByRole('button', { name: 'Approve' }).click()
    const hash = await within(sending, 'the transaction hash')
    const receipt = await chain().waitForTransactionReceipt({ hash, timeout: 15_000 })
    assert.equal(receipt.status, 'success')
    assert.equal(receipt.from.toLowerCase(), wallet.address.toLowerCase())
    assert.equal(receipt.to?.toLowerCase(), recipient.address.toLowerCase())
    assert.equal((await chain().getTransaction({ hash })).value, value)
  })

  test('behavior: Reject answers the dapp with the SDK user-rejected error', async () => {
    const rejected = rejection(
      request<Hex>('personal_sign', [stringToHex('Please reject me'), wallet.address]),
      'the rejection',
    )
    const card = requestCard('personal_sign')
    await card.waitFor()
    await card.getByRole('button', { name: 'Reject' }).click()
    const error = await rejected
    assert.equal(error.code, 5000)
    await page.getByRole('log', { name: 'Status' }).getByText('personal_sign request rejected').waitFor()
  })

  test('behavior: after a reload the session is listed and still answers requests', async () => {
    await page.reload()
    await ready()
    await page.getByRole('listitem').filter({ hasText: DAPP_NAME }).waitFor()
    const sessions = await page.evaluate(() => window.phoneWallet?.sessions() ?? [])
    assert.deepEqual(
      sessions.map((item) => [item.topic, item.accounts]),
      [[session.topic, [`${CHAIN}:${wallet.address}`]]],
    )

    const message = 'Still here after a reload'
    const signing = request<Hex>('personal_sign', [stringToHex(message), wallet.address])
    await page.waitForFunction(() => (window.phoneWallet?.pendingRequests().length ?? 0) > 0)
    const [pending] = await page.evaluate(() => window.phoneWallet?.pendingRequests() ?? [])
    assert.equal(pending?.method, 'personal_sign')
    assert.ok(pending?.summary.some((line) => line.value === message))
    await page.evaluate(() => window.phoneWallet?.approveRequest())
    assert.ok(
      await verifyMessage({ address: wallet.address, message, signature: await within(signing, 'sig') }),
    )
  })

  test('behavior: Disconnect in the page ends the session in the dapp', async () => {
    const deleted = new Promise<string>((resolve) =>
      dapp.once('session_delete', ({ topic }) => resolve(topic)),
    )
    await page.getByRole('button', { name: 'Disconnect' }).click()
    assert.equal(await within(deleted, 'session_delete'), session.topic)
    assert.equal(dapp.session.keys.includes(session.topic), false)
    await page.getByText('No sessions yet.').waitFor()
    assert.deepEqual(await page.evaluate(() => window.phoneWallet?.sessions()), [])
  })

  test('behavior: a proposal waiting across a reload is still shown; Reject rejects it in the dapp', async () => {
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: { eip155: { chains: [CHAIN], methods: ['personal_sign'], events: [] } },
    })
    assert.ok(uri)
    const rejected = rejection(approval(), 'the proposal rejection')
    await page.evaluate((link) => window.phoneWallet?.pair(link), uri)
    await page.waitForFunction(() => (window.phoneWallet?.pendingProposals().length ?? 0) > 0)
    await page.reload()
    await ready()
    const proposal = page.getByRole('region', { name: 'Session proposal' })
    await proposal.getByText(DAPP_NAME).waitFor()
    await proposal.getByRole('button', { name: 'Reject' }).click()
    const error = await rejected
    assert.equal(error.code, 5000)
    await proposal.waitFor({ state: 'hidden' })
  })

  test('behavior: a proposal for namespaces the wallet lacks is rejected with the SDK error', async () => {
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        solana: {
          chains: ['solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
          methods: ['solana_signMessage'],
          events: [],
        },
      },
    })
    assert.ok(uri)
    const rejected = rejection(approval(), 'the proposal rejection')
    await page.evaluate((link) => window.phoneWallet?.pair(link), uri)
    const error = await rejected
    assert.equal(error.code, 5104) // UNSUPPORTED_NAMESPACE_KEY
    assert.deepEqual(await page.evaluate(() => window.phoneWallet?.pendingProposals()), [])
  })

  test('behavior: autoApprove; switching to 31338 emits chainChanged; a transfer lands on 31338', async () => {
    await page.evaluate(() => window.phoneWallet?.autoApprove(true))
    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: [CHAIN, 'eip155:31338'],
          methods: ['eth_sendTransaction', 'wallet_switchEthereumChain', 'eth_requestAccounts'],
          events: ['chainChanged'],
        },
      },
    })
    assert.ok(uri)
    const settled = approval() // before the wallet approves by itself (see the first test)
    await page.evaluate((link) => window.phoneWallet?.pair(link), uri)
    session = await within(settled, 'the second session')
    assert.deepEqual(session.namespaces.eip155?.accounts, [
      `${CHAIN}:${wallet.address}`,
      `eip155:31338:${wallet.address}`,
    ])

    const changed = new Promise<{ name: string; data: unknown; chainId: string }>((resolve) =>
      dapp.once('session_event', ({ params }) => resolve({ ...params.event, chainId: params.chainId })),
    )
    assert.equal(await within(request('wallet_switchEthereumChain', [{ chainId: '0x7a6a' }]), 'switch'), null)
    assert.deepEqual(await within(changed, 'chainChanged'), {
      name: 'chainChanged',
      data: 31338,
      chainId: 'eip155:31338',
    })

    const unsupported = await rejection(request('eth_requestAccounts', []), 'the unsupported method')
    assert.equal(unsupported.code, 5101) // UNSUPPORTED_METHODS

    const chain2 = createPublicClient({ transport: http(stack.urls.chain2, { retryCount: 0 }) })
    const hash = await within(
      request<Hex>('eth_sendTransaction', [{ to: recipient.address, value: '0x1' }], 'eip155:31338'),
      'the transfer on 31338',
    )
    assert.equal((await chain2.waitForTransactionReceipt({ hash, timeout: 15_000 })).status, 'success')

    await page.evaluate(() => window.phoneWallet?.disconnectAll())
    assert.deepEqual(await page.evaluate(() => window.phoneWallet?.sessions()), [])
  })
})
