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
import { launchBrowser, startTestStack } from '../e2e/harness.ts'
import { serveDist } from './page.ts'
import { connectedAt, openModal, printMedians, signInPage } from './signIn.ts'

export interface SocialBenchResult {
  runs: number
  clickToProviderMs: number[]
  signInToConnectedMs: number[]
  clickToConnectedMs: number[]
}

export async function benchSocial(runs = 10): Promise<SocialBenchResult> {
  const [stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  const site = await serveDist({
    '/social.html': signInPage(stack, 'social bench', 'features="socials" socials="google"'),
  })
  const result: SocialBenchResult = {
    runs,
    clickToProviderMs: [],
    signInToConnectedMs: [],
    clickToConnectedMs: [],
  }
  try {
    for (let run = 0; run < runs; run++) {
      const { context, page } = await openModal(browser, `${site.url}social.html`)
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
      const connected = await connectedAt(page)
      result.clickToProviderMs.push(providerAt - clickedAt)
      result.signInToConnectedMs.push(connected - signInAt)
      result.clickToConnectedMs.push(providerAt - clickedAt + (connected - signInAt))
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
  printMedians(`Social sign-in (Google through the local stand-in), median of ${result.runs}:`, [
    ['click -> the provider page ready', result.clickToProviderMs],
    ['Sign in at the provider -> connected', result.signInToConnectedMs],
    ['click -> connected (less the time at the provider)', result.clickToConnectedMs],
  ])
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  printSocial(await benchSocial(Number(process.argv[2] ?? 10)))
  process.exit(0)
}
