import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { connections, signInByEmail, walletFrame } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

/** What the page's own `personal_sign` came to, read without waiting: pending, a signature, or an error code. */
type Outcome =
  | { state: 'pending' }
  | { state: 'signed'; signature: string }
  | { state: 'failed'; code: string }

declare global {
  interface Window {
    outcome?: Outcome
  }
}

/**
 * Clickjacking the approval: a page lays the wallet frame over its own "Claim"
 * button so that a click meant for the button lands on Approve. In Chromium the frame arms Approve
 * only while IntersectionObserver v2 says it is drawn in full (no opacity, no cover, no transform)
 * and has been for a moment; every click before that is ignored, and no signature is made.
 */
describe('embedded wallet: clickjacking the approval', { timeout: 180_000 }, () => {
  let stack: TestStack
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let address: string
  const email = `clicked.${Date.now()}@example.com`

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
    context = await newContext(browser)
    page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    await signInByEmail(page, stack, email)
    address = (await connections(page)).eip155?.address ?? ''
    assert.match(address, /^0x[0-9a-fA-F]{40}$/)
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  const approve = () => walletFrame(page).locator('button[data-action="approve"]')

  /** The site asks `personal_sign`; answers once the frame shows the request (Approve drawn). */
  async function ask(message: string) {
    await page.evaluate((text) => {
      window.outcome = { state: 'pending' }
      window.dapp.signMessage(text).then(
        (signature) => {
          window.outcome = { state: 'signed', signature }
        },
        (error: { code?: number; message?: string }) => {
          window.outcome = { state: 'failed', code: String(error.code ?? error.message) }
        },
      )
    }, message)
    await walletFrame(page).getByText(message).waitFor()
    await approve().waitFor()
  }

  /** The attacker's page: sets the frame's style (and what lies over it), and draws "Claim" under Approve. */
  async function disguise(frameStyle: Record<string, string>, cover: boolean) {
    const box = await approve().boundingBox()
    assert.ok(box, 'Approve is laid out')
    await page.evaluate(
      ({ frameStyle, cover, box }) => {
        const frame = document
          .querySelector('wallet-modal')
          ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
        if (!frame) throw new Error('no wallet frame')
        // Transformed around Approve, so Approve stays where the click lands.
        const rect = frame.getBoundingClientRect()
        frame.style.setProperty(
          'transform-origin',
          `${box.x + box.width / 2 - rect.left}px ${box.y + box.height / 2 - rect.top}px`,
          'important',
        )
        for (const [name, value] of Object.entries(frameStyle))
          frame.style.setProperty(name, value, 'important')
        const claim = document.createElement('button')
        claim.id = 'claim'
        claim.textContent = 'Claim your reward'
        claim.style.cssText = `position:fixed;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px;z-index:1`
        document.getElementById('claim')?.remove()
        document.body.append(claim)
        document.getElementById('veil')?.remove()
        if (cover) {
          // A picture over the whole frame that lets clicks through to it.
          const veil = document.createElement('div')
          veil.id = 'veil'
          veil.textContent = 'Claim your reward'
          veil.style.cssText =
            'position:fixed;inset:0;background:#fff;pointer-events:none;z-index:2147483647;font:40px sans-serif'
          document.body.append(veil)
        }
      },
      { frameStyle, cover, box },
    )
    return box
  }

  /** Puts the frame back as the modal laid it out, and the page's decoys away. */
  async function undisguise(frameStyle: Record<string, string>) {
    await page.evaluate((names) => {
      const frame = document
        .querySelector('wallet-modal')
        ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
      for (const name of [...names, 'transform-origin']) frame?.style.removeProperty(name)
      if (frame) frame.style.opacity = '1'
      document.getElementById('claim')?.remove()
      document.getElementById('veil')?.remove()
    }, Object.keys(frameStyle))
  }

  /** The person clicks where "Claim" is drawn, `times` times over a few seconds (a real mouse click). */
  async function clickClaim(box: { x: number; y: number; width: number; height: number }, times: number) {
    for (let index = 0; index < times; index++) {
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
      await page.waitForTimeout(700)
    }
  }

  const outcome = () => page.evaluate(() => window.outcome)

  for (const attack of [
    { name: 'the frame at 2 % opacity', style: { opacity: '0.02' }, cover: false },
    { name: 'a picture laid over the frame (clicks pass through it)', style: {}, cover: true },
    { name: 'the frame shrunk (transform)', style: { transform: 'scale(0.95)' }, cover: false },
    { name: 'the frame squeezed (transform)', style: { transform: 'scale(1, 0.6)' }, cover: false },
  ]) {
    it(`attack: ${attack.name} over a "Claim" button: clicks land on Approve, no signature`, async () => {
      const message = `Transfer everything ${attack.name}`
      await ask(message)
      const box = await disguise(attack.style, attack.cover)
      // The clicks hit the frame's Approve (the frame is on top), as they did before the fix.
      const hit = await page.evaluate(
        ({ x, y }) => {
          const top = document.elementFromPoint(x, y)
          return top?.shadowRoot?.elementFromPoint(x, y)?.hasAttribute('data-wallet-frame') ?? false
        },
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      )
      assert.equal(hit, true, 'the click point is on the wallet frame')
      try {
        await clickClaim(box, 4)
        assert.deepEqual(await outcome(), { state: 'pending' })
        assert.equal(await approve().getAttribute('aria-disabled'), 'true')
        assert.equal(await approve().getAttribute('aria-busy'), null)
      } finally {
        await undisguise(attack.style)
      }

      // Back in sight: after a moment Approve takes the person's click, and the signature is theirs.
      await approve().click()
      await page.waitForFunction(() => window.outcome?.state !== 'pending')
      const done = await outcome()
      assert.equal(done?.state, 'signed')
      assert.ok(
        await verifyMessage({
          address: address as Hex,
          message,
          signature: (done as { signature: Hex }).signature,
        }),
      )
    })
  }

  it('attack: the frame shown only for the click (revealed under the pointer, clicked at once): ignored', async () => {
    const message = 'Reveal and click'
    await ask(message)
    const box = await disguise({ opacity: '0' }, false)
    try {
      // Well past the minimum time while hidden: hiding it kept Approve unarmed all along.
      await page.waitForTimeout(1500)
      await page.evaluate(() => {
        const frame = document
          .querySelector('wallet-modal')
          ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
        frame?.style.setProperty('opacity', '1', 'important')
      })
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
      // Time enough for a signature to come back had the click counted; and it never started.
      await page.waitForTimeout(2000)
      assert.deepEqual(await outcome(), { state: 'pending' })
      assert.equal(await approve().getAttribute('aria-busy'), null)
    } finally {
      await undisguise({ opacity: '0' })
    }
    // The person, who now sees it, rejects: the site hears 4001.
    await walletFrame(page).getByRole('button', { name: 'Reject' }).click()
    await page.waitForFunction(() => window.outcome?.state !== 'pending')
    assert.deepEqual(await outcome(), { state: 'failed', code: '4001' })
  })
})
