import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { WalletKit } from '@reown/walletkit'
import { Core } from '@walletconnect/core'
import { buildApprovedNamespaces, getSdkError } from '@walletconnect/utils'
import type { Browser, Page } from 'playwright-core'
import { type Hex, stringToHex, verifyMessage } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { memoryStorage } from '../support/memoryStorage.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * Interop: our modal pairs with a wallet built on WalletConnect's own wallet SDK
 * (`@reown/walletkit`), through the dev relay, so our side is proven against a client we did not write.
 */
const account = mnemonicToAccount('test test test test test test test test test test test junk')

describe('WalletConnect interop with @reown/walletkit', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let core: InstanceType<typeof Core>
  let wallet: Awaited<ReturnType<typeof WalletKit.init>>

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    core = new Core({
      projectId: 'dev-project',
      relayUrl: stack.urls.relay,
      storage: memoryStorage(),
      // WalletConnect's Core keeps one instance per prefix in the process: a new one each time the
      // file runs (the end-to-end lanes may run a file again in the same process).
      customStoragePrefix: `walletkit-test-${randomUUID()}`,
      logger: 'silent',
      telemetryEnabled: false,
    } as ConstructorParameters<typeof Core>[0])
    wallet = await WalletKit.init({
      // Two copies of the WalletConnect types disagree under exactOptionalPropertyTypes; same object.
      core: core as unknown as Parameters<typeof WalletKit.init>[0]['core'],
      metadata: { name: 'WalletKit test wallet', description: 'interop', url: 'http://127.0.0.1', icons: [] },
    })
    wallet.on('session_proposal', async (proposal) => {
      const namespaces = buildApprovedNamespaces({
        proposal: proposal.params,
        supportedNamespaces: {
          eip155: {
            chains: ['eip155:31337', 'eip155:31338'],
            methods: [
              'personal_sign',
              'eth_signTypedData_v4',
              'eth_sendTransaction',
              'wallet_switchEthereumChain',
            ],
            events: ['accountsChanged', 'chainChanged'],
            accounts: [`eip155:31337:${account.address}`, `eip155:31338:${account.address}`],
          },
        },
      })
      await wallet.approveSession({ id: proposal.id, namespaces })
    })
    wallet.on('session_request', async ({ topic, id, params }) => {
      const { method, params: args } = params.request as { method: string; params: unknown[] }
      if (method === 'personal_sign') {
        const signature = await account.signMessage({ message: { raw: args[0] as Hex } })
        await wallet.respondSessionRequest({ topic, response: { id, jsonrpc: '2.0', result: signature } })
      } else {
        await wallet.respondSessionRequest({
          topic,
          response: { id, jsonrpc: '2.0', error: getSdkError('UNSUPPORTED_METHODS') },
        })
      }
    })
  })

  after(async () => {
    core?.heartbeat.stop()
    await core?.relayer.transportClose().catch(() => {})
    await browser?.close()
    await stack?.stop()
  })

  const walletConfigValue = <T>(page: Page, read: string) =>
    page.evaluate((code) => {
      const config = document.querySelector('wallet-modal')?.walletConfig
      return new Function('config', `return ${code}`)(config) as unknown
    }, read) as Promise<T>

  it('pairs from the QR link, signs over the session, and follows a wallet-side disconnect', async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    const modal = page.locator('wallet-modal').getByRole('dialog')
    await modal.getByRole('button', { name: /WalletConnect/ }).click()
    await modal.getByRole('img', { name: /QR code/ }).waitFor()
    const uri = await walletConfigValue<string>(page, 'config.$pairing.get().uri')
    assert.match(uri, /^wc:[0-9a-f]{64}@2\?/)

    const connected = page.evaluate(
      () =>
        new Promise<{ address: string; connector: { type: string } }>((resolve) =>
          document.addEventListener('wallet-connect', (event) => resolve((event as CustomEvent).detail), {
            once: true,
          }),
        ),
    )
    await wallet.pair({ uri })
    const detail = await connected
    assert.equal(detail.address.toLowerCase(), account.address.toLowerCase())
    assert.equal(detail.connector.type, 'walletConnect')
    await modal.waitFor({ state: 'detached' })

    const message = 'Sign in to wallet-elements (interop)'
    const signature = await page.evaluate(
      ([hex, address]) =>
        document
          .querySelector('wallet-modal')
          ?.getProvider('eip155')
          .request({ method: 'personal_sign', params: [hex, address] }),
      [stringToHex(message), account.address] as const,
    )
    assert.ok(await verifyMessage({ address: account.address, message, signature: signature as Hex }))

    // The chain id comes from the session; reads go to RPC through the service's proxy.
    const chainId = await page.evaluate(() =>
      document.querySelector('wallet-modal')?.getProvider('eip155').request({ method: 'eth_chainId' }),
    )
    assert.equal(chainId, '0x7a69')

    const disconnected = page.evaluate(
      () =>
        new Promise<void>((resolve) =>
          document.addEventListener('wallet-disconnect', () => resolve(), { once: true }),
        ),
    )
    const [topic] = Object.keys(wallet.getActiveSessions())
    assert.ok(topic)
    await wallet.disconnectSession({ topic, reason: getSdkError('USER_DISCONNECTED') })
    await disconnected
    await page.locator('wallet-button').getByRole('button', { name: 'Connect Wallet' }).waitFor()
    await context.close()
  })
})
