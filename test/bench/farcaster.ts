/**
 * Sign In With Farcaster on the local stack (service, wallet frame on its own origin, the relay and
 * registry stand-ins, the demo Farcaster app), with the built library (`dist/`) on a script-tag page,
 * in headless Chromium. Each run is a fresh browser context:
 * - click on "Continue with Farcaster" -> the channel's QR code shown (the frame loads on this click:
 *   its ready event, the spec's 500 ms, then the relay channel);
 * - Approve in the demo app (its `/approve`, what its button sends) -> `wallet-connect` on the page
 *   (the app's signature delivered to the relay, the service's next look at the channel, the
 *   approval verified against the registries on the chain-10 stand-in, the session, both namespaces);
 * - the two together: click -> connected, less the time the person spends in their Farcaster app.
 * The same dev fid signs in each run (one user, as a returning visitor). Medians of `runs` (10 by
 * default), each run listed; `Date.now()` of this process and the page.
 *
 * Run alone after `npm run build`: `npx tsx test/bench/farcaster.ts [runs]`.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { launchBrowser, startTestStack } from '../e2e/harness.ts'
import { serveDist } from './page.ts'
import { connectedAt, openModal, printMedians, signInPage } from './signIn.ts'

export interface FarcasterBenchResult {
  runs: number
  clickToQrMs: number[]
  approveToConnectedMs: number[]
  clickToConnectedMs: number[]
}

export async function benchFarcaster(runs = 10): Promise<FarcasterBenchResult> {
  const [stack, browser] = await Promise.all([startTestStack({ farcaster: true }), launchBrowser()])
  const site = await serveDist({
    '/farcaster.html': signInPage(stack, 'farcaster bench', 'features="farcaster"'),
  })
  const result: FarcasterBenchResult = {
    runs,
    clickToQrMs: [],
    approveToConnectedMs: [],
    clickToConnectedMs: [],
  }
  try {
    for (let run = 0; run < runs; run++) {
      const { context, page } = await openModal(browser, `${site.url}farcaster.html`)
      const dialog = page.locator('wallet-modal').getByRole('dialog')
      const button = dialog.getByRole('button', { name: 'Continue with Farcaster' })
      await button.waitFor()
      const clickedAt = Date.now()
      await button.click()
      await dialog.getByRole('img', { name: 'QR code to sign in with Farcaster' }).waitFor()
      const qrAt = Date.now()
      const link = await dialog.getByRole('link', { name: 'Open Farcaster' }).getAttribute('href')
      const request = Object.fromEntries(new URL(link ?? '').searchParams)
      const approvedAt = Date.now()
      const approved = await fetch(new URL('approve', stack.urls.farcasterApp), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      })
      if (!approved.ok) throw new Error(`The demo app did not approve (${approved.status})`)
      const connected = await connectedAt(page)
      result.clickToQrMs.push(qrAt - clickedAt)
      result.approveToConnectedMs.push(connected - approvedAt)
      result.clickToConnectedMs.push(qrAt - clickedAt + (connected - approvedAt))
      await context.close()
    }
  } finally {
    await site.close()
    await browser.close()
    await stack.stop()
  }
  return result
}

export function printFarcaster(result: FarcasterBenchResult): void {
  printMedians(`Farcaster sign-in (local relay, registries and demo app), median of ${result.runs}:`, [
    ['click -> the QR code shown', result.clickToQrMs],
    ['Approve in the app -> connected', result.approveToConnectedMs],
    ['click -> connected (less the time in the app)', result.clickToConnectedMs],
  ])
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  printFarcaster(await benchFarcaster(Number(process.argv[2] ?? 10)))
  process.exit(0)
}
