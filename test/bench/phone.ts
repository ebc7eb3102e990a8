/**
 * On a phone (Chromium's mobile emulation: an iPhone's user agent, 390 × 844, touch, every step a
 * tap), the e-mail sign-in from the code to connected: the code's last digit typed -> the
 * `<wallet-button>` showing the account. A new wallet is offered its recovery set-up in the wallet
 * frame on the way; the time the offer waits for the person (shown -> Later tapped) is taken out, so
 * the figure is the product's own. The built library (`dist/`) on a script-tag page, the local stack
 * (service on PGlite, the frame on its own origin, the SMTP sink, Hardhat), a fresh phone and a new
 * address each run; the median of `runs` (7 by default), each run listed. Clocks: the page's and the
 * frame's `Date.now()` on one machine.
 *
 * Run alone after `npm run build`: `npx tsx test/bench/phone.ts [runs]` (part of `npm run bench`).
 */
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { codeOf, nextMail } from '../e2e/embedded-helpers.ts'
import { launchBrowser, startTestStack, type TestStack } from '../e2e/harness.ts'
import { newPhoneContext, tapInFrame } from '../e2e/phone-helpers.ts'
import { serveDist } from './page.ts'
import { median, signInPage } from './signIn.ts'

/**
 * In the page: the time of each `input` (the code's digits), and when the button first shows an
 * account (its short address).
 */
const PAGE_PROBE = `(() => {
  const marks = { inputs: [] }
  globalThis.phoneMarks = marks
  document.addEventListener('input', () => marks.inputs.push(Date.now()), true)
  const watch = () => {
    const root = document.querySelector('wallet-button')?.shadowRoot
    if (!root) return requestAnimationFrame(watch)
    const check = () => {
      if (marks.accountAt === undefined && /0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}/.test(root.textContent ?? ''))
        marks.accountAt = Date.now()
    }
    new MutationObserver(check).observe(root, { subtree: true, childList: true, characterData: true })
  }
  watch()
})()`

/** In the wallet frame: when its Later (the recovery offer) first shows, and when it is tapped. */
const FRAME_PROBE = () => {
  const marks: { laterShownAt?: number; laterTappedAt?: number } = {}
  ;(globalThis as unknown as { phoneMarks: typeof marks }).phoneMarks = marks
  const later = () =>
    [...document.querySelectorAll('button')].find((button) => button.textContent?.trim() === 'Later')
  new MutationObserver(() => {
    if (marks.laterShownAt === undefined && later()) marks.laterShownAt = Date.now()
  }).observe(document, { subtree: true, childList: true })
  document.addEventListener(
    'click',
    (event) => {
      if (event.target instanceof Element && event.target.closest('button')?.textContent?.trim() === 'Later')
        marks.laterTappedAt ??= Date.now()
    },
    true,
  )
}

export interface PhoneBenchResult {
  runs: number
  /** Code's last digit -> the account on the button, less the offer's wait for the person. */
  codeToConnectedMs: number[]
  /** Code's last digit -> the recovery offer shown in the frame. */
  codeToOfferMs: number[]
  /** Later tapped -> the account on the button. */
  laterToConnectedMs: number[]
}

async function oneRun(browser: Browser, url: string, stack: TestStack, run: number) {
  const context = await newPhoneContext(browser)
  try {
    await context.addInitScript({ content: PAGE_PROBE })
    const page = await context.newPage()
    await page.goto(url)
    const button = page.locator('wallet-button').getByRole('button')
    await button.and(page.locator(':enabled')).tap()
    const dialog = page.locator('wallet-modal').getByRole('dialog')
    const email = `phone.bench.${run}.${Date.now()}@example.com`
    const field = dialog.getByLabel('Email')
    await field.tap()
    await field.fill(email)
    await dialog.getByRole('button', { name: 'Continue', exact: true }).tap()
    const code = dialog.getByLabel('Code')
    await code.tap()
    const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
    if (!frame) throw new Error('No wallet frame')
    await frame.evaluate(FRAME_PROBE)
    await page.keyboard.type(codeOf(await nextMail(stack, email, 0)))
    await tapInFrame(page, 'Later')
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { phoneMarks: { accountAt?: number } }).phoneMarks.accountAt !== undefined,
      undefined,
      { timeout: 60_000 },
    )
    const inPage = await marks(page)
    const inFrame = await frame.evaluate(
      () =>
        (globalThis as unknown as { phoneMarks: { laterShownAt?: number; laterTappedAt?: number } })
          .phoneMarks,
    )
    const codeAt = inPage.inputs.at(-1) ?? Number.NaN
    const accountAt = inPage.accountAt ?? Number.NaN
    const shown = inFrame.laterShownAt ?? Number.NaN
    const tapped = inFrame.laterTappedAt ?? Number.NaN
    return {
      codeToConnectedMs: accountAt - codeAt - (tapped - shown),
      codeToOfferMs: shown - codeAt,
      laterToConnectedMs: accountAt - tapped,
    }
  } finally {
    await context.close()
  }
}

const marks = (page: Page) =>
  page.evaluate(
    () => (globalThis as unknown as { phoneMarks: { inputs: number[]; accountAt?: number } }).phoneMarks,
  )

/** Runs the bench against a stack of its own; `dist/` must be built. */
export async function benchPhone(runs = 7): Promise<PhoneBenchResult> {
  const [stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  const site = await serveDist({ '/phone.html': signInPage(stack, 'phone bench', 'features="email"') })
  const result: PhoneBenchResult = { runs, codeToConnectedMs: [], codeToOfferMs: [], laterToConnectedMs: [] }
  try {
    for (let run = 0; run < runs; run++) {
      const times = await oneRun(browser, `${site.url}phone.html`, stack, run)
      result.codeToConnectedMs.push(times.codeToConnectedMs)
      result.codeToOfferMs.push(times.codeToOfferMs)
      result.laterToConnectedMs.push(times.laterToConnectedMs)
    }
  } finally {
    await browser.close()
    await site.close()
    await stack.stop()
  }
  return result
}

/** Prints the result as `npm run bench` shows it. */
export function printPhone(result: PhoneBenchResult): void {
  const row = (label: string, values: number[]) =>
    console.log(
      `  ${label.padEnd(52)} ${median(values).toFixed(0).padStart(6)} ms   (${values.map((v) => v.toFixed(0)).join(', ')})`,
    )
  console.log(
    `\nPhones (Chromium's mobile emulation, 390 × 844, touch): e-mail code to connected (median of ${result.runs}, a fresh phone each):`,
  )
  row('code entered -> account on the button (less the offer)', result.codeToConnectedMs)
  row('  code entered -> recovery offer shown in the frame', result.codeToOfferMs)
  row('  Later tapped -> account on the button', result.laterToConnectedMs)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printPhone(await benchPhone(Number(process.argv[2] ?? 7)))
  process.exit(0)
}
