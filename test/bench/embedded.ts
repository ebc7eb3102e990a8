/**
 * The embedded wallet's e-mail path on the local stack (service, wallet frame on its own origin,
 * mail sink, Hardhat chain), with the built library (`dist/`) on a script-tag page, in headless
 * Chromium. Each run is a fresh browser context and a new address:
 * - the frame's load: iframe created -> its ready event (then the spec's 500 ms before first use);
 * - e-mail submitted (Continue pressed, the frame usable) -> the code's mail caught by the SMTP sink;
 * - code entered (its last digit) -> `wallet-connect`;
 * - Approve pressed inside the frame -> the `personal_sign` signature back at the page.
 * Times are medians of `runs` (10 by default), each run listed. Clocks: the page's, the frame's and
 * the sink's `Date.now()` on one machine.
 *
 * Sizes: the JS a page with the `email` feature loads before the first click, against the same page
 * without it (the frame and the e-mail code load only when used, so they must be equal, and nothing
 * is fetched from the frame's origin); the JS a page loads through connected and a signature by
 * e-mail, against a browser wallet's connection, and the e-mail path's own chunks; and the frame's
 * own files (gzip of what its origin served).
 *
 * Run alone after `npm run build`: `npx tsx test/bench/embedded.ts [runs]`.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { inbox } from '../e2e/embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from '../e2e/harness.ts'
import { WALLET } from './loaded.ts'
import { serveDist } from './page.ts'

const gzip = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** The page: one script tag, the button and a modal on the local chain with e-mail sign-in (or not). */
const pageHtml = (
  stack: TestStack,
  email: boolean,
  wallet = '',
) => `<!doctype html><html><head><meta charset="utf-8">
<title>embedded bench</title>${wallet}<script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<wallet-modal networks="eip155:31337" project-id="dev-project" api-url="${stack.urls.service}"
  frame-url="${stack.urls.frame}" ${email ? 'features="email"' : 'features=""'}></wallet-modal>
</body></html>`

/**
 * Timestamps the page can take: the frame's channel made and its ready event (the page's own
 * MessageChannel, watched), the last click and input (composed events reach the document), and
 * `wallet-connect`. All `Date.now()`.
 */
const PROBE = `(() => {
  const marks = { clicks: [], inputs: [], connects: [] }
  globalThis.benchMarks = marks
  const Original = MessageChannel
  globalThis.MessageChannel = class extends Original {
    constructor() {
      super()
      marks.channelAt = Date.now()
      this.port1.addEventListener('message', (event) => {
        if (event.data && event.data.type === 'FRAME_READY') marks.readyAt = Date.now()
      })
    }
  }
  document.addEventListener('click', () => marks.clicks.push(Date.now()), true)
  document.addEventListener('input', () => marks.inputs.push(Date.now()), true)
  document.addEventListener('wallet-connect', () => marks.connects.push(Date.now()))
})()`

interface Marks {
  channelAt?: number
  readyAt?: number
  clicks: number[]
  inputs: number[]
  connects: number[]
  signedAt?: number
}
const marks = (page: Page) => page.evaluate(() => (globalThis as unknown as { benchMarks: Marks }).benchMarks)
const dialog = (page: Page) => page.locator('wallet-modal').getByRole('dialog')

export interface EmbeddedBenchResult {
  runs: number
  frameLoadMs: number[]
  submittedToMailedMs: number[]
  codeToConnectedMs: number[]
  approveToSignatureMs: number[]
  firstPaint: { withEmail: number; without: number; frameRequests: number }
  emailPath: { page: { file: string; gzip: number }[]; frame: { file: string; gzip: number }[] }
  /** JS a page loads through a browser wallet's connection (the e-mail path shares most of it). */
  walletPath: { file: string; gzip: number }[]
}

/** JS a page loads until its button is enabled (and a moment after), gzip from `dist/`. */
async function firstPaintJs(browser: Browser, url: string, frameOrigin: string) {
  const context = await newContext(browser)
  let frameRequests = 0
  context.on('request', (request) => {
    if (new URL(request.url()).origin === frameOrigin) frameRequests++
  })
  const page = await context.newPage()
  await page.goto(url)
  await page.locator('wallet-button').getByRole('button').and(page.locator(':enabled')).waitFor()
  await page.waitForLoadState('networkidle')
  const files = await loadedJs(page)
  await context.close()
  return { gzip: files.reduce((sum, file) => sum + file.gzip, 0), frameRequests }
}

