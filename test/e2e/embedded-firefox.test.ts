import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import type { Browser, ElementHandle, Frame, Page } from 'puppeteer-core'
import { launch } from 'puppeteer-core'
import { type Hex, verifyMessage } from 'viem'
import { codeOf, nextMail } from './embedded-helpers.ts'
import { browserWalletJourney } from './engine-journeys.ts'
import { puppeteerTab } from './engine-tabs.ts'
import { startTestStack, type TestStack } from './harness.ts'

/** Debian's Firefox ESR (scripts/install-browsers.sh installs it with apt; FIREFOX_PATH overrides). */
const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
const skip = existsSync(firefoxPath)
  ? false
  : `Firefox is not installed at ${firefoxPath}: run \`bash scripts/install-browsers.sh\` (as root with apt) or set FIREFOX_PATH`
// In CI (CI=true) Firefox is required: scripts/install-browsers.sh installs it there, and a missing
// Firefox fails the run instead of skipping.
if (skip && process.env.CI === 'true') throw new Error(`CI needs Firefox: ${skip}`)

/** Waits for `probe` to answer something truthy (Firefox over BiDi: no auto-waiting locators into shadow roots here). */
async function until<T>(what: string, probe: () => Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The modal's dialog text (its shadow root), for what the person reads. */
const modalText = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelector('wallet-modal')?.shadowRoot?.querySelector('[role="dialog"]')?.textContent ?? '',
  )

/**
 * The core journeys in Firefox: the Demo Wallet's journey shared with WebKit
 * (test/e2e/engine-journeys.ts) in a browser context of its own, then the embedded wallet's below, on
 * one stack.
 *
 * The embedded wallet in Firefox: Firefox names the ancestors of our iframe
 * (`referrerpolicy="no-referrer"`) as `"null"` in `location.ancestorOrigins`, and the frame used to
 * refuse the handshake, so the e-mail sign-in waited 20 s and showed "Network Error - could not load
 * embedded wallet". Driven over WebDriver BiDi with puppeteer-core: the e-mail sign-in through the
 * frame's handshake, connected, and a message signed with approval in the approval window.
 *
 * Firefox has no IntersectionObserver v2, so the frame cannot see a page that keeps it transparent
 * over its own "Claim" button (clickjacking): there the frame's Approve only opens a top-level
 * window on the frame's origin (`/approve`), and only a click in that window approves. Puppeteer over
 * BiDi sees that window as a new page target (`browser.waitForTarget`, `target.page()`).
 */
