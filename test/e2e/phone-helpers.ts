/**
 * A phone in Chromium's mobile emulation (playwright-core): an iPhone's user agent and screen, touch
 * input, and what a phone's journeys check: every target at least 44 × 44 px, nothing scrolling
 * sideways, the bottom sheet dragged by a finger (real touch input through the DevTools protocol).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { walletFrame } from './embedded-helpers.ts'

/** Safari on an iPhone (iOS 18): what a phone's browser says it is. */
export const IPHONE_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'

/** The least size of a touch target, both ways (WCAG 2.5.5, Apple's and Google's guidance). */
export const TOUCH_TARGET_PX = 44

/**
 * A fresh context as an iPhone: 390 × 844 (or `width` × `height`), 3× pixels, a mobile viewport,
 * touch, Safari's user agent; the `__name` shim of {@link newContext} for functions from tests.
 *
 * @example
 * const context = await newPhoneContext(browser)
 * const page = await context.newPage()
 */
export async function newPhoneContext(
  browser: Browser,
  { width = 390, height = 844 }: { width?: number; height?: number } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width, height },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent: IPHONE_USER_AGENT,
  })
  await context.addInitScript({ content: 'globalThis.__name ??= (target) => target' })
  return context
}

/** A control too small to touch: what it is and its size. */
export type SmallTarget = { control: string; width: number; height: number }

/**
 * In a page or frame: every visible interactive element (buttons, links, fields, tabs, switches, and
 * anything else in the tab order) smaller than `minimum` px either way: in the shadow roots of the
 * elements `hosts` (the page's own markup is the site's), or with no `hosts` in the whole document,
 * its open shadow roots included.
 */
export function smallTargetsIn({ minimum, hosts }: { minimum: number; hosts?: string[] }): SmallTarget[] {
  const selector = [
    'button',
    'a[href]',
    'input:not([type="hidden"])',
    'select',
    'textarea',
    'summary',
    '[role="button"]',
    '[role="link"]',
    '[role="tab"]',
    '[role="switch"]',
    '[role="checkbox"]',
    '[role="radio"]',
    '[tabindex]:not([tabindex="-1"])',
  ].join(', ')
  const found: SmallTarget[] = []
  const visit = (root: Document | ShadowRoot) => {
    for (const element of root.querySelectorAll(selector)) {
      if (element.localName === 'iframe') continue
      const box = element.getBoundingClientRect()
      const style = getComputedStyle(element)
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue
      if (element.closest('[aria-hidden="true"], .visually-hidden')) continue
      if (box.width < minimum - 0.01 || box.height < minimum - 0.01) {
        const name =
          element.getAttribute('aria-label') ??
          element.getAttribute('part') ??
          (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
        found.push({
          control: `${element.localName}${element.className ? `.${String(element.className).split(' ').join('.')}` : ''} "${name}"`,
          width: Math.round(box.width * 10) / 10,
          height: Math.round(box.height * 10) / 10,
        })
      }
    }
    for (const element of root.querySelectorAll('*')) if (element.shadowRoot) visit(element.shadowRoot)
  }
  if (!hosts) visit(document)
  for (const host of hosts ?? []) {
    const root = document.querySelector(host)?.shadowRoot
    if (root) visit(root)
  }
  return found
}

/**
 * In a page or frame: what makes it scroll sideways. The page wider than its viewport; any element
 * reaching past the viewport's left or right edge (unless an ancestor inside the viewport clips it: a
 * truncated name); any scroller whose content is wider than it: in the shadow roots of the elements
 * `hosts`, or with no `hosts` in the whole document.
 */
export function sidewaysOverflowIn(hosts: string[] | undefined): string[] {
  const width = document.documentElement.clientWidth
  const problems: string[] = []
  if (document.documentElement.scrollWidth > width)
    problems.push(`the page is ${document.documentElement.scrollWidth} px wide in ${width}`)
  const describe = (element: Element) =>
    `${element.localName}${element.className && typeof element.className === 'string' ? `.${element.className.split(' ').join('.')}` : ''}${element.getAttribute('part') ? `[part=${element.getAttribute('part')}]` : ''}`
  /** Whether an ancestor (through shadow roots) within the viewport clips the element's overflow. */
  const clipped = (element: Element) => {
    for (let node = element.parentElement ?? (element.getRootNode() as ShadowRoot).host; node; ) {
      if (getComputedStyle(node).overflowX !== 'visible') {
        const box = node.getBoundingClientRect()
        return box.left >= -0.5 && box.right <= width + 0.5
      }
      const parent: Element | null = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null)
      node = parent
    }
    return false
  }
  const visit = (root: Document | ShadowRoot) => {
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) visit(element.shadowRoot)
      if (element.closest('.visually-hidden')) continue
      const box = element.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      if ((box.left < -0.5 || box.right > width + 0.5) && !clipped(element))
        problems.push(`${describe(element)} spans ${Math.round(box.left)} to ${Math.round(box.right)}`)
      const { overflowX } = getComputedStyle(element)
      if (/auto|scroll/.test(overflowX) && element.scrollWidth > element.clientWidth + 1)
        problems.push(
          `${describe(element)} scrolls sideways (${element.scrollWidth} in ${element.clientWidth})`,
        )
    }
  }
  if (!hosts) visit(document)
  for (const host of hosts ?? []) {
    const root = document.querySelector(host)?.shadowRoot
    if (root) visit(root)
  }
  return problems
}

