import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import {
  disconnectJourney,
  type EngineTab,
  emailJourney,
  modalText,
  phoneOpenJourney,
  press,
  until,
  walletConnectJourney,
} from './engine-journeys.ts'
import { startWebKitTab } from './engine-tabs.ts'
import { startTestStack, type TestStack } from './harness.ts'
import { IPHONE_USER_AGENT } from './phone-helpers.ts'
import { type WebDriverSession, webkitMissing } from './webdriver.ts'

/** In CI WebKit is required (as in test/e2e/webkit.test.ts); locally a missing WebKit skips the file. */
const missing = webkitMissing()
if (missing && process.env.CI === 'true') throw new Error(`CI needs WebKit: ${missing}`)

/** Every browser on an iPhone is WebKit: the size of one, touch, and its user agent. */
const PHONE = { width: 390, height: 844 }

/**
 * The core journeys on a phone in WebKit: MiniBrowser (WebKitGTK) driven by WebKitWebDriver under Xvfb,
 * on a display a phone's width (the window manager gives the window all of it: 390 px wide), with an
 * iPhone's user agent (MiniBrowser's `--user-agent` setting), every press a finger's tap (WebDriver's
 * touch pointer). The journeys are those of test/e2e/engine-journeys.ts; the same on Chromium's
 * phone, with the layout sweep: test/e2e/phone.test.ts.
 *
 * What WebKitGTK cannot be made to do here: a real touch. Its WebDriver takes touch pointer actions
 * but delivers them as a mouse (`pointerType` "mouse", no TouchEvent), and with no touch device on
 * the X display it reports `(pointer: fine)` and no `ontouchstart`. So the taps are presses at the
 * same points, the sheet's swipe (pointer events, any pointer) is a drag, and the touch-only sizes
 * (`@media (pointer: coarse)`) are Chromium's to check.
 */
describe('the core journeys on a phone in WebKit (MiniBrowser at 390 px, touch, an iPhone user agent)', {
  timeout: 400_000,
  skip: missing ?? false,
}, () => {
  let stack: TestStack
  let stopWebKit: (() => Promise<void>) | undefined
  let session: WebDriverSession
  let tab: EngineTab

  before(async () => {
    const [started, webkit] = await Promise.all([
      startTestStack(),
      startWebKitTab({ screen: PHONE, browserArgs: [`--user-agent=${IPHONE_USER_AGENT}`], touch: true }),
    ])
    stack = started
    ;({ session, tab, stop: stopWebKit } = webkit)
  })
  after(async () => {
    await stopWebKit?.()
    await stack?.stop()
  })

  it('is a phone: 390 px wide, an iPhone user agent; a tap reaches the page where it lands', async () => {
    await tab.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    const seen = await tab.evaluate(() => {
      const record = window as unknown as { pressed: string[] }
      record.pressed = []
      for (const type of ['pointerdown', 'pointerup', 'click'])
        document.addEventListener(type, (event) => {
          const { clientX, clientY } = event as PointerEvent
          record.pressed.push(`${type} ${Math.round(clientX)},${Math.round(clientY)}`)
        })
      return { width: document.documentElement.clientWidth, userAgent: navigator.userAgent }
    })
    assert.equal(seen.width, PHONE.width)
    assert.equal(seen.userAgent, IPHONE_USER_AGENT)
    await tab.clickAt(20, 30)
    const pressed = await until('the tap', () =>
      tab.evaluate(() => {
        const { pressed } = window as unknown as { pressed: string[] }
        return pressed.length === 3 ? pressed : undefined
      }),
    )
    assert.deepEqual(pressed, ['pointerdown 20,30', 'pointerup 20,30', 'click 20,30'])
  })

  it('opens on Connect as a bottom sheet: e-mail, socials and WalletConnect wallets, though no browser wallet is installed', async () => {
    await phoneOpenJourney(tab, stack)
  })

  it('e-mail sign-in through the wallet frame, a message signed with approval, then disconnect', async () => {
    const { approvedIn } = await emailJourney(tab, stack, `webkit.phone.${Date.now()}@example.com`)
    // WebKit has no IntersectionObserver v2: the approval happens in the frame's own window.
    assert.equal(approvedIn, 'window')
    await disconnectJourney(tab)
  })

  // Still open: in WebKit on a phone, about half the runs never get the first pairing link (the pairing
  // made ahead stays "creating": the connector is loaded, IndexedDB opens, the page is online, and the
  // WalletConnect client's first subscription never completes). Chromium's phone, and WebKit at a
  // computer's width, pair every time. It runs and reports until it is found.
  it('WalletConnect from the generic entry, paired with the demo phone wallet, a signature approved there, then disconnect', {
    todo: 'in WebKit on a phone about half the runs never get the first pairing link (see the comment above)',
  }, async () => {
    await walletConnectJourney(tab, stack)
  })

  it('the sheet dragged down its header closes; the back gesture closes the dialog and the page stays', async () => {
    // A URL of its own: a new history entry, whatever the tests before left in theirs.
    const url = new URL('/?demoWallet=off&gestures', stack.urls.demo).href
    await tab.goto(url)
    // Waits for this opening's own history entry: after a close, the last opening's entry can still be
    // the current one until the dialog's own back arrives (the next push waits for it).
    let lastEntry: unknown
    const opened = async () => {
      await press(tab, 'wallet-button', 'button', /Connect Wallet/)
      lastEntry = await until('the phone gestures armed', () =>
        tab.evaluate((previous) => {
          const entry = (history.state as Record<string, unknown> | null)?.walletModalEntry
          const draggable = document
            .querySelector('wallet-modal')
            ?.shadowRoot?.querySelector('[part="panel"][data-draggable]')
          return typeof entry === 'string' && entry !== previous && draggable ? entry : undefined
        }, lastEntry),
      )
    }
    const closed = () =>
      until('the dialog closed', async () => (await modalText(tab)) === '').catch(async (error: Error) => {
        const seen = await tab.evaluate(() => (window as unknown as { pointers?: string[] }).pointers ?? [])
        throw new Error(`${error.message}; the page saw ${seen.join(', ')}`, { cause: error })
      })
    await tab.evaluate(() => {
      const record = window as unknown as { pointers: string[] }
      record.pointers = []
      for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel'])
        document.addEventListener(
          type,
          (event) => record.pointers.push(`${type} ${Math.round((event as PointerEvent).clientY)}`),
          true,
        )
    })

    await opened()
    const title = await tab.evaluate(() => {
      const box = document
        .querySelector('wallet-modal')
        ?.shadowRoot?.querySelector('[part="header"] h2')
        ?.getBoundingClientRect()
      return box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null
    })
    assert.ok(title)
    const path = Array.from({ length: 12 }, (_, index) => ({ x: title.x, y: title.y + (index + 1) * 25 }))
    await session.touch(title, path, 40)
    await closed()

    await opened()
    await session.back()
    await closed()
    assert.equal(await session.url(), url)
    assert.equal(
      await tab.evaluate(() => (history.state as Record<string, unknown> | null)?.walletModalEntry),
      null,
    )
  })
})
