import assert from 'node:assert/strict'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import type { APIResponse, Browser, BrowserContext, Page } from 'playwright-core'
import { devAccount } from '../../server/dev/chain/index.ts'
import { focused, sweep } from './axe.ts'
import {
  closedAfterSignIn,
  connectedOnBoth,
  connections,
  fundEth,
  keptUsername,
  modal,
  sendWithApproval,
  signWithApproval,
} from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * Sign In With Farcaster end to end on the local stack: "Continue with Farcaster" on Connect shows the
 * sign-in channel's QR code and "Open Farcaster" link; the demo Farcaster app opens that link and
 * approves with its dev custody key (its fid registered in the IdRegistry stand-in on the local chain
 * with id 10); the service verifies the approval and the modal is connected on EVM and Solana with
 * the Farcaster username on Account; a message is then signed and ETH sent with approval. A decline and an
 * expired code each show their message, and the view offers a fresh code.
 */
describe('embedded wallet (farcaster)', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext
  let page: Page

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

  const dappUrl = () => new URL('/dapp.html', stack.urls.demo).href

  /** Opens ConnectingFarcaster from Connect; answers the link of the channel it shows. */
  async function openFarcaster(): Promise<string> {
    await page.goto(dappUrl())
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(page).getByRole('button', { name: 'Continue with Farcaster' }).click()
    return await channelLink()
  }

  async function channelLink(): Promise<string> {
    await modal(page).getByRole('img', { name: 'QR code to sign in with Farcaster' }).waitFor()
    // The view is titled for what it does, not "Connect Wallet".
    await modal(page).getByRole('heading', { name: 'Sign in with Farcaster', level: 2 }).waitFor()
    const href = await modal(page).getByRole('link', { name: 'Open Farcaster' }).getAttribute('href')
    assert.ok(href?.startsWith(stack.urls.farcasterApp), `the link opens the Farcaster app: ${href}`)
    return href as string
  }

  /**
   * The demo Farcaster app on the channel's link: Approve or Decline. The app runs on the person's
   * phone, so in a browser context of its own. (With the app in a tab of the page's own context, once
   * that tab closed Chromium routed clicks on the cross-site wallet frame to the page instead, until
   * the window was resized: 3 runs of 3, never with the app in its own context.)
   */
  async function answerInApp(link: string, answer: 'Approve' | 'Decline') {
    const phone = await newContext(browser)
    const app = await phone.newPage()
    await app.goto(link)
    // The app names the site the sign-in message names: the wallet frame's host, as the modal said.
    assert.equal(await app.locator('#domain').textContent(), new URL(stack.urls.frame).host)
    await app.getByRole('button', { name: answer }).click()
    await app
      .getByRole('status')
      .filter({ hasText: answer === 'Approve' ? 'Approved' : 'Declined' })
      .waitFor()
    await phone.close()
  }

  it('approved in the Farcaster app: connected on EVM and Solana, the username on Account; a message signed and ETH sent with approval', async () => {
    context = await newContext(browser)
    page = await context.newPage()
    const link = await openFarcaster()
    // Sign In With Farcaster's message must name the host of the frame that verifies
    // it, so the app will show the wallet's host, not this page's: the view says which site asked and
    // what the app will show instead.
    const site = new URL(stack.urls.demo).host
    const wallet = new URL(stack.urls.frame).host
    assert.notEqual(site, wallet)
    await modal(page)
      .locator('[part="farcaster-site"]')
      .getByText(
        `Signing in to ${site}. Your Farcaster app will show ${wallet} as the site: that is this site’s wallet.`,
        { exact: true },
      )
      .waitFor()
    // Focus moves to the view; the wait is announced.
    assert.match(await focused(page), /Open Farcaster|Copy link/)
    await modal(page)
      .getByRole('status')
      .filter({ hasText: 'Waiting for your approval in Farcaster' })
      .waitFor()
    assert.deepEqual(await sweep(page, 'ConnectingFarcaster'), [])
    await answerInApp(link, 'Approve')
    await closedAfterSignIn(page)
    const address = await connectedOnBoth(page)
    assert.equal(await keptUsername(page), JSON.stringify('devcaster'))
    await page.locator('wallet-button').getByRole('button').click()
    await modal(page).getByText('devcaster', { exact: true }).waitFor()
    const picture = await modal(page).locator('[part="user-image"]').getAttribute('src')
    assert.equal(picture, `${stack.urls.farcasterApp}pfp.svg`)
    await modal(page).getByRole('button', { name: 'Close' }).click()
    await signWithApproval(page, address, 'Hello from Farcaster')
    // Then ETH sent from the page, approved in the frame.
    await fundEth(stack, address, '1')
    await sendWithApproval(page, stack, devAccount(6).address, '0.25')
  })

  it('declined in the app, then an expired code: each says so, and a fresh code still signs in', async () => {
    await context.close()
    context = await newContext(browser)
    page = await context.newPage()
    const declined = await openFarcaster()
    await answerInApp(declined, 'Decline')
    await modal(page)
      .getByRole('alert')
      .filter({ hasText: 'You declined the sign-in in Farcaster' })
      .waitFor()
    assert.deepEqual(await sweep(page, 'ConnectingFarcaster, declined'), [])
    await modal(page).getByRole('button', { name: 'Try again' }).click()
    const stale = await channelLink()
    assert.notEqual(stale, declined, 'a new channel')

    // The relay lets the channel lapse (its 5 minutes pass): the view offers a new code.
    stack.advanceFarcasterClock(5 * 60_000 + 1_000)
    await modal(page).getByRole('alert').filter({ hasText: 'This code expired: get a new one' }).waitFor()
    await modal(page).getByRole('button', { name: 'Get a new code' }).click()
    const fresh = await channelLink()
    assert.notEqual(fresh, stale)
    await answerInApp(fresh, 'Approve')
    await closedAfterSignIn(page)
    assert.equal((await connections(page)).eip155?.status, 'connected')
  })

  it('attack: whoever learnt the channel the victim’s browser shows (the link’s channel token and nonce, the sign-in’s ids, the site, the binding hash) finishes nothing from their own browser, before or after the approval; the victim’s browser then signs in', async () => {
    await context?.close()
    context = await newContext(browser)
    page = await context.newPage()
    // The victim's frame asks to finish only once the attacker has tried (its asks are held until
    // then), so the approval is surely there, unspent, when the attacker asks.
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    await context.route('**/embedded/v1/farcaster/finish?*', async (route) => {
      await released
      await route.continue()
    })
    const started = page.waitForResponse((answer) => answer.url().includes('/embedded/v1/farcaster/start?'))
    const link = await openFarcaster()
    // All that left the victim's frame when it started, and the link it shows: the attacker has it all.
    const start = await started
    const { deviceId, origin, bindingHash } = JSON.parse(start.request().postData() ?? '{}') as {
      deviceId: string
      origin: string
      bindingHash: string
    }
    const { loginId } = (await start.json()) as { loginId: string }
    const { channelToken, nonce } = Object.fromEntries(new URL(link).searchParams)
    assert.ok(loginId && deviceId && origin && bindingHash && channelToken && nonce)

    // The attacker's own browser, with its own session key, sending what the frame would send.
    const attacker = await newContext(browser)
    const attackerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ format: 'der', type: 'spki' })
      .toString('base64url')
    const finishUrl = start.url().replace('/farcaster/start?', '/farcaster/finish?')
    const attack = async () => {
      for (const binding of [bindingHash, randomBytes(32).toString('base64url')]) {
        const answer: APIResponse = await attacker.request.post(finishUrl, {
          headers: {
            origin: new URL(stack.urls.frame).origin,
            'x-wallet-site': origin,
            'x-wallet-key': attackerKey,
          },
          data: { loginId, deviceId, binding, channelToken, nonce },
        })
        const body = (await answer.json()) as { token?: string; error?: { code: string; message: string } }
        assert.equal(answer.status(), 403, JSON.stringify(body))
        assert.deepEqual(body.error, { code: 'FORBIDDEN', message: 'Action not allowed' })
        assert.equal(body.token, undefined, 'no session')
      }
    }
    await attack()
    await answerInApp(link, 'Approve')
    await attack()

    release()
    await closedAfterSignIn(page)
    await connectedOnBoth(page)
    assert.equal(await keptUsername(page), JSON.stringify('devcaster'))
    // Replayed once the victim is in: still nothing.
    await attack()
    await context.unrouteAll()
    await attacker.close()
  })
})