/** The JS a page loads through a browser wallet's connection (first paint, open, connect), for comparison. */
async function walletConnectionJs(browser: Browser, url: string) {
  const context = await newContext(browser)
  const page = await context.newPage()
  await page.goto(url)
  await page.locator('wallet-button').getByRole('button').and(page.locator(':enabled')).click()
  await dialog(page)
    .getByRole('button', { name: /Bench Wallet/ })
    .click()
  await dialog(page).waitFor({ state: 'detached' })
  await page.waitForLoadState('networkidle')
  const files = await loadedJs(page)
  await context.close()
  return files
}

async function loadedJs(page: Page): Promise<{ file: string; gzip: number }[]> {
  const origin = new URL(page.url()).origin
  const urls = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .concat([...document.scripts].map((script) => script.src)),
  )
  const dist = resolve('dist')
  return [...new Set(urls)]
    .filter((url) => url.startsWith(origin) && url.endsWith('.js'))
    .map((url) => new URL(url).pathname.slice(1))
    .map((file) => ({ file, gzip: gzip(readFileSync(join(dist, file))) }))
}

/** One person: a fresh browser, a new address, the code from the mail, connected, one signature. */
async function oneRun(
  context: BrowserContext,
  url: string,
  stack: TestStack,
  run: number,
  sizes: EmbeddedBenchResult['emailPath'] | undefined,
) {
  const frameOrigin = new URL(stack.urls.frame).origin
  const frameFiles = new Map<string, number>()
  if (sizes) {
    context.on('response', async (response) => {
      const at = new URL(response.url())
      if (at.origin !== frameOrigin || at.pathname.startsWith('/embedded/')) return
      frameFiles.set(at.pathname, gzip(await response.body().catch(() => Buffer.alloc(0))))
    })
  }
  await context.addInitScript({ content: PROBE })
  const page = await context.newPage()
  await page.goto(url)
  const email = `bench.${run}.${Date.now()}@example.com`
  await page.locator('wallet-button').getByRole('button').and(page.locator(':enabled')).click()
  const field = dialog(page).getByLabel('Email')
  await field.waitFor()
  await field.fill(email)
  // The person types for a while: the frame (loading since the field took focus) is usable first.
  await page.waitForFunction(() => {
    const { readyAt } = (globalThis as unknown as { benchMarks: Marks }).benchMarks
    return readyAt !== undefined && Date.now() - readyAt > 600
  })
  await dialog(page).getByRole('button', { name: 'Continue' }).click()
  const submittedAt = (await marks(page)).clicks.at(-1) ?? Number.NaN
  let mail: { receivedAt: number; text: string } | undefined
  for (let attempt = 0; attempt < 400 && !mail; attempt++) {
    mail = (await inbox(stack, email))[0]
    if (!mail) await new Promise((done) => setTimeout(done, 10))
  }
  if (!mail) throw new Error(`No mail to ${email}`)
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? ''
  await dialog(page).getByLabel('Code').fill(code)
  await page.waitForFunction(
    () => (globalThis as unknown as { benchMarks: Marks }).benchMarks.connects.length > 0,
  )
  await dialog(page).waitFor({ state: 'detached' })

  // A signature: the page asks, the frame shows the message, the person approves inside it.
  await page.evaluate(async () => {
    const provider = document.querySelector('wallet-modal')?.getProvider('eip155')
    if (!provider) throw new Error('No provider')
    const [address] = (await provider.request({ method: 'eth_accounts' })) as string[]
    void provider.request({ method: 'personal_sign', params: ['0x48656c6c6f', address] }).then(() => {
      ;(globalThis as unknown as { benchMarks: Marks }).benchMarks.signedAt = Date.now()
    })
  })
  const frame = page.frames().find((candidate) => candidate.url().startsWith(stack.urls.frame))
  if (!frame) throw new Error('No wallet frame')
  const approve = page.frameLocator('iframe[data-wallet-frame]').getByRole('button', { name: 'Approve' })
  await approve.waitFor()
  await frame.evaluate(() => {
    document.addEventListener('click', () => {
      ;(globalThis as unknown as { approvedAt: number }).approvedAt = Date.now()
    })
  })
  await approve.click()
  await page.waitForFunction(
    () => (globalThis as unknown as { benchMarks: Marks }).benchMarks.signedAt !== undefined,
  )
  const approvedAt = await frame.evaluate(() => (globalThis as unknown as { approvedAt: number }).approvedAt)
  const seen = await marks(page)
  if (sizes) {
    sizes.page = await loadedJs(page)
    sizes.frame = [...frameFiles].map(([file, size]) => ({ file, gzip: size }))
  }
  return {
    frameLoadMs: (seen.readyAt ?? Number.NaN) - (seen.channelAt ?? Number.NaN),
    submittedToMailedMs: mail.receivedAt - submittedAt,
    codeToConnectedMs: (seen.connects[0] ?? Number.NaN) - (seen.inputs.at(-1) ?? Number.NaN),
    approveToSignatureMs: (seen.signedAt ?? Number.NaN) - approvedAt,
  }
}

