/**
 * Phones: WalletConnect link. On a phone (Chromium emulating an iPhone: its user agent, 390 × 844,
 * touch, and the CPU slowed down 4×), with the built script tag (dist/) on loopback and the local stack
 * (the companion service's catalogue, the dev relay), the time from the tap on a catalogue wallet
 * (Rainbow, on Connect) to a link that opens its app with the pairing URI: the row itself when its href
 * carries the current URI at the tap (0 ms), else the "Open Rainbow" link once it shows. Two ways to
 * tap: as soon as the row shows (the quickest person), and after looking at the list for 1.5 s. Also:
 * the long tasks (over 50 ms) the page ran from the modal's opening until the URI existed, and their
 * longest.
 *
 * With `--old DIR` the same runs go to a second build (say, the one before pairings were made ahead)
 * and the medians are compared.
 *
 * Run alone after `npm run build`: `npx tsx test/bench/phoneLink.ts [runs] [--old DIR]`.
 */
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { freePort, launchBrowser, startTestStack, type TestStack } from '../e2e/harness.ts'
import { serveDist } from './page.ts'
import { median } from './signIn.ts'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
/** A phone's CPU, roughly, against this machine's (what Lighthouse's mobile runs use). */
const CPU_SLOWDOWN = 4
const LOOK_MS = 1_500

const page = (stack: TestStack) => `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>phone link bench</title>
<script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<wallet-modal networks="eip155:31337" project-id="dev-project" api-url="${stack.urls.service}"
  relay-url="${stack.urls.relay}"></wallet-modal>
</body></html>`

/**
 * In the page: when the modal opened; the tap on a wallet's row (and whether the row's own href carried
 * the pairing URI then); the first moment a link in the modal carries the current URI after the tap;
 * when the URI first existed; the long tasks.
 */
const PROBE = `(() => {
  const marks = { openAt: undefined, tapAt: undefined, readyAt: undefined, uriAt: undefined, longTasks: [] }
  globalThis.benchMarks = marks
  const config = () => document.querySelector('wallet-modal')?.walletConfig
  const uri = () => config()?.$pairing.get().uri
  const carries = (link) => {
    const current = uri()
    return Boolean(current && link?.href?.includes(encodeURIComponent(current)))
  }
  const modalLinks = () => [...(document.querySelector('wallet-modal')?.shadowRoot?.querySelectorAll('a[href]') ?? [])]
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) marks.longTasks.push({ at: entry.startTime, ms: entry.duration })
  }).observe({ type: 'longtask', buffered: true })
  document.addEventListener('wallet-open', () => {
    marks.openAt = performance.now()
    ;(function watchUri() {
      if (uri()) marks.uriAt = performance.now()
      else requestAnimationFrame(watchUri)
    })()
  })
  document.addEventListener('pointerdown', (event) => {
    const row = event.composedPath().find((node) => node instanceof Element && node.hasAttribute('data-wallet-id'))
    if (!row || marks.tapAt !== undefined) return
    marks.tapAt = performance.now()
    if (carries(row.closest('a'))) {
      marks.readyAt = marks.tapAt
      return
    }
    ;(function watchLink() {
      if (modalLinks().some(carries)) marks.readyAt = performance.now()
      else requestAnimationFrame(watchLink)
    })()
  }, true)
})()`

type Marks = {
  openAt?: number
  tapAt?: number
  readyAt?: number
  uriAt?: number
  longTasks: { at: number; ms: number }[]
}

export interface PhoneRun {
  /** Tap on the row to a link carrying the URI; 0 when the row carried it at the tap. */
  tapToLinkMs: number
  /** The modal's opening to the pairing URI's existence. */
  openToUriMs: number
  /** Long tasks from the opening until the URI existed (or the link was ready), and the longest. */
  longTasks: number
  longestTaskMs: number
}

