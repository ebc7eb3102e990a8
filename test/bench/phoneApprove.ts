/**
 * Phones: approve a signature. On an iPhone emulated in headless Chromium (test/e2e/phone-emulation.ts:
 * 390 × 844, touch, mobile), a script-tag page of the built library (`dist/`) signed in to the embedded
 * wallet asks `personal_sign`; the person taps Approve in the wallet frame. Measured: from the tap
 * (the frame's `pointerdown`, its clock) to the page's promise resolving (the page's clock), both
 * `performance.timeOrigin + performance.now()` on one machine. The first signature is left out (it
 * loads the frame's request code); the median of the `runs` after it, one browser, one sign-in.
 *
 * Run alone after `npm run build`: `npx tsx test/bench/phoneApprove.ts [runs]`.
 */
import type { Page } from 'playwright-core'
import { closedAfterSignIn, codeOf, nextMail } from '../e2e/embedded-helpers.ts'
import { launchBrowser, startTestStack, type TestStack } from '../e2e/harness.ts'
import { phoneContext, walletFrameOf } from '../e2e/phone-emulation.ts'
import { serveDist } from './page.ts'

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

const pageHtml = (stack: TestStack) => `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>phone approval bench</title><script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<wallet-modal networks="eip155:31337" project-id="dev-project" api-url="${stack.urls.service}"
  frame-url="${stack.urls.frame}" features="email"></wallet-modal>
</body></html>`

type Clock = { approvedAt?: number | undefined; signedAt?: number | undefined }

/** One signature: asked by the page, Approve tapped in the frame once armed; answers tap -> signature in ms. */
async function oneSignature(page: Page, index: number): Promise<number> {
  await page.evaluate(async (text) => {
    const clock = globalThis as unknown as Clock
    clock.signedAt = undefined
    const provider = document.querySelector('wallet-modal')?.getProvider('eip155')
    if (!provider) throw new Error('No provider')
    const [address] = (await provider.request({ method: 'eth_accounts' })) as string[]
    const hex = `0x${[...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')}`
    void provider.request({ method: 'personal_sign', params: [hex, address] }).then(() => {
      clock.signedAt = performance.timeOrigin + performance.now()
    })
  }, `Phone bench signature ${index}`)
  const approve = page
    .frameLocator('iframe[data-wallet-frame]')
    .locator('button[data-action="approve"]:not([aria-disabled])')
  await approve.waitFor()
  const frame = await walletFrameOf(page)
  await frame.evaluate(() => {
    const clock = globalThis as unknown as Clock
    clock.approvedAt = undefined
    document.addEventListener(
      'pointerdown',
      () => {
        clock.approvedAt = performance.timeOrigin + performance.now()
      },
      { capture: true, once: true },
    )
  })
  // A tap on Approve's centre, in the page's coordinates.
  const box = await page.locator('iframe[data-wallet-frame]').boundingBox()
  const button = await frame.evaluate(() => {
    const rect = document.querySelector('button[data-action="approve"]')?.getBoundingClientRect()
    return rect && { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 }
  })
  if (!box || !button) throw new Error('No Approve in the frame')
  await page.touchscreen.tap(box.x + button.x, box.y + button.y)
  await page.waitForFunction(() => (globalThis as unknown as Clock).signedAt !== undefined, undefined, {
    timeout: 30_000,
  })
  const signedAt = await page.evaluate(() => (globalThis as unknown as Clock).signedAt ?? Number.NaN)
  const approvedAt = await frame.evaluate(() => (globalThis as unknown as Clock).approvedAt ?? Number.NaN)
  await page.locator('wallet-modal').getByRole('dialog').waitFor({ state: 'detached' })
  return signedAt - approvedAt
}

export interface PhoneApproveResult {
  runs: number
  tapToSignatureMs: number[]
}

/** Runs the bench against a stack of its own; `dist/` must be built. */
export async function benchPhoneApprove(runs = 9): Promise<PhoneApproveResult> {
  const [stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  const site = await serveDist({ '/phone.html': pageHtml(stack) })
  const result: PhoneApproveResult = { runs, tapToSignatureMs: [] }
  try {
    const context = await phoneContext(browser)
    const page = await context.newPage()
    await page.goto(`${site.url}phone.html`)
    const email = `phone.bench.${Date.now()}@example.com`
    await page.locator('wallet-button').getByRole('button').and(page.locator(':enabled')).click()
    const dialog = page.locator('wallet-modal').getByRole('dialog')
    await dialog.getByLabel('Email').fill(email)
    await dialog.getByRole('button', { name: 'Continue', exact: true }).click()
    await dialog.getByLabel('Code').fill(codeOf(await nextMail(stack, email, 0)))
    await closedAfterSignIn(page)
    // The first signature loads the frame's request code: not counted.
    await oneSignature(page, 0)
    for (let run = 1; run <= runs; run++) result.tapToSignatureMs.push(await oneSignature(page, run))
    await context.close()
  } finally {
    await browser.close()
    await site.close()
    await stack.stop()
  }
  return result
}

/** Prints the result as `npm run bench` shows it. */
export function printPhoneApprove(result: PhoneApproveResult): void {
  const values = result.tapToSignatureMs
  console.log(`\nPhones: approve a signature (iPhone emulated in Chromium, median of ${result.runs}):`)
  console.log(
    `  tap on Approve -> signature at the page    ${median(values).toFixed(0).padStart(6)} ms   (${values.map((v) => v.toFixed(0)).join(', ')})`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printPhoneApprove(await benchPhoneApprove(Number(process.argv[2] ?? 9)))
  process.exit(0)
}
