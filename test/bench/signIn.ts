/**
 * What the sign-in benches share (test/bench/social.ts, test/bench/farcaster.ts): the script-tag page
 * with the modal on the local stack, the probe that notes each `wallet-connect`, and the median.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { newContext, type TestStack } from '../e2e/harness.ts'

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/**
 * A script-tag page with the modal on the stack's service and frame, and `attributes` added; a phone
 * lays it out at its own width (the viewport tag; a computer ignores it).
 */
export const signInPage = (stack: TestStack, title: string, attributes: string) => `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<wallet-modal networks="eip155:31337" project-id="dev-project" api-url="${stack.urls.service}"
  frame-url="${stack.urls.frame}" ${attributes}></wallet-modal>
</body></html>`

/** An init script: the page's `Date.now()` at each `wallet-connect`. */
export const CONNECT_PROBE = `(() => {
  const marks = { connects: [] }
  globalThis.benchMarks = marks
  document.addEventListener('wallet-connect', () => marks.connects.push(Date.now()))
})()`

/** Waits for the page's first `wallet-connect`; answers its time. */
export async function connectedAt(page: Page): Promise<number> {
  await page.waitForFunction(
    () => (globalThis as unknown as { benchMarks: { connects: number[] } }).benchMarks.connects.length > 0,
  )
  const marks = await page.evaluate(
    () => (globalThis as unknown as { benchMarks: { connects: number[] } }).benchMarks.connects,
  )
  return marks[0] ?? Number.NaN
}

/** A fresh context with the probe, on `url`, with the modal open (the wallet button clicked). */
export async function openModal(
  browser: Browser,
  url: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser)
  await context.addInitScript({ content: CONNECT_PROBE })
  const page = await context.newPage()
  await page.goto(url)
  await page.locator('wallet-button').getByRole('button').and(page.locator(':enabled')).click()
  return { context, page }
}

/** Prints each figure's median and its runs under `heading`. */
export function printMedians(heading: string, rows: readonly (readonly [string, number[]])[]): void {
  console.log(`\n${heading}`)
  for (const [label, values] of rows)
    console.log(`  ${label.padEnd(52)} ${median(values).toFixed(0)} ms   (${values.join(', ')})`)
}
