/**
 * A phone in Chromium (see shared/MACHINE-NOTES.md, "Phones in Chromium"): an iPhone's user agent,
 * screen and touch, for the embedded wallet's approval on a phone (its end-to-end test and its bench).
 */
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core'

/** Safari on an iPhone (iOS 17): every browser on iOS is WebKit. */
export const IPHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

/**
 * A browser context as an iPhone 15 (390 × 844 CSS px, 3×, touch, mobile). `withoutVisibilityTracking`:
 * the wallet frame gets no IntersectionObserver v2, as on iOS, where WebKit has none, so the frame
 * takes its approval to a window (a tab) of its own.
 *
 * @example
 * const context = await phoneContext(browser, { withoutVisibilityTracking: true })
 */
export async function phoneContext(
  browser: Browser,
  options: { withoutVisibilityTracking?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    screen: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent: IPHONE_USER_AGENT,
  })
  // See test/e2e/harness.ts `newContext`: tsx's __name helper in functions sent to the page.
  await context.addInitScript({ content: 'globalThis.__name ??= (target) => target' })
  if (options.withoutVisibilityTracking) {
    // In every document, the frame's included (init scripts run in child frames too).
    await context.addInitScript({
      content: 'delete globalThis.IntersectionObserverEntry?.prototype.isVisible',
    })
  }
  return context
}

/** The wallet frame of `page` (its own origin), once there. */
export async function walletFrameOf(page: Page): Promise<Frame> {
  const element = await page.locator('iframe[data-wallet-frame]').elementHandle()
  const frame = await element?.contentFrame()
  if (!frame) throw new Error('No wallet frame on the page')
  return frame
}

/**
 * Where the frame's Approve and Reject are, in the page's coordinates, and the part of the page the
 * person sees (the visual viewport): whether each button is wholly inside it, and not cut off by the
 * frame's own edges either.
 */
export async function approvalButtonsInView(page: Page): Promise<{
  approve: boolean
  reject: boolean
  detail: string
}> {
  const frame = await walletFrameOf(page)
  const box = await page.locator('iframe[data-wallet-frame]').boundingBox()
  const view = await page.evaluate(() => {
    const visual = window.visualViewport
    return {
      top: visual?.offsetTop ?? 0,
      left: visual?.offsetLeft ?? 0,
      bottom: (visual?.offsetTop ?? 0) + (visual?.height ?? window.innerHeight),
      right: (visual?.offsetLeft ?? 0) + (visual?.width ?? window.innerWidth),
    }
  })
  const inFrame = await frame.evaluate(() => {
    const rect = (selector: string) => {
      const found = document.querySelector(selector)?.getBoundingClientRect()
      return found && { top: found.top, left: found.left, bottom: found.bottom, right: found.right }
    }
    return {
      approve: rect('button[data-action="approve"]'),
      reject: rect('button[data-action="reject"]'),
      height: window.innerHeight,
      width: window.innerWidth,
    }
  })
  const inside = (rect: { top: number; left: number; bottom: number; right: number } | undefined) => {
    if (!rect || !box) return false
    // Inside the frame's own viewport (not scrolled away inside it) and the frame's part of the page in view.
    const inFrameView =
      rect.top >= 0 && rect.bottom <= inFrame.height && rect.left >= 0 && rect.right <= inFrame.width
    const top = box.y + rect.top
    const bottom = box.y + rect.bottom
    const left = box.x + rect.left
    const right = box.x + rect.right
    return (
      inFrameView &&
      top >= view.top &&
      bottom <= view.bottom + 0.5 &&
      left >= view.left &&
      right <= view.right + 0.5
    )
  }
  return {
    approve: inside(inFrame.approve),
    reject: inside(inFrame.reject),
    detail: JSON.stringify({ frame: box, view, inFrame }),
  }
}