async function oneRun(browser: Browser, url: string, lookMs: number): Promise<PhoneRun> {
  const context = await browser.newContext({
    userAgent: IPHONE,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  })
  await context.addInitScript({ content: PROBE })
  const tab = await context.newPage()
  const cdp = await context.newCDPSession(tab)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  await tab.goto(url)
  await tab.locator('wallet-button').getByRole('button').tap()
  const row = tab
    .locator('wallet-modal')
    .getByRole('dialog')
    .locator('[data-wallet-id]', { hasText: 'Rainbow' })
  const errors: string[] = []
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await row.waitFor().catch(async (error: Error) => {
    const shown = await tab.locator('wallet-modal').getByRole('dialog').textContent()
    throw new Error(`${error.message}\nthe modal shows: ${shown}\nconsole errors: ${errors.join(' | ')}`)
  })
  if (lookMs > 0) await tab.waitForTimeout(lookMs)
  await row.tap()
  await tab.waitForFunction(
    () => (globalThis as unknown as { benchMarks: Marks }).benchMarks.readyAt !== undefined,
    undefined,
    { timeout: 60_000 },
  )
  await tab.waitForFunction(
    () => (globalThis as unknown as { benchMarks: Marks }).benchMarks.uriAt !== undefined,
  )
  const marks = await tab.evaluate(() => (globalThis as unknown as { benchMarks: Marks }).benchMarks)
  await context.close()
  const until = Math.max(marks.uriAt ?? 0, marks.readyAt ?? 0)
  const tasks = marks.longTasks.filter((task) => task.at >= (marks.openAt ?? 0) && task.at <= until)
  return {
    tapToLinkMs: (marks.readyAt ?? Number.NaN) - (marks.tapAt ?? Number.NaN),
    openToUriMs: (marks.uriAt ?? Number.NaN) - (marks.openAt ?? Number.NaN),
    longTasks: tasks.length,
    longestTaskMs: Math.max(0, ...tasks.map((task) => task.ms)),
  }
}

export interface PhoneLinkBenchResult {
  runs: number
  builds: { name: string; quick: PhoneRun[]; looked: PhoneRun[] }[]
}

/** Runs the bench on the builds in `roots` (name → dist folder) against one stack; `runs` of each. */
export async function benchPhoneLink(
  runs = 7,
  roots: Record<string, string> = { current: resolve('dist') },
): Promise<PhoneLinkBenchResult> {
  // The builds are served on ports the stack's project accepts (its catalogue answers their pages).
  const ports = await Promise.all(Object.keys(roots).map(() => freePort()))
  const [stack, browser] = await Promise.all([
    startTestStack({ siteOrigins: ports.map((port) => `http://127.0.0.1:${port}`) }),
    launchBrowser(),
  ])
  const result: PhoneLinkBenchResult = { runs, builds: [] }
  try {
    for (const [index, [name, root]] of Object.entries(roots).entries()) {
      const site = await serveDist({ '/phone.html': page(stack) }, root, ports[index])
      const build = { name, quick: [] as PhoneRun[], looked: [] as PhoneRun[] }
      try {
        // Alternated, so that a slow moment of the machine falls on both ways of tapping.
        for (let run = 0; run < runs; run++) {
          build.quick.push(await oneRun(browser, `${site.url}phone.html`, 0))
          build.looked.push(await oneRun(browser, `${site.url}phone.html`, LOOK_MS))
        }
      } finally {
        await site.close()
      }
      result.builds.push(build)
    }
  } finally {
    await browser.close()
    await stack.stop()
  }
  return result
}

export function printPhoneLink(result: PhoneLinkBenchResult): void {
  const ms = (values: number[]) =>
    `${median(values).toFixed(0)} ms (${values.map((v) => v.toFixed(0)).join(', ')})`
  console.log(
    `\nPhones: WalletConnect link (iPhone emulation, CPU ${CPU_SLOWDOWN}× slower, medians of ${result.runs}):`,
  )
  for (const build of result.builds) {
    console.log(`  ${build.name}:`)
    console.log(
      `    tap as soon as the row shows: tap -> link ready  ${ms(build.quick.map((r) => r.tapToLinkMs))}`,
    )
    console.log(
      `    tap after ${LOOK_MS} ms:           tap -> link ready  ${ms(build.looked.map((r) => r.tapToLinkMs))}`,
    )
    const all = [...build.quick, ...build.looked]
    console.log(`    modal open -> pairing URI exists             ${ms(all.map((r) => r.openToUriMs))}`)
    console.log(
      `    long tasks until then: median ${median(all.map((r) => r.longTasks))}, longest ${Math.max(...all.map((r) => r.longestTaskMs)).toFixed(0)} ms`,
    )
  }
  const [current, old] = [result.builds[0], result.builds[1]]
  if (current && old) {
    for (const way of ['quick', 'looked'] as const) {
      const now = median(current[way].map((r) => r.tapToLinkMs))
      const before = median(old[way].map((r) => r.tapToLinkMs))
      console.log(
        `  ${way === 'quick' ? 'as soon as it shows' : `after ${LOOK_MS} ms`}: ${now.toFixed(0)} ms vs ${before.toFixed(0)} ms (${before > 0 ? (now / before).toFixed(2) : 'n/a'} of ${old.name})`,
      )
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const oldIndex = args.indexOf('--old')
  const oldDir = oldIndex >= 0 ? args[oldIndex + 1] : undefined
  const runs = Number(
    args.find((arg, index) => /^\d+$/.test(arg) && (oldIndex < 0 || index !== oldIndex + 1)) ?? 7,
  )
  const roots: Record<string, string> = { current: resolve('dist') }
  if (oldDir) roots.old = resolve(oldDir)
  printPhoneLink(await benchPhoneLink(runs, roots))
}
