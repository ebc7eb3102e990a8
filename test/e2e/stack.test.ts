import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { createPublicClient, type Hex, http, parseEther, toHex, verifyMessage, verifyTypedData } from 'viem'
import type { DemoWalletBehavior } from '../../demo/wallets/demo-wallet.ts'
import { devAccount } from '../../server/dev/chain/index.ts'
import { freePort, launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

type RpcOutcome = { result?: unknown; error?: { code: unknown; message: unknown } }

/** Calls the Demo Wallet's provider in the page; errors come back as `{ error: { code, message } }`. */
function request(page: Page, method: string, params?: unknown): Promise<RpcOutcome> {
  return page.evaluate(
    async ({ method, params }) => {
      const provider = window.demoWallet?.provider
      if (!provider) throw new Error('window.demoWallet is missing')
      try {
        return {
          result: await provider.request(
            params === undefined ? { method } : { method, params: params as object },
          ),
        }
      } catch (error) {
        const { code, message } = error as { code?: unknown; message?: unknown }
        return { error: { code, message } }
      }
    },
    { method, params },
  )
}

describe('local stack', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  })
  after(async () => {
    await context?.close()
    await browser?.close()
    await stack?.stop()
  })

  const harness = (query = '') => new URL(`wallets/harness.html${query}`, stack.urls.demo).href
  const openPage = async (query = ''): Promise<Page> => {
    await context?.close()
    context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(harness(query))
    await page.waitForFunction(() => window.demoWallet !== undefined || document.readyState === 'complete')
    return page
  }

  test('default: the stack serves two chains and the demo on loopback', async () => {
    assert.match(stack.urls.chain, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.match(stack.urls.chain2, /^http:\/\/127\.0\.0\.1:\d+$/)
    assert.match(stack.urls.demo, /^http:\/\/127\.0\.0\.1:\d+\/$/)
    const chainIds = await Promise.all(
      [stack.urls.chain, stack.urls.chain2].map((url) =>
        createPublicClient({ transport: http(url, { retryCount: 0 }) }).getChainId(),
      ),
    )
    assert.deepEqual(chainIds, [31337, 31338])
  })

  test('default: the demo page loads the demo wallet, which answers eip6963:requestProvider', async () => {
    await context?.close()
    context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(stack.urls.demo)
    await page.waitForFunction(() => window.demoWallet !== undefined)
    const announced = () =>
      page.evaluate(() => {
        const names: unknown[] = []
        const listener = (event: Event) => {
          names.push(((event as CustomEvent).detail as { info: { rdns: unknown } }).info.rdns)
        }
        window.addEventListener('eip6963:announceProvider', listener)
        window.dispatchEvent(new Event('eip6963:requestProvider'))
        window.removeEventListener('eip6963:announceProvider', listener)
        return names
      })
    // The demo wallet answers at once; the modal announces the site's own wallet too, once the page is
    // idle (its chunk loads then), so wait for both rather than catch the page before or after.
    const deadline = Date.now() + 15_000
    let names = await announced()
    while (names.length < 2 && Date.now() < deadline) {
      await page.waitForTimeout(100)
      names = await announced()
    }
    assert.deepEqual(names, ['dev.wallet-elements.demo', 'org.wallet-elements.embedded'])
  })

  test('default: the demo wallet announces itself by EIP-6963, again on every request', async () => {
    const page = await openPage()
    const announcements = await page.evaluate(() => {
      const seen: { info: Record<string, unknown>; frozen: boolean; hasRequest: boolean }[] = []
      const listener = (event: Event) => {
        const detail = (event as CustomEvent).detail as { info: Record<string, unknown>; provider: unknown }
        seen.push({
          info: { ...detail.info },
          frozen: Object.isFrozen(detail) && Object.isFrozen(detail.info),
          hasRequest: typeof (detail.provider as { request?: unknown }).request === 'function',
        })
      }
      window.addEventListener('eip6963:announceProvider', listener)
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      window.removeEventListener('eip6963:announceProvider', listener)
      return seen
    })
    assert.equal(announcements.length, 2)
    const [first, second] = announcements
    assert.equal(first?.info.name, 'Demo Wallet')
    assert.equal(first?.info.rdns, 'dev.wallet-elements.demo')
    assert.match(String(first?.info.icon), /^data:image\/svg\+xml;base64,/)
    assert.match(
      String(first?.info.uuid),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    assert.deepEqual(second?.info, first?.info)
    assert.equal(first?.frozen, true)
    assert.equal(first?.hasRequest, true)
    assert.equal(await page.locator('#announced').textContent(), 'Demo Wallet')
  })

  test('behavior: connect shows a prompt; approval is remembered across a reload', async () => {
    const page = await openPage()
    const origin = new URL(stack.urls.demo).origin
    assert.deepEqual((await request(page, 'eth_accounts')).result, [])

    const connecting = request(page, 'eth_requestAccounts')
    const dialog = page.getByRole('dialog', { name: 'Demo Wallet request' })
    await dialog.waitFor()
    assert.match(
      (await dialog.textContent()) ?? '',
      new RegExp(`Connect to ${origin.replaceAll('.', '\\.')}`),
    )
    // A second connect request while the first waits shares the same prompt.
    const again = request(page, 'eth_requestAccounts')
    assert.equal(await page.evaluate(() => window.demoWallet?.pending()), 1)
    await dialog.getByRole('button', { name: 'Approve' }).click()
    assert.deepEqual((await connecting).result, [devAccount(0).address])
    assert.deepEqual((await again).result, [devAccount(0).address])
    await dialog.waitFor({ state: 'detached' })

    assert.deepEqual(await request(page, 'eth_chainId'), { result: '0x7a69' })
    assert.deepEqual(await request(page, 'net_version'), { result: '31337' })
    const balance = await request(page, 'eth_getBalance', [devAccount(0).address, 'latest'])
    assert.equal(typeof balance.result, 'string')
    assert.ok(BigInt(balance.result as string) > parseEther('9000'))

    await page.reload()
    assert.deepEqual((await request(page, 'eth_accounts')).result, [devAccount(0).address])
    assert.deepEqual((await request(page, 'eth_requestAccounts')).result, [devAccount(0).address])
    assert.equal(await page.evaluate(() => window.demoWallet?.pending()), 0)

    const events = page.evaluate(
      () =>
        new Promise<unknown[]>((resolve) => {
          const seen: unknown[] = []
          window.demoWallet?.provider.on('accountsChanged', (accounts: unknown) => {
            seen.push(accounts)
            if (seen.length === 2) resolve(seen)
          })
          window.demoWallet?.switchAccount(1)
          window.demoWallet?.disconnect()
        }),
    )
    assert.deepEqual(await events, [[devAccount(1).address], []])
    assert.deepEqual((await request(page, 'eth_accounts')).result, [])
  })

  test('error: Reject answers 4001, and a signature needs authorization first (4100)', async () => {
    const page = await openPage()
    assert.equal(
      (await request(page, 'personal_sign', ['0x68690a', devAccount(0).address])).error?.code,
      4100,
    )
    const connecting = request(page, 'eth_requestAccounts')
    await page.locator('[data-demo-wallet="reject"]').click()
    assert.deepEqual((await connecting).error, { code: 4001, message: 'User rejected the request.' })
    assert.equal((await request(page, 'eth_sign', [devAccount(0).address, '0x00'])).error?.code, 4200)
  })

  test('behavior: personal_sign and eth_signTypedData_v4 sign with the dev key after approval', async () => {
    const page = await openPage('?demoAutoApprove=1')
    await request(page, 'eth_requestAccounts')
    await page.evaluate(() => window.demoWallet?.autoApprove(false))
    const { address } = devAccount(0)

    const message = 'Hello from the e2e test'
    const signing = request(page, 'personal_sign', [toHex(message), address])
    const dialog = page.getByRole('dialog', { name: 'Demo Wallet request' })
    await dialog.waitFor()
    assert.match((await dialog.textContent()) ?? '', /Sign message.*Hello from the e2e test/s)
    await dialog.getByRole('button', { name: 'Approve' }).click()
    const signature = (await signing).result as Hex
    assert.equal(await verifyMessage({ address, message, signature }), true)

    const typedData = {
      domain: { name: 'Wallet Elements', version: '1', chainId: 31337 },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Mail: [
          { name: 'to', type: 'address' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      message: { to: devAccount(1).address, contents: 'gm' },
    } as const
    await page.evaluate(() => window.demoWallet?.autoApprove(true))
    const typed = await request(page, 'eth_signTypedData_v4', [address, JSON.stringify(typedData)])
    assert.equal(typeof typed.result, 'string', JSON.stringify(typed.error))
    assert.equal(
      await verifyTypedData({
        address,
        domain: typedData.domain,
        types: { Mail: typedData.types.Mail },
        primaryType: 'Mail',
        message: typedData.message,
        signature: typed.result as Hex,
      }),
      true,
    )
  })

  test('behavior: eth_sendTransaction fills gas and nonce, signs locally and moves ETH on the chain', async () => {
    const page = await openPage('?demoAccount=4')
    const from = devAccount(4).address
    const to = devAccount(5).address
    const client = createPublicClient({ transport: http(stack.urls.chain, { retryCount: 0 }) })
    const before = await client.getBalance({ address: to })
    await page.evaluate(() => window.demoWallet?.autoApprove(true))
    await request(page, 'eth_requestAccounts')
    await page.evaluate(() => window.demoWallet?.autoApprove(false))

    const sending = request(page, 'eth_sendTransaction', [{ from, to, value: toHex(parseEther('2')) }])
    const dialog = page.getByRole('dialog', { name: 'Demo Wallet request' })
    await dialog.waitFor()
    assert.match((await dialog.textContent()) ?? '', new RegExp(`Send 2 ETH to ${to}`))
    await page.locator('[data-demo-wallet="approve"]').click()
    const sent = await sending
    assert.match(String(sent.result), /^0x[0-9a-f]{64}$/, JSON.stringify(sent.error))

    const receipt = await client.waitForTransactionReceipt({ hash: sent.result as Hex, pollingInterval: 50 })
    assert.equal(receipt.status, 'success')
    assert.equal(receipt.from.toLowerCase(), from.toLowerCase())
    assert.equal((await client.getBalance({ address: to })) - before, parseEther('2'))
    const forwarded = await request(page, 'eth_getTransactionReceipt', [sent.result])
    assert.equal((forwarded.result as { status?: string }).status, '0x1')
  })

  test('behavior: unknown chain answers 4902; wallet_addEthereumChain adds chain 2 and switches', async () => {
    const page = await openPage()
    const switchTo = { chainId: toHex(31338) }
    assert.equal((await request(page, 'wallet_switchEthereumChain', [switchTo])).error?.code, 4902)

    const changed = page.evaluate(
      () =>
        new Promise<unknown>((resolve) => {
          window.demoWallet?.provider.on('chainChanged', resolve)
        }),
    )
    const adding = request(page, 'wallet_addEthereumChain', [
      {
        chainId: toHex(31338),
        chainName: 'Local 2',
        rpcUrls: [stack.urls.chain2],
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      },
    ])
    const dialog = page.getByRole('dialog', { name: 'Demo Wallet request' })
    await dialog.waitFor()
    assert.match((await dialog.textContent()) ?? '', /Add network Local 2/)
    await dialog.getByRole('button', { name: 'Approve' }).click()
    assert.deepEqual(await adding, { result: null })
    assert.equal(await changed, '0x7a6a')
    assert.deepEqual(await request(page, 'eth_chainId'), { result: '0x7a6a' })
    assert.deepEqual(await request(page, 'eth_chainId'), { result: '0x7a6a' })
    const chainIdOverRpc = await request(page, 'eth_call', [
      { to: devAccount(0).address, data: '0x' },
      'latest',
    ])
    assert.deepEqual(chainIdOverRpc, { result: '0x' })

    // Known chains persist: after a reload (back on 31337), switching to 31338 needs no prompt.
    await page.reload()
    assert.deepEqual(await request(page, 'wallet_switchEthereumChain', [switchTo]), { result: null })
    assert.equal(await page.evaluate(() => window.demoWallet?.chainId), 31338)
  })

  test('behavior: a chain known only by id answers eth_chainId but fails reads', async () => {
    const page = await openPage('?demoChain=1')
    assert.deepEqual(await request(page, 'eth_chainId'), { result: '0x1' })
    const read = await request(page, 'eth_blockNumber')
    assert.equal(read.error?.code, -32603)
    assert.match(String(read.error?.message), /no RPC URL for chain 1/)
  })

  test('behavior: throw, hang and garbage make a misbehaving wallet', async () => {
    const page = await openPage('?demoBehavior=throw')
    assert.deepEqual((await request(page, 'eth_chainId')).error, {
      code: -32603,
      message: 'Demo Wallet internal error',
    })

    const set = (behavior: DemoWalletBehavior) =>
      page.evaluate((b) => window.demoWallet?.setBehavior(b), behavior)
    await set('garbage')
    assert.deepEqual(await request(page, 'eth_requestAccounts'), { result: { foo: 1 } })
    assert.deepEqual(await request(page, 'eth_accounts'), { result: { foo: 1 } })
    assert.deepEqual(await request(page, 'eth_chainId'), { result: 'not-a-chain' })

    await set('hang')
    const settled = await page.evaluate(async () => {
      const provider = window.demoWallet?.provider
      const answer = provider?.request({ method: 'eth_chainId' }).then(
        () => 'settled',
        () => 'settled',
      )
      return Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve('pending'), 300))])
    })
    assert.equal(settled, 'pending')

    await set('normal')
    assert.deepEqual(await request(page, 'eth_chainId'), { result: '0x7a69' })
  })

  test('behavior: ?demoWallet=legacy sets window.ethereum and does not announce; off does nothing', async () => {
    const countAnnouncements = (page: Page) =>
      page.evaluate(() => {
        let count = 0
        const listener = () => {
          count++
        }
        window.addEventListener('eip6963:announceProvider', listener)
        window.dispatchEvent(new Event('eip6963:requestProvider'))
        window.removeEventListener('eip6963:announceProvider', listener)
        return count
      })
    const injected = (page: Page) =>
      page.evaluate(async () => {
        const ethereum = (
          window as unknown as { ethereum?: { isDemoWallet?: boolean; request(a: object): Promise<unknown> } }
        ).ethereum
        return ethereum
          ? {
              isDemoWallet: ethereum.isDemoWallet,
              chainId: await ethereum.request({ method: 'eth_chainId' }),
            }
          : null
      })

    const legacy = await openPage('?demoWallet=legacy')
    assert.equal(await countAnnouncements(legacy), 0)
    assert.deepEqual(await injected(legacy), { isDemoWallet: true, chainId: '0x7a69' })

    const off = await openPage('?demoWallet=off')
    assert.equal(await countAnnouncements(off), 0)
    assert.equal(await injected(off), null)
    assert.equal(await off.evaluate(() => window.demoWallet === undefined), true)
  })
})

test('error: a port already taken fails startStack, and what had started is stopped', {
  timeout: 60_000,
}, async () => {
  const blocker = net.createServer()
  await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve))
  const taken = (blocker.address() as net.AddressInfo).port
  const [chainPort, demoPort] = [await freePort(), await freePort()]
  try {
    await assert.rejects(
      // The test stack (free ports for the rest, the frame npm test built, the service in memory), so
      // nothing else runs on a standard port and no frame is built just to be stopped again.
      startTestStack({ chainPort, chain2Port: taken, demoPort }),
      (error: Error) => {
        assert.match(error.message, new RegExp(`chain2 failed to start: .*port ${taken} .*already in use`))
        return true
      },
    )
    // The chain and the demo that did start were stopped again: their ports are free.
    for (const port of [chainPort, demoPort]) {
      await new Promise<void>((resolve, reject) => {
        const probe = net.createServer()
        probe.once('error', reject)
        probe.listen({ host: '127.0.0.1', port }, () => probe.close(() => resolve()))
      })
    }
  } finally {
    blocker.close()
  }
})