/** Runs the bench against a stack of its own; `dist/` must be built. */
export async function benchEmbedded(runs = 10): Promise<EmbeddedBenchResult> {
  const [stack, browser] = await Promise.all([startTestStack(), launchBrowser()])
  const site = await serveDist({
    '/email.html': pageHtml(stack, true),
    '/plain.html': pageHtml(stack, false),
    '/wallet.html': pageHtml(stack, false, WALLET),
  })
  const result: EmbeddedBenchResult = {
    runs,
    frameLoadMs: [],
    submittedToMailedMs: [],
    codeToConnectedMs: [],
    approveToSignatureMs: [],
    firstPaint: { withEmail: 0, without: 0, frameRequests: 0 },
    emailPath: { page: [], frame: [] },
    walletPath: [],
  }
  try {
    const frameOrigin = new URL(stack.urls.frame).origin
    const withEmail = await firstPaintJs(browser, `${site.url}email.html`, frameOrigin)
    const without = await firstPaintJs(browser, `${site.url}plain.html`, frameOrigin)
    result.firstPaint = {
      withEmail: withEmail.gzip,
      without: without.gzip,
      frameRequests: withEmail.frameRequests,
    }
    result.walletPath = await walletConnectionJs(browser, `${site.url}wallet.html`)
    for (let run = 0; run < runs; run++) {
      const context = await newContext(browser)
      const times = await oneRun(
        context,
        `${site.url}email.html`,
        stack,
        run,
        run === 0 ? result.emailPath : undefined,
      )
      await context.close()
      result.frameLoadMs.push(times.frameLoadMs)
      result.submittedToMailedMs.push(times.submittedToMailedMs)
      result.codeToConnectedMs.push(times.codeToConnectedMs)
      result.approveToSignatureMs.push(times.approveToSignatureMs)
    }
  } finally {
    await browser.close()
    await site.close()
    await stack.stop()
  }
  return result
}

/** Prints the result as `npm run bench` shows it. */
export function printEmbedded(result: EmbeddedBenchResult): void {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  const row = (label: string, values: number[]) =>
    console.log(
      `  ${label.padEnd(44)} ${median(values).toFixed(0).padStart(6)} ms   (${values.map((v) => v.toFixed(0)).join(', ')})`,
    )
  console.log(
    `\nEmbedded wallet, e-mail path on the local stack (median of ${result.runs}, fresh browser each):`,
  )
  row('frame load: iframe created -> ready event', result.frameLoadMs)
  row('e-mail submitted -> code mailed', result.submittedToMailedMs)
  row('code entered -> connected', result.codeToConnectedMs)
  row('Approve pressed -> signature at the page', result.approveToSignatureMs)
  const { firstPaint, emailPath } = result
  console.log(
    `  JS before the first click (until idle): ${firstPaint.withEmail} B gzip with the email feature, ${firstPaint.without} B without; requests to the frame origin: ${firstPaint.frameRequests}`,
  )
  const total = (files: { gzip: number }[]) => files.reduce((sum, file) => sum + file.gzip, 0)
  const shared = new Set(result.walletPath.map((file) => file.file))
  const own = emailPath.page.filter((file) => !shared.has(file.file))
  console.log(
    `  JS through connected and a signature: ${kb(total(emailPath.page))} gzip by e-mail, ${kb(total(result.walletPath))} through a browser wallet's connection`,
  )
  console.log("  the e-mail path's own, gzip (what a browser wallet's connection never loads):")
  for (const file of own) console.log(`    page  ${file.file.padEnd(46)} ${kb(file.gzip).padStart(9)}`)
  console.log(`    page  ${'total'.padEnd(46)} ${kb(total(own)).padStart(9)}`)
  for (const file of emailPath.frame)
    console.log(`    frame ${file.file.padEnd(46)} ${kb(file.gzip).padStart(9)}`)
  console.log(
    `    frame ${'total (the wallet frame, its own origin)'.padEnd(46)} ${kb(total(emailPath.frame)).padStart(9)}`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printEmbedded(await benchEmbedded(Number(process.argv[2] ?? 10)))
  process.exit(0)
}