/**
 * A finger on the screen from `from`, through each of `path`, lifted at the last point: real touch
 * input (the DevTools protocol's touch events, which the page gets as touch and pointer events).
 * Each move carries its own time, `stepMs` after the one before (the page's `timeStamp`s), so the
 * speed the page measures is the one asked for however busy the machine.
 *
 * @example
 * await drag(page, { x: 195, y: 400 }, [{ x: 195, y: 700 }], 16)
 */
export async function drag(
  page: Page,
  from: { x: number; y: number },
  path: readonly { x: number; y: number }[],
  stepMs: number,
): Promise<void> {
  const session = await page.context().newCDPSession(page)
  try {
    let time = Date.now() / 1000
    const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', point?: { x: number; y: number }) => {
      await session.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: point ? [{ x: point.x, y: point.y, id: 1, radiusX: 4, radiusY: 4, force: 1 }] : [],
        timestamp: time,
      })
    }
    await touch('touchStart', from)
    for (const point of path) {
      time += stepMs / 1000
      await touch('touchMove', point)
    }
    time += stepMs / 1000
    await touch('touchEnd')
  } finally {
    await session.detach()
  }
}

/** `count` points from `from` to `to`, evenly spaced (the last is `to`). */
export const steps = (from: { x: number; y: number }, to: { x: number; y: number }, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    x: from.x + ((to.x - from.x) * (index + 1)) / count,
    y: from.y + ((to.y - from.y) * (index + 1)) / count,
  }))

/**
 * Taps the wallet frame's button `name` once it is armed, and again if the tap did not take: Chromium
 * drops input to a cross-origin frame that has just moved, and the frame disarms while it moves (see
 * `answerInFrame` in test/e2e/embedded-helpers.ts); a person whose tap did nothing taps again.
 */
export async function tapInFrame(page: Page, name: string): Promise<void> {
  const button = walletFrame(page).getByRole('button', { name, exact: true })
  await button.waitFor({ timeout: 60_000 })
  for (let attempt = 0; attempt < 5 && (await button.count()) > 0; attempt++) {
    if ((await button.getAttribute('aria-busy').catch(() => null)) === 'true') return
    await button.tap({ timeout: 5_000 }).catch(() => {})
    await button.waitFor({ state: 'detached', timeout: 2_000 }).catch(() => {})
  }
}
