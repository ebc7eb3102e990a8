import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { eq } from 'drizzle-orm'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { getAddress } from 'viem'
import { walletUsers } from '../../server/db/schema.ts'
import { createCustody } from '../../server/embedded/custody.ts'
import { kekRing } from '../../server/embedded/kek.ts'
import { createShareSets } from '../../server/embedded/shareSets.ts'
import { withSharedKeys } from '../../src/frame/keys/shares.ts'
import { encodeBase58 } from '../../src/protocol/siwx/base58.ts'
import { createAttackerSite, EVIL_HOST, FLOOD } from './attacker-site.ts'
import {
  answerInFrame,
  connections,
  deviceSharesIn,
  listenAsPageScript,
  signInByEmail,
} from './embedded-helpers.ts'
import { freePort, launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/**
 * The embedded wallet under attack: a foreign origin cannot frame it or hear from it; floods of random
 * and mutated messages from the page without the port, a foreign frame and a popup get nothing; the
 * page's own scripts find no key and no session token anywhere they can read; the service's cooldown
 * holds under concurrent requests on the real network.
 */
describe('embedded wallet: security', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let evil: Server
  let evilOrigin: string
  let context: BrowserContext
  let page: Page
  const email = `target.${Date.now()}@example.com`
  const exposedNonce = randomBytes(16).toString('base64url')

  before(async () => {
    const evilPort = await freePort()
    evil = createAttackerSite()
    await new Promise<void>((resolve) => evil.listen(evilPort, '127.0.0.1', resolve))
    evilOrigin = `http://${EVIL_HOST}:${(evil.address() as AddressInfo).port}`
    ;[stack, browser] = await Promise.all([
      startTestStack({ solana: true }),
      launchBrowser([`--host-resolver-rules=MAP ${EVIL_HOST} 127.0.0.1`]),
    ])

    // The person signs in on the site first; everything below attacks that session.
    context = await newContext(browser)
    // The page's own scripts, listening to everything they can.
    await listenAsPageScript(context)
    page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await signInByEmail(page, stack, email)
    assert.equal((await connections(page)).eip155?.status, 'connected')
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
    evil?.close()
  })

  it('a foreign origin cannot load the frame (CSP frame-ancestors) nor get an answer', async () => {
    const foreign = await context.newPage()
    const refused: string[] = []
    foreign.on('console', (message) => refused.push(message.text()))
    await foreign.goto(`${evilOrigin}/frame-direct?frame=${encodeURIComponent(stack.urls.frame)}`)
    const result = await foreign.evaluate(() => (window as unknown as { result: Promise<unknown> }).result)
    assert.deepEqual(result, { answered: false, flooded: { sent: 1000, replies: 0 } })
    assert.ok(
      refused.some((line) => /frame-ancestors/.test(line)),
      'the browser refused to frame it under the frame-ancestors policy',
    )
    const wallet = foreign.frames().find((frame) => frame.url().startsWith(stack.urls.frame))
    assert.equal(wallet, undefined, 'no document of the frame origin loaded')
    await foreign.close()
  })

  it('10,000 random and mutated messages each from the page without the port, a foreign frame and a popup: none accepted', async () => {
    const frameRequests: string[] = []
    context.on('request', (request) => {
      if (request.url().startsWith(`${stack.urls.frame}/embedded/`)) frameRequests.push(request.url())
    })
    // 1. The page itself, on the window, without the channel's port.
    await page.addScriptTag({ content: FLOOD })
    const fromPage = await page.evaluate(
      async ({ origin }) => {
        const frame = document
          .querySelector('wallet-modal')
          ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
        const target = frame?.contentWindow
        if (!target) throw new Error('no wallet frame')
        const flood = (window as unknown as { flood: (t: Window, o: string, n: number) => Promise<unknown> })
          .flood
        const exact = await flood(target, origin, 5000)
        const any = await flood(target, '*', 5000)
        return [exact, any]
      },
      { origin: stack.urls.frame },
    )
    assert.deepEqual(fromPage, [
      { sent: 5000, replies: 0 },
      { sent: 5000, replies: 0 },
    ])

    // The modal's wallet frame is out of reach of other windows (a shadow root is not in window.frames);
    // a second wallet frame in the light DOM, waiting for its handshake, is what the attackers can reach.
    const reachable = await page.evaluate(
      ({ frameUrl, nonce }) => {
        const own = document
          .querySelector('wallet-modal')
          ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
        const inFrames = [...Array(window.length).keys()].some(
          (index) => window.frames[index] === own?.contentWindow,
        )
        const exposed = document.createElement('iframe')
        exposed.id = 'exposed-wallet'
        exposed.src = `${frameUrl}/?projectId=dev-project&chainId=eip155:31337&version=4&enableLogger=false#nonce=${nonce}`
        document.body.append(exposed)
        return new Promise((resolve) => exposed.addEventListener('load', () => resolve({ inFrames })))
      },
      { frameUrl: stack.urls.frame, nonce: exposedNonce },
    )
    assert.deepEqual(reachable, { inFrames: false })

    // 2. A foreign frame inside the site.
    await page.evaluate((url) => {
      const frame = document.createElement('iframe')
      frame.id = 'attacker'
      frame.src = url
      document.body.append(frame)
      return new Promise((resolve) => frame.addEventListener('load', resolve))
    }, `${evilOrigin}/attacker`)
    const attackerFrame = page.frames().find((frame) => frame.url().startsWith(evilOrigin))
    const fromFrame = (await attackerFrame?.evaluate(() =>
      (window as unknown as { attack: (n: number) => Promise<{ sent: number; replies: number }[]> }).attack(
        10_000,
      ),
    )) as { sent: number; replies: number }[]
    assert.deepEqual(
      fromFrame,
      [{ sent: 10_000, replies: 0, foreign: true }],
      'it reached the exposed wallet frame',
    )

    // 3. A popup the site opened.
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.evaluate((url) => void window.open(url, 'attacker-popup'), `${evilOrigin}/attacker`),
    ])
    await popup.waitForLoadState()
    const fromPopup = (await popup.evaluate(() =>
      (window as unknown as { attack: (n: number) => Promise<{ sent: number; replies: number }[]> }).attack(
        10_000,
      ),
    )) as { sent: number; replies: number }[]
    // The popup reaches both the exposed wallet frame and the attacker frame of the site.
    assert.deepEqual(
      (fromPopup as { foreign: boolean; sent: number; replies: number }[]).map(({ sent, replies }) => ({
        sent,
        replies,
      })),
      [
        { sent: 10_000, replies: 0 },
        { sent: 10_000, replies: 0 },
      ],
    )
    await popup.close()

    // Its own parent without the nonce of its load gets nothing either.
    const fromParent = await page.evaluate(() => {
      const frame = document.getElementById('exposed-wallet') as HTMLIFrameElement
      const flood = (window as unknown as { flood: (t: Window, o: string, n: number) => Promise<unknown> })
        .flood
      return flood(frame.contentWindow as Window, '*', 5000)
    })
    assert.deepEqual(fromParent, { sent: 5000, replies: 0 })

    // The exposed frame was listening all along: the right handshake from its parent gets its ready event.
    const ready = await page.evaluate(
      ({ origin, nonce }) => {
        const frame = document.getElementById('exposed-wallet') as HTMLIFrameElement
        const channel = new MessageChannel()
        const answer = new Promise((resolve) => {
          channel.port1.onmessage = (event) => resolve(event.data)
        })
        frame.contentWindow?.postMessage({ type: 'wallet-elements:frame-handshake', nonce }, origin, [
          channel.port2,
        ])
        return answer
      },
      { origin: stack.urls.frame, nonce: exposedNonce },
    )
    assert.deepEqual(ready, { type: 'FRAME_READY', payload: { nonce: exposedNonce, version: 4 } })

    // Nothing of it reached the service, and the site's own channel still works.
    assert.deepEqual(frameRequests, [])
    const capabilities = await page.evaluate(async () => {
      const provider = document.querySelector('wallet-modal')?.getProvider('eip155')
      if (!provider) throw new Error('no provider')
      const [address] = (await provider.request({ method: 'eth_accounts' })) as string[]
      return provider.request({ method: 'wallet_getCapabilities', params: [address] })
    })
    assert.deepEqual(capabilities, {
      '0x7a69': { atomic: { status: 'unsupported' } },
      '0x7a6a': { atomic: { status: 'unsupported' } },
    })
    assert.equal((await connections(page)).eip155?.status, 'connected')
  })

  it("the page's own scripts find no key, no share and no session token in any message, storage or DOM they can read", async () => {
    // Use the wallet first: a signature, so the channel carries requests and answers.
    const signed = page.evaluate(() => window.dapp.signMessage('Looking for secrets'))
    await answerInFrame(page, 'Approve')
    await signed

    // The secrets, as the operator and the frame's origin hold them.
    const database = stack.serviceDatabase
    assert.ok(database)
    const [user] = await database.db.select().from(walletUsers).where(eq(walletUsers.email, email))
    assert.ok(user)
    // This browser's share of the person's keys, opened on the frame's origin, and the
    // service's auth share: together they are the keys.
    const shares = await deviceSharesIn(page, stack)
    assert.ok(shares.length > 0, 'the frame keeps a device share')
    // The stack's KEK, as the operator holds it beside the database.
    const custody = createCustody(
      database.db,
      kekRing([Buffer.from(stack.walletKek, 'base64')], 'WALLET_KEK'),
    )
    const shareSets = createShareSets(database.db, custody)
    const set = await shareSets.current(user.id)
    assert.ok(set, 'the service keeps a share set')
    const authShare = await shareSets.openShare(set, 'auth')
    const device = shares
      .map((share) => Buffer.from(share, 'hex'))
      .find((share) => share.subarray(1, 9).equals(authShare.subarray(1, 9)))
    assert.ok(device, "this browser's share is of the current set")
    const { evmKey, solanaSeed } = await withSharedKeys(
      [new Uint8Array(device), new Uint8Array(authShare)],
      { eip155: getAddress(set.evmAddress), solana: set.solanaAddress },
      (keys) => ({
        evmKey: Buffer.from(keys.secp256k1).toString('hex'),
        solanaSeed: Buffer.from(keys.ed25519),
      }),
    )
    const solanaSecretKey = Buffer.concat([solanaSeed, Buffer.from(ed25519.getPublicKey(solanaSeed))])
    const walletOrigin = page.frames().find((frame) => frame.url().startsWith(stack.urls.frame))
    const frameStorage = (await walletOrigin?.evaluate(() => Object.values(localStorage))) ?? []
    const token = frameStorage.find((value) => /^[A-Za-z0-9_-]{43}$/.test(value))
    assert.ok(token, 'the frame keeps its session token in its own storage')
    const shareEncodings = shares.flatMap((share) => {
      const bytes = Buffer.from(share, 'hex')
      return [share, bytes.toString('base64'), bytes.toString('base64url'), bytes.subarray(9).toString('hex')]
    })
    const secrets = [
      token,
      ...shareEncodings,
      evmKey,
      evmKey.toUpperCase(),
      solanaSeed.toString('hex'),
      solanaSeed.toString('base64'),
      encodeBase58(solanaSeed),
      encodeBase58(solanaSecretKey),
      solanaSecretKey.toString('base64'),
      JSON.stringify([...solanaSeed]).slice(1, -1),
    ]

    // Everything the page's scripts can read.
    const haystack = await page.evaluate(() => {
      const shadows: string[] = []
      const walk = (root: Document | ShadowRoot) => {
        for (const element of root.querySelectorAll('*')) {
          if (element.shadowRoot) {
            shadows.push(element.shadowRoot.innerHTML)
            walk(element.shadowRoot)
          }
          if (element instanceof HTMLIFrameElement) shadows.push(element.src)
        }
      }
      walk(document)
      return [
        ...(window as unknown as { seen: string[] }).seen,
        JSON.stringify({ ...localStorage }),
        JSON.stringify({ ...sessionStorage }),
        document.cookie,
        document.documentElement.outerHTML,
        ...shadows,
        ...performance.getEntries().map((entry) => entry.name),
        location.href,
      ].join('\n')
    })
    assert.ok(
      haystack.includes('RPC_REQUEST') && haystack.includes('personal_sign'),
      'the listener saw the traffic',
    )
    for (const secret of secrets)
      assert.ok(!haystack.includes(secret), `found a secret of ${secret.length} characters`)
  })

  it('on the real network: another origin is refused, and the cooldown holds for 20 concurrent sign-ins', async () => {
    const post = (origin: string, body: unknown) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${stack.urls.frame}/embedded/v1/email/connect?projectId=dev-project`)
        const request = httpRequest(
          url,
          {
            method: 'POST',
            headers: {
              origin,
              'content-type': 'application/json',
              'x-wallet-site': new URL(stack.urls.demo).origin,
            },
            agent: false,
          },
          (response) => {
            let text = ''
            response.on('data', (chunk) => {
              text += chunk
            })
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
          },
        )
        request.on('error', reject)
        request.end(JSON.stringify(body))
      })
    const body = (address: string) => ({
      email: address,
      deviceId: randomBytes(16).toString('base64url'),
      origin: new URL(stack.urls.demo).origin,
    })
    const foreign = await post(evilOrigin, body(`victim.${Date.now()}@example.com`))
    assert.equal(foreign.status, 403)
    const target = `burst.${Date.now()}@example.com`
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(stack.urls.frame, body(target))))
    const statuses = answers.map((answer) => answer.status).sort()
    assert.deepEqual(statuses, [200, ...Array(19).fill(429)])
    for (const answer of answers.filter((candidate) => candidate.status === 429))
      assert.match(answer.body, /Please try again after \d+ seconds/)
  })
})
