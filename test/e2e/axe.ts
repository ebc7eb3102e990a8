/**
 * Accessibility checks of the embedded wallet's views on the real stack: axe-core over the modal (and
 * over the wallet frame's own document, which axe in the page cannot enter: it is another origin), in
 * light and dark, on a desktop and a 375 px screen; and at 200 % zoom the dialog stays inside the
 * window with its body scrolling.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Frame, Page } from 'playwright-core'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '375 px', width: 375, height: 667 },
] as const

/**
 * axe's findings in a page or frame: under `selector` (the modal's element, or a frame's body).
 *
 * @example
 * assert.deepEqual(await axeFindings(page, 'body'), [])
 */
export async function axeFindings(target: Page | Frame, selector: string): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the frame's CSP (no inline script) does not apply.
  if (!(await target.evaluate(() => 'axe' in window))) await target.evaluate(AXE_SOURCE)
  await settled(target, selector)
  return target.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe
    const context = document.querySelector(selector) ?? document
    const result = await axe.run(context, { iframes: false, resultTypes: ['violations'] })
    return result.violations.map(
      (violation) =>
        `${violation.id} (${violation.help}) at ${violation.nodes.map((node) => node.target.join(' > ')).join(', ')}`,
    )
  }, selector)
}

/** How many texts axe checked for contrast: a dialog that axe takes for hidden is checked for nothing. */
function contrastChecked(target: Page | Frame, selector: string): Promise<number> {
  return target.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe
    const context = document.querySelector(selector) ?? document
    const result = await axe.run(context, { iframes: false, runOnly: ['color-contrast'] })
    return result.passes.flatMap((rule) => rule.nodes).length
  }, selector)
}

/**
 * Waits until the entrance animations under `selector` are over, the document's and the element's
 * shadow root's (a half-faded panel has other colours), so contrast is judged on what the person ends
 * up seeing.
 */
async function settled(target: Page | Frame, selector: string): Promise<void> {
  await target.evaluate(async (selector) => {
    const root = document.querySelector(selector)?.shadowRoot
    const running = [...document.getAnimations(), ...(root?.getAnimations() ?? [])].filter(
      (animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
    )
    await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)))
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  }, selector)
}

/**
 * Runs axe on the open modal (and the wallet frame's document when `frame` is given) in both themes
 * and both sizes, then checks 200 % zoom; answers every finding, empty when clean. The page is left
 * at 1280 × 800 in the theme it had.
 *
 * @example
 * assert.deepEqual(await sweep(page, 'EmailVerifyOtp'), [])
 */
export async function sweep(page: Page, view: string, options: { frame?: Frame } = {}): Promise<string[]> {
  const found: string[] = []
  const themeBefore = await page.evaluate(() => document.querySelector('wallet-modal')?.getAttribute('theme'))
  // The open dialog locks the page's scroll (overflow: hidden on <html>); axe then clips everything to
  // <html>'s own box, so on a short page it would check nothing. A page as tall as the window keeps
  // axe looking at the dialog (as the browser suite's axe test does).
  const heightBefore = await page.evaluate(() => {
    const before = document.documentElement.style.height
    document.documentElement.style.height = '100%'
    return before
  })
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(
      (theme) => document.querySelector('wallet-modal')?.setAttribute('theme', theme),
      theme,
    )
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height })
      for (const finding of await axeFindings(page, 'wallet-modal'))
        found.push(`${view}, ${theme}, ${size.name}: ${finding}`)
      if (options.frame)
        for (const finding of await axeFindings(options.frame, 'body'))
          found.push(`${view} (wallet frame), ${theme}, ${size.name}: ${finding}`)
      const checked = await contrastChecked(page, 'wallet-modal')
      if (checked === 0)
        found.push(`${view}, ${theme}, ${size.name}: axe checked ${checked} texts for contrast`)
      if (options.frame) {
        const inFrame = await contrastChecked(options.frame, 'body')
        if (inFrame === 0) found.push(`${view} (wallet frame): axe checked ${inFrame} texts for contrast`)
      }
    }
  }
  // 1280 × 720 at 200 %: 640 × 360 CSS pixels. Nothing sticks out sideways; the dialog fits the height
  // and its body scrolls to its last control.
  await page.setViewportSize({ width: 640, height: 360 })
  await settled(page, 'wallet-modal')
  const zoomed = await page.evaluate(() => {
    const root = document.querySelector('wallet-modal')?.shadowRoot
    const dialog = root?.querySelector('[role="dialog"]')?.getBoundingClientRect()
    const body = root?.querySelector<HTMLElement>('.body')
    const problems: string[] = []
    if (document.documentElement.scrollWidth > window.innerWidth) problems.push('the page scrolls sideways')
    if (!dialog || dialog.left < 0 || dialog.right > window.innerWidth)
      problems.push('the dialog is wider than the window')
    if (!dialog || dialog.bottom > window.innerHeight + 1)
      problems.push('the dialog is taller than the window')
    if (body) {
      body.scrollTop = body.scrollHeight
      const controls = [...body.querySelectorAll<HTMLElement>('button, input, iframe')].filter(
        (element) => element.getClientRects().length > 0,
      )
      const last = controls.at(-1)?.getBoundingClientRect()
      if (last && last.bottom > window.innerHeight + 1)
        problems.push('the last control cannot be scrolled to')
      body.scrollTop = 0
    }
    return problems
  })
  for (const problem of zoomed) found.push(`${view}, 200 % zoom: ${problem}`)
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.evaluate((height) => {
    document.documentElement.style.height = height
  }, heightBefore)
  await page.evaluate(
    (theme) =>
      theme === null || theme === undefined
        ? document.querySelector('wallet-modal')?.removeAttribute('theme')
        : document.querySelector('wallet-modal')?.setAttribute('theme', theme),
    themeBefore,
  )
  return found
}

/**
 * The element focus is on, seen through shadow roots: its tag, accessible label and text, so a test
 * can say where focus went.
 *
 * @example
 * assert.match(await focused(page), /input.*Code/)
 */
export function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    if (!active) return ''
    const labelled = active.getAttribute('aria-labelledby')
    const root = active.getRootNode() as Document | ShadowRoot
    const label =
      active.getAttribute('aria-label') ??
      (labelled ? root.getElementById(labelled)?.textContent : undefined) ??
      (active.id ? root.querySelector(`label[for="${active.id}"]`)?.textContent : undefined) ??
      ''
    return `${active.tagName.toLowerCase()} ${label} ${active.textContent ?? ''}`.trim()
  })
}
