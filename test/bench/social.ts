/**
 * Social sign-in on the local stack (service, wallet frame on its own origin, the `oidc-provider`
 * stand-in for the providers), with the built library (`dist/`) on a script-tag page, in headless
 * Chromium. Each run is a fresh browser context and a new Google identity:
 * - click on "Continue with Google" -> the provider's sign-in page ready in the window it opened (the
 *   frame loads on this click: its ready event, the spec's 500 ms, then the redirect URI);
 * - "Sign in" pressed at the provider -> `wallet-connect` on the page (the provider's redirect, the
 *   code exchange and id_token check on the service, the session, both namespaces connected);
 * - the two together: click -> connected, less the time the person spends at the provider's page.
 * Medians of `runs` (10 by default), each run listed; `Date.now()` of the page and the window.
 *
 * Run alone after `npm run build`: `npx tsx test/bench/social.ts [runs]`.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { launchBrowser, newContext, startTestStack, type TestStack } from '../e2e/harness.ts'
import { serveDist } from './page.ts'

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const pageHtml = (stack: TestStack) => `<!doctype html><html><head><meta charset="utf-8">
<title>social bench</title><script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<wallet-modal networks="eip155:31337" project-id="dev-project" api-url="${stack.urls.service}"
  frame-url="${stack.urls.frame}" features="socials" socials="google"></wallet-modal>
</body></html>`

const PROBE = `(() => {
  const marks = { connects: [] }
  globalThis.benchMarks = marks
  document.addEventListener('wallet-connect', () => marks.connects.push(Date.now()))
})()`

export interface SocialBenchResult {
  runs: number
  clickToProviderMs: number[]
  signInToConnectedMs: number[]
  clickToConnectedMs: number[]
}

const connects = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { benchMarks: { connects: number[] } }).benchMarks.connects)

export async function benchSocial(runs = 10): Promise<SocialBenchResult> {
  const [stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  const site = await serveDist({ '/social.html': pageHtml(stack) })
  const result: SocialBenchResult = {
    runs,
    clickToProviderMs: [],
    signInToConnectedMs: [],
    clickToConnectedMs: [],
  }
  try {
    for (let run = 0; run < runs; run++) {
      const context = await newContext(browser)
      await context.addInitScript({ content: PROBE })
      const page = await context.newPage()
      await page.goto(`${site.url}social.html`)
      await page.locator('wallet-button').getByRole('button').and(page.locator(':enabled')).click()
      const button = page
        .locator('wallet-modal')
        .getByRole('dialog')
        .getByRole('button', { name: 'Continue with Google' })
      await button.waitFor()
      const clickedAt = Date.now()
      const [popup] = await Promise.all([context.waitForEvent('page'), button.click()])
      const field = popup.getByRole('textbox', { name: 'E-mail' })
      await field.waitFor()
      const providerAt = Date.now()
      await field.fill(`bench.${run}.${Date.now()}@example.com`)
      const signInAt = Date.now()
      await popup.getByRole('button', { name: 'Sign in' }).click()
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { benchMarks: { connects: number[] } }).benchMarks.connects.length > 0,
      )
      const connectedAt = (await connects(page))[0] ?? Number.NaN
      result.clickToProviderMs.push(providerAt - clickedAt)
      result.signInToConnectedMs.push(connectedAt - signInAt)
      result.clickToConnectedMs.push(providerAt - clickedAt + (connectedAt - signInAt))
      await context.close()
    }
  } finally {
    await site.close()
    await browser.close()
    await stack.stop()
  }
  return result
}

export function printSocial(result: SocialBenchResult): void {
  console.log(`\nSocial sign-in (Google through the local stand-in), median of ${result.runs}:`)
  for (const [label, values] of [
    ['click -> the provider page ready', result.clickToProviderMs],
    ['Sign in at the provider -> connected', result.signInToConnectedMs],
    ['click -> connected (less the time at the provider)', result.clickToConnectedMs],
  ] as const) {
    console.log(`  ${label.padEnd(52)} ${median(values).toFixed(0)} ms   (${values.join(', ')})`)
  }
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  printSocial(await benchSocial(Number(process.argv[2] ?? 10)))
  process.exit(0)
}