describe('the core journeys and the embedded wallet in Firefox (WebDriver BiDi)', {
  timeout: 300_000,
  skip,
}, () => {
  let stack: TestStack
  let browser: Browser
  let page: Page
  const email = `fox.${Date.now()}@example.com`

  before(async () => {
    ;[stack, browser] = await Promise.all([
      startTestStack({ solana: true }),
      launch({
        browser: 'firefox',
        executablePath: firefoxPath,
        headless: true,
        // A profile of its own per run (puppeteer makes one); no updates, no telemetry, no first-run pages.
        extraPrefsFirefox: {
          'app.update.enabled': false,
          'datareporting.policy.dataSubmissionEnabled': false,
          'toolkit.telemetry.reportingpolicy.firstRun': false,
          // Firefox's popup blocker as people have it (puppeteer turns it off): the approval window opens
          // only from the person's click.
          'dom.disable_open_during_load': true,
        },
      }),
    ])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })
  let address = ''

  /** The frame's approval windows (`/approve` on the frame's origin) open now. */
  const approvalWindows = async () => {
    const pages = await browser.pages()
    return pages.filter((candidate) => candidate.url().startsWith(new URL('/approve', stack.urls.frame).href))
  }
  /** The next approval window the frame opens (puppeteer over BiDi sees it as a new page target). */
  const approvalWindow = async (): Promise<Page> => {
    const target = await browser
      .waitForTarget((candidate) => candidate.url().startsWith(new URL('/approve', stack.urls.frame).href), {
        timeout: 15_000,
      })
      .catch(async (error: unknown) => {
        // What the frame said (blocked?) and which windows there are, for the failure's message.
        const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
        const status = await frame?.evaluate(
          () => document.querySelector('[data-window-status]')?.textContent,
        )
        const urls = (await browser.pages()).map((candidate) => candidate.url())
        throw new Error(
          `No approval window (frame says ${JSON.stringify(status)}; pages ${urls.join(', ')})`,
          {
            cause: error,
          },
        )
      })
    return until('the approval window page', async () => (await target.page()) ?? undefined)
  }
  /** Clicks the frame's Approve ("Review in a new window") and answers the window it opens. */
  const openWindowFrom = async (approve: ElementHandle<Element>) => {
    const opened = approvalWindow()
    await approve.click()
    return opened
  }
  /** The person approves in the window: it comes to the front, Approve arms after a moment, a click. */
  const approveInWindow = async (review: Page) => {
    await review.bringToFront()
    const button = await until('Approve in the window', () => review.$('button[data-action="approve"]'))
    await until('Approve armed in the window', () =>
      button.evaluate((element) => !element.hasAttribute('aria-disabled')),
    )
    await button.click()
  }
  /** The site asks `personal_sign`; what it came to is read with `outcome()` without waiting. */
  const ask = (message: string) =>
    page.evaluate((text) => {
      const record = window as unknown as { outcome?: unknown }
      record.outcome = { state: 'pending' }
      window.dapp.signMessage(text).then(
        (signature) => {
          record.outcome = { state: 'signed', signature }
        },
        (error: { code?: number; message?: string }) => {
          record.outcome = { state: 'failed', code: String(error.code ?? error.message) }
          // For a failure's message: what the site was told.
          ;(record as { said?: string | undefined }).said = error.message
        },
      )
    }, message)
  const outcome = () =>
    page.evaluate(
      () => (window as unknown as { outcome?: { state: string; signature?: string; code?: string } }).outcome,
    )
  /** The frame's Approve, once the frame shows `message`. */
  const frameApprove = (message: string) =>
    until('the Approve button in the frame', async () => {
      const shown = page.frames().find((candidate: Frame) => candidate.url().startsWith(stack.urls.frame))
      const button = await shown?.$('button[data-action="approve"]')
      const text = await shown?.evaluate(() => document.body.textContent ?? '')
      return button && text?.includes(message) ? button : undefined
    }).catch(async (error: Error) => {
      // What the frame showed instead, and which pages were open (an approval window left over?).
      const shown = page.frames().find((candidate: Frame) => candidate.url().startsWith(stack.urls.frame))
      const text = await shown
        ?.evaluate(
          () =>
            `${document.body.textContent ?? ''} (loaded ${Math.round(Date.now() - performance.timeOrigin)} ms ago)`,
        )
        .catch(() => undefined)
      const urls = (await browser.pages()).map((candidate) => candidate.url())
      const site = await page
        .evaluate(() => {
          const modal = document.querySelector('wallet-modal')?.walletConfig.$modal.get()
          return {
            open: modal?.open,
            view: modal?.router.view,
            outcome: (window as unknown as { outcome?: unknown }).outcome,
          }
        })
        .catch(() => undefined)
      throw new Error(
        `${error.message}; the frame shows ${JSON.stringify(text?.slice(0, 400))}; pages ${urls.join(', ')}; the page ${JSON.stringify(site)}`,
        {
          cause: error,
        },
      )
    })

  it('Demo Wallet: opens the modal, connects, signs, sends, switches network, disconnects', async () => {
    // A browser context of its own: nothing of this journey is left for the embedded wallet's.
    const context = await browser.createBrowserContext()
    try {
      const tab = puppeteerTab(browser, await context.newPage(), stack.urls.frame)
      await browserWalletJourney(tab, stack, (line) => console.log(`  Firefox ${line}`))
    } finally {
      await context.close()
    }
  })

  it('signs in with a code: the frame answers the handshake (ancestorOrigins ["null"]), connected on EVM', async () => {
    page = await browser.newPage()
    // tsx keeps function names with a `__name()` helper the page does not have (see harness newContext).
    await page.evaluateOnNewDocument('globalThis.__name ??= (target) => target')
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    // The first element matching `selector` in the element `host`'s open shadow roots, waited for.
    const need = (host: string, selector: string) =>
      until(`${host} ${selector}`, async () => {
        const handle = await page.evaluateHandle(
          (hostName, wanted) => {
            const search = (root: Document | ShadowRoot): Element | null => {
              const found = root.querySelector(wanted)
              if (found) return found
              for (const element of root.querySelectorAll('*')) {
                const inner = element.shadowRoot ? search(element.shadowRoot) : null
                if (inner) return inner
              }
              return null
            }
            const shadow = document.querySelector(hostName)?.shadowRoot
            return shadow ? search(shadow) : null
          },
          host,
          selector,
        )
        const element = handle.asElement()
        return element ? (element as ElementHandle<Element>) : undefined
      })
    await (await need('wallet-button', 'button')).click()
    await (await need('wallet-modal', 'input[type="email"]')).type(email)
    await (await need('wallet-modal', 'form button[type="submit"]')).click()
    // The frame's handshake succeeded: its code was mailed, and the modal asks for it (before the
    // fix: 20 s, then "Network Error - could not load embedded wallet").
    const mail = await nextMail(stack, email, 0)
    const code = await need('wallet-modal', 'input[autocomplete="one-time-code"]')
    assert.doesNotMatch(await modalText(page), /could not load embedded wallet/)
    // What Firefox reports inside our iframe: the reason the old check refused.
    const frame = await until('the wallet frame', async () =>
      page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame)),
    )
    const ancestors = await frame.evaluate(() =>
      location.ancestorOrigins ? [...location.ancestorOrigins] : 'not implemented',
    )
    // Firefox 153: the parent masked as "null" (the iframe's referrerpolicy), what the check must allow.
    assert.deepEqual(ancestors, ['null'], 'Firefox masks the ancestors of a no-referrer iframe')
    await code.type(codeOf(mail))
    // A new wallet is offered the recovery set-up in the frame: put off with Later.
    const later = await until('Later in the wallet frame', async () => {
      const shown = page.frames().find((candidate: Frame) => candidate.url().startsWith(stack.urls.frame))
      for (const button of (await shown?.$$('button')) ?? []) {
        if ((await button.evaluate((element) => element.textContent?.trim())) === 'Later') return button
      }
      return undefined
    })
    await later.click()
    address = await until('connected on EVM', () =>
      page.evaluate(() => {
        const record = document.querySelector('wallet-modal')?.walletConfig.$connections.get().eip155
        return record?.status === 'connected' ? record.accounts[0] : undefined
      }),
    )
    assert.match(address, /^0x[0-9a-fA-F]{40}$/)

    // A signed-in call through the frame: personal_sign. Firefox has no IntersectionObserver v2, so
    // the frame's Approve opens the approval window, where the person approves.
    const message = 'Hello from Firefox'
    const signature = page.evaluate((text) => window.dapp.signMessage(text), message)
    const approve = await until('the Approve button in the frame', async () => {
      const shown = page.frames().find((candidate: Frame) => candidate.url().startsWith(stack.urls.frame))
      const button = await shown?.$('button[data-action="approve"]')
      const text = await shown?.evaluate(() => document.body.textContent ?? '')
      return button && text?.includes(message) ? button : undefined
    })
    // Approve takes a click only once the view has been shown for a moment (against clickjacking).
    await until('Approve enabled', () => approve.evaluate((button) => !button.hasAttribute('aria-disabled')))
    assert.equal(await approve.evaluate((button) => button.textContent), 'Review in a new window')
    const opened = approvalWindow()
    await approve.click()
    const review = await opened
    // The same preview as the frame's, on the frame's own origin, in a window of its own.
    assert.equal(new URL(review.url()).origin, new URL(stack.urls.frame).origin)
    const inWindow = await until('the request in the approval window', async () => {
      const text = await review.evaluate(() => document.body.textContent ?? '')
      return text.includes(message) ? text : undefined
    })
    assert.match(inWindow, /Sign this message/)
    assert.equal(
      await review.evaluate(() => window.top === window),
      true,
      'the approval window is a top-level window',
    )
    await approveInWindow(review)
    assert.ok(await verifyMessage({ address: address as Hex, message, signature: (await signature) as Hex }))
    // The frame closed its window once it had the answer.
    await until('the approval window closed', async () => (await approvalWindows()).length === 0)
  })

  it('attack: the frame at 2 % opacity over a "Claim" button, clicked four times: no signature', async () => {
    const message = 'Transfer everything, Firefox'
    await ask(message)
    const approve = await frameApprove(message)
    const box = await approve.boundingBox()
    assert.ok(box, 'Approve is laid out')
    // The attacker's page: the frame nearly transparent, its own "Claim" button drawn under Approve.
    await page.evaluate((box) => {
      const frame = document
        .querySelector('wallet-modal')
        ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
      if (!frame) throw new Error('no wallet frame')
      frame.style.setProperty('opacity', '0.02', 'important')
      const claim = document.createElement('button')
      claim.id = 'claim'
      claim.textContent = 'Claim your reward'
      claim.style.cssText = `position:fixed;left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px;z-index:1`
      document.body.append(claim)
    }, box)
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    const hit = await page.evaluate(({ x, y }) => {
      const top = document.elementFromPoint(x, y)
      return top?.shadowRoot?.elementFromPoint(x, y)?.hasAttribute('data-wallet-frame') ?? false
    }, point)
    assert.equal(hit, true, 'the click point is on the wallet frame')
    // Well past the frame's minimum time: in Firefox the frame cannot see its opacity, so Approve is armed.
    await until('Approve enabled', () => approve.evaluate((button) => !button.hasAttribute('aria-disabled')))
    for (let click = 0; click < 4; click++) {
      await page.bringToFront()
      await page.mouse.click(point.x, point.y)
      await new Promise((resolve) => setTimeout(resolve, 700))
    }
    // Time enough for a signature had a click counted (before: the first click signed).
    await new Promise((resolve) => setTimeout(resolve, 1500))
    assert.deepEqual(await outcome(), { state: 'pending' })
    assert.equal(await approve.evaluate((button) => button.getAttribute('aria-busy')), null)
    // The clicks at most opened one approval window (later ones bring it forward), where nothing was clicked.
    const windows = await approvalWindows()
    assert.ok(windows.length <= 1, `at most one approval window, not ${windows.length}`)
    await page.evaluate(() => document.getElementById('claim')?.remove())
    // The person, in the window (which no page can restyle or cover), approves: the signature is theirs.
    const review = windows[0] ?? (await openWindowFrom(approve))
    await until('the request in the approval window', async () =>
      (await review.evaluate(() => document.body.textContent ?? '')).includes(message),
    )
    await approveInWindow(review)
    const done = await until('signed', async () => {
      const now = await outcome()
      return now?.state === 'pending' ? undefined : now
    })
    assert.equal(done.state, 'signed')
    assert.ok(
      await verifyMessage({
        address: address as Hex,
        message,
        signature: (done as { signature: Hex }).signature,
      }),
    )
    await page.evaluate(() => {
      const frame = document
        .querySelector('wallet-modal')
        ?.shadowRoot?.querySelector<HTMLIFrameElement>('iframe[data-wallet-frame]')
      frame?.style.removeProperty('opacity')
    })
  })

  it('a popup blocker refuses the window: the frame says so, the request stays pending, the person tries again', async () => {
    const message = 'Blocked, then rejected in the window'
    await ask(message)
    const approve = await frameApprove(message)
    await until('Approve enabled', () => approve.evaluate((button) => !button.hasAttribute('aria-disabled')))
    const frame = await until('the wallet frame', async () =>
      page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame)),
    )
    // A click the person did not make (a script's, after any activation ran out: Firefox counts one for
    // 5 s): the blocker refuses.
    await frame.evaluate(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            document.querySelector<HTMLButtonElement>('button[data-action="approve"]')?.click()
            resolve()
          }, 6_000),
        ),
    )
    const status = await until('the blocked notice', () =>
      frame.evaluate(() => document.querySelector('[data-window-status]')?.textContent || undefined),
    )
    assert.equal(status, 'Your browser blocked the window. Allow pop-ups for this site, then try again.')
    assert.equal((await approvalWindows()).length, 0)
    assert.deepEqual(await outcome(), { state: 'pending' })
    // The person clicks: the window opens, they reject there, and the site hears 4001.
    const review = await openWindowFrom(approve)
    assert.equal(
      await frame.evaluate(() => document.querySelector('[data-window-status]')?.textContent),
      'Continue in the window that opened. Closing it rejects the request.',
    )
    await review.bringToFront()
    const reject = await until('Reject in the window', () => review.$('button[data-action="reject"]'))
    await until('the request in the approval window', async () =>
      (await review.evaluate(() => document.body.textContent ?? '')).includes(message),
    )
    await reject.click()
    const done = await until('answered', async () => {
      const now = await outcome()
      return now?.state === 'pending' ? undefined : now
    })
    assert.deepEqual(done, { state: 'failed', code: '4001' })
    await until('the approval window closed', async () => (await approvalWindows()).length === 0)
  })

  it('closing the approval window rejects the request: the site hears 4001', async () => {
    const message = 'Closed without a decision'
    await ask(message)
    const approve = await frameApprove(message)
    await until('Approve enabled', () => approve.evaluate((button) => !button.hasAttribute('aria-disabled')))
    const review = await openWindowFrom(approve)
    await until('the request in the approval window', async () =>
      (await review.evaluate(() => document.body.textContent ?? '')).includes(message),
    )
    await review.close()
    const done = await until('answered', async () => {
      const now = await outcome()
      return now?.state === 'pending' ? undefined : now
    })
    assert.deepEqual(done, { state: 'failed', code: '4001' })
  })
})
