import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core'
import { createSiweMessage } from 'viem/siwe'
import { devAccount } from '../../server/dev/chain/index.ts'
import { DEV_FARCASTER } from '../../server/dev/farcaster/index.ts'
import { FARCASTER_CHAIN_ID } from '../../server/dev/farcaster/registries.ts'
import { closedAfterSignIn } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/** What the host stand-in does when the mini app asks it to sign in. */
type HostAnswer = 'approve' | 'reject' | 'wrong-domain'

/** The host's own wallet (the person's account in the Farcaster app). */
const HOST_ACCOUNT = devAccount(6).address

/**
 * A Farcaster client's web app, played by a page on the site's origin (the host's origin does not
 * matter to the mini app; on the same origin the wallet frame's `frame-ancestors` allows it): it
 * frames the site and answers `@farcaster/miniapp-sdk`'s calls as a host does, over comlink's
 * messages (`GET context`, `APPLY signIn`, `APPLY getCapabilities`, `APPLY eip6963RequestProvider`,
 * `APPLY ethProviderRequestV2`). Sign-in answers come from the test (the fid's custody key signs in
 * Node); `announce` says whether the host announces its wallet over EIP-6963 (newer hosts) or only
 * offers it by capability (older ones).
 */
const hostPage = (announce: boolean) => `<!doctype html>
<html><head><title>Farcaster</title></head><body style="margin:0">
<iframe id="app" title="Mini app" src="/dapp.html" style="display:block;width:390px;height:100vh;border:0"></iframe>
<script>
  const app = document.getElementById('app')
  window.hostCalls = []
  const context = { user: { fid: ${DEV_FARCASTER.fid}, username: '${DEV_FARCASTER.username}' }, client: { clientFid: 9152, added: false }, location: { type: 'launcher' } }
  const reply = (id, value) => app.contentWindow.postMessage({ id, type: 'RAW', value }, '*')
  window.addEventListener('message', async (event) => {
    if (event.source !== app.contentWindow) return
    const { id, type, path = [], argumentList = [] } = event.data ?? {}
    if (typeof id !== 'string' || typeof type !== 'string') return
    const name = path.join('.')
    const argument = argumentList[0]?.value
    window.hostCalls.push(type + ' ' + name)
    if (type === 'GET' && name === 'context') return reply(id, context)
    if (type === 'APPLY' && name === 'getCapabilities') return reply(id, ['actions.signIn', 'wallet.getEthereumProvider'])
    if (type === 'APPLY' && name === 'signIn') return reply(id, await window.hostSignIn(argument))
    if (type === 'APPLY' && name === 'ethProviderRequestV2') {
      const result = argument.method === 'eth_chainId' ? '0x7a69' : ['${HOST_ACCOUNT}']
      return reply(id, { jsonrpc: '2.0', id: argument.id, result })
    }
    if (type === 'APPLY' && name === 'eip6963RequestProvider') {
      reply(id, undefined)
      if (${announce})
        app.contentWindow.postMessage({ type: 'frameEvent', event: { event: 'eip6963:announceProvider', info: {
          uuid: 'c5b5a6a5-1f39-4bb4-9d0a-6d2b6f3c1e01', name: 'Warpcast Wallet', rdns: 'xyz.farcaster.MiniAppWallet',
          icon: 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E' } } }, '*')
      return
    }
    reply(id, undefined)
  })
</script></body></html>`

/**
 * A site opened as a Farcaster mini app: "Continue with Farcaster" asks the host app, which signs a
 * Sign In With Farcaster message for the site with the service's nonce; the service verifies it with
 * the fid's custody key on the registries (the local chain with id 10) and the modal connects on EVM
 * and Solana, with no QR code. A refusal in the host shows Farcaster's "declined"; a message the host
 * signed for another domain is refused by the service. The host's wallet is a browser wallet of the
 * modal, named by the host's EIP-6963 announcement or, where the host makes none, Farcaster Wallet.
 */
describe('a Farcaster mini app', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  const answers: HostAnswer[] = []

  before(async () => {
    ;[stack, browser] = await Promise.all([
      startTestStack({ solana: true, farcaster: true }),
      launchBrowser(),
    ])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  /** The host stand-in with the site framed in it; answers the mini app's frame. */
  async function openInHost(
    announce: boolean,
  ): Promise<{ context: BrowserContext; host: Page; app: FrameLocator }> {
    const context = await newContext(browser)
    const hostUrl = new URL('/farcaster-host.html', stack.urls.demo).href
    await context.route(hostUrl, (route) =>
      route.fulfill({ contentType: 'text/html', body: hostPage(announce) }),
    )
    const host = await context.newPage()
    // The host app signs with the person's fid: its custody key, for the domain it is told.
    await host.exposeFunction('hostSignIn', async ({ nonce }: { nonce: string }) => {
      const answer = answers.shift() ?? 'approve'
      if (answer === 'reject') return { error: { type: 'rejected_by_user' } }
      const site = new URL(stack.urls.demo)
      const custody = devAccount(DEV_FARCASTER.custodyIndex)
      const message = createSiweMessage({
        domain: answer === 'wrong-domain' ? 'evil.example' : site.host,
        address: custody.address,
        statement: 'Farcaster Auth',
        uri: site.origin,
        version: '1',
        chainId: FARCASTER_CHAIN_ID,
        nonce,
        issuedAt: new Date(),
        resources: [`farcaster://fid/${DEV_FARCASTER.fid}`],
      })
      return { result: { message, signature: await custody.signMessage({ message }) } }
    })
    await host.goto(hostUrl)
    return { context, host, app: host.frameLocator('#app') }
  }

  const modalIn = (app: FrameLocator) => app.locator('wallet-modal').getByRole('dialog')
  const connectionsIn = (host: Page) =>
    host.evaluate(() => {
      const app = document.querySelector('iframe')?.contentWindow as Window | null
      const all = app?.document.querySelector('wallet-modal')?.walletConfig.$connections.get() ?? {}
      return Object.fromEntries(Object.entries(all).map(([namespace, record]) => [namespace, record?.status]))
    })

  it('signs in through the host app: declined, then a message for another domain refused, then connected on EVM and Solana', async () => {
    const { context, host, app } = await openInHost(true)
    await app.getByRole('button', { name: 'Connect Wallet' }).click()
    const modal = modalIn(app)
    const farcaster = modal.getByRole('button', { name: 'Continue with Farcaster' })

    answers.push('reject', 'wrong-domain', 'approve')
    await farcaster.click()
    await modal
      .getByRole('alert')
      .filter({ hasText: 'You declined the sign-in in Farcaster' })
      .waitFor()
      .catch(async (error: Error) => {
        // What the modal showed and what the host was asked, for the failure's message.
        const shown = await modal.textContent({ timeout: 1_000 }).catch(() => 'no modal')
        const calls = await host.evaluate(() => (window as unknown as { hostCalls: string[] }).hostCalls)
        throw new Error(
          `${error.message}\nthe modal shows ${JSON.stringify(shown)}\nthe host was asked ${calls}`,
          {
            cause: error,
          },
        )
      })
    // No QR code: the host app asked the person; nothing to scan.
    assert.equal(await modal.getByRole('img', { name: 'QR code to sign in with Farcaster' }).count(), 0)

    await farcaster.click()
    await modal.getByRole('alert').filter({ hasText: 'This approval was made for another site' }).waitFor()

    await farcaster.click()
    // A new wallet is offered the recovery set-up in the wallet frame first: put off, as a person would.
    await closedAfterSignIn(app)
    assert.deepEqual(await connectionsIn(host), { eip155: 'connected', solana: 'connected' })
    await context.close()
  })

  it("the host's wallet is a browser wallet: named as the host announces it, or Farcaster Wallet where it announces none", async () => {
    for (const announce of [true, false]) {
      const { context, host, app } = await openInHost(announce)
      await app.getByRole('button', { name: 'Connect Wallet' }).click()
      const name = announce ? 'Warpcast Wallet' : 'Farcaster Wallet'
      const wallet = modalIn(app).getByRole('button', { name: new RegExp(`^${name}`) })
      await wallet.waitFor()
      // Once the modal knows it is in a mini app, the host's wallet has one row, never two.
      await modalIn(app).getByRole('button', { name: 'Continue with Farcaster' }).waitFor()
      await host.evaluate(async () => {
        const frame = document.querySelector('iframe')?.contentWindow as Window | null
        await frame?.document.querySelector('wallet-modal')?.walletConfig.internal.farcasterMiniApp
      })
      assert.equal(
        await modalIn(app)
          .getByRole('button', { name: /^(Warpcast|Farcaster) Wallet/ })
          .count(),
        1,
      )
      await wallet.click()
      await host.waitForFunction(() => {
        const frame = document.querySelector('iframe')?.contentWindow as Window | null
        const record = frame?.document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155
        return record?.status === 'connected'
      })
      const address = await host.evaluate(() => {
        const frame = document.querySelector('iframe')?.contentWindow as Window | null
        return frame?.document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155
          ?.accounts[0]
      })
      assert.equal(address?.toLowerCase(), HOST_ACCOUNT.toLowerCase(), name)
      await context.close()
    }
  })
})
