/**
 * Button visible and click to dialog in each engine, next to the React floor page in the same engine
 * (the core journeys' engines): Chromium (playwright-core), Firefox (puppeteer-core over WebDriver BiDi)
 * and WebKit (WebKitWebDriver and MiniBrowser under Xvfb). The pages are those of the first-open bench
 * (test/bench/firstOpen.ts: our script-tag page with an in-page EIP-6963 wallet, and `<floor-button>`,
 * React 19 + r2wc with the same dialog DOM and styles), plus the moment the button is painted. Cold
 * loads (a fresh context, or a fresh WebKit session), alternating floor and ours, each page left a
 * moment after its button is ready before a real pointer click. Medians and ratios, never judged.
 *
 * An engine that is not installed is reported as skipped.
 *
 * @example
 * printEngines(await benchEngines(5))
 */
import { existsSync } from 'node:fs'
import { launch } from 'puppeteer-core'
import type { EngineTab } from '../e2e/engine-journeys.ts'
import { puppeteerTab, scriptOf, webDriverTab } from '../e2e/engine-tabs.ts'
import { launchBrowser, newContext } from '../e2e/harness.ts'
import { startWebKitDriver, webkitMissing } from '../e2e/webdriver.ts'
import { buildFloor, median, page } from './firstOpen.ts'
import { serveDist } from './page.ts'

type Tab = Pick<EngineTab, 'goto' | 'evaluate' | 'clickAt' | 'close'>

/** An engine: `open()` answers a cold tab (nothing cached, nothing stored). */
interface Engine {
  open(): Promise<Tab>
  stop(): Promise<void>
}

/** Records in `window.buttonVisibleMs` the frame after `tag`'s inner button is first laid out (from navigation). */
const buttonVisible = (tag: string) => `<script>
  ;(function wait() {
    const inner = document.querySelector('${tag}')?.shadowRoot?.querySelector('button')
    if (inner && inner.getBoundingClientRect().width > 0)
      requestAnimationFrame(() => { window.buttonVisibleMs = performance.now() })
    else requestAnimationFrame(wait)
  })()
</script>`

const OURS = page(
  '/wallet-elements.js',
  `<wallet-button></wallet-button>${buttonVisible('wallet-button')}`,
  'wallet-modal',
)
const FLOOR = page(
  '/floor.js',
  `<floor-button></floor-button>${buttonVisible('floor-button')}`,
  'floor-button',
)

export interface EngineTimings {
  buttonVisibleMs: number[]
  /** Click to the dialog's first row painted. */
  dialogMs: number[]
}

export interface EngineResult {
  engine: string
  skipped?: string
  floor: EngineTimings
  ours: EngineTimings
}

async function until<T>(probe: () => Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error('bench page timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** One cold load of `url`, its button's paint, then a click on it once enabled; its timings. */
async function once(engine: Engine, url: string, tag: string) {
  const tab = await engine.open()
  try {
    await tab.goto(url)
    const buttonVisibleMs = await until(() =>
      tab.evaluate(() => (window as unknown as { buttonVisibleMs?: number }).buttonVisibleMs),
    )
    // Enabled (ours: once the modal it adds has its instance), then a moment for idle work.
    const point = await until(() =>
      tab.evaluate((name: string) => {
        const inner = document.querySelector(name)?.shadowRoot?.querySelector('button')
        if (!inner || inner.disabled) return null
        const box = inner.getBoundingClientRect()
        return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
      }, tag),
    )
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    await tab.clickAt(point.x, point.y)
    const dialog = await until(() =>
      tab.evaluate(() => (window as unknown as { firstOpen?: { paintedMs: number } }).firstOpen),
    )
    return { buttonVisibleMs, dialogMs: dialog.paintedMs }
  } finally {
    await tab.close().catch(() => {})
  }
}

const chromium = async (): Promise<Engine> => {
  const browser = await launchBrowser()
  return {
    async open() {
      const context = await newContext(browser)
      const tab = await context.newPage()
      return {
        async goto(url) {
          await tab.goto(url)
        },
        evaluate: <T, A extends unknown[]>(fn: (...args: A) => T, ...args: A) =>
          tab.evaluate(scriptOf(fn, args)) as Promise<Awaited<T>>,
        clickAt: (x, y) => tab.mouse.click(x, y),
        close: () => context.close(),
      }
    },
    stop: () => browser.close(),
  }
}

const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
const firefox = async (): Promise<Engine> => {
  if (!existsSync(firefoxPath)) throw new Error(`no Firefox at ${firefoxPath}`)
  const browser = await launch({ browser: 'firefox', executablePath: firefoxPath, headless: true })
  return {
    async open() {
      const context = await browser.createBrowserContext()
      const tab = puppeteerTab(browser, await context.newPage(), '')
      return { ...tab, close: () => context.close() }
    },
    stop: () => browser.close(),
  }
}

const webkit = async (): Promise<Engine> => {
  const missing = webkitMissing()
  if (missing) throw new Error(missing)
  const driver = await startWebKitDriver()
  return {
    async open() {
      // A session of its own per load: MiniBrowser's automation session keeps nothing after it.
      const session = await driver.newSession()
      const tab = webDriverTab(session, await session.windowHandle())
      return { ...tab, close: () => session.stop() }
    },
    stop: () => driver.stop(),
  }
}

/**
 * `runs` cold loads of the floor and of ours in each engine, alternating.
 *
 * @example
 * const results = await benchEngines(5)
 */
export async function benchEngines(runs = 5): Promise<EngineResult[]> {
  const floorBuild = await buildFloor()
  const ours = await serveDist({ '/': OURS })
  const floor = await serveDist({ '/': FLOOR }, floorBuild.dir)
  const results: EngineResult[] = []
  try {
    for (const [name, start] of [
      ['Chromium', chromium],
      ['Firefox', firefox],
      ['WebKit', webkit],
    ] as const) {
      const empty = (): EngineTimings => ({ buttonVisibleMs: [], dialogMs: [] })
      const result: EngineResult = { engine: name, floor: empty(), ours: empty() }
      let engine: Engine | undefined
      try {
        engine = await start()
        for (let run = 0; run < runs; run++) {
          for (const [into, url, tag] of [
            [result.floor, floor.url, 'floor-button'],
            [result.ours, ours.url, 'wallet-button'],
          ] as const) {
            const timings = await once(engine, url, tag)
            into.buttonVisibleMs.push(timings.buttonVisibleMs)
            into.dialogMs.push(timings.dialogMs)
          }
        }
      } catch (error) {
        result.skipped = (error as Error).message
      } finally {
        await engine?.stop()
      }
      results.push(result)
    }
  } finally {
    await Promise.all([ours.close(), floor.close()])
    await floorBuild.remove()
  }
  return results
}

/** Prints {@link benchEngines}' figures: medians, and ours over the floor in the same engine. */
export function printEngines(results: readonly EngineResult[]): void {
  const ms = (values: number[]) => `${median(values).toFixed(0).padStart(5)} ms`
  const ratio = (ours: number[], floor: number[]) => `${(median(ours) / median(floor)).toFixed(2)}×`
  console.log(
    '\nButton visible and click to dialog per engine, next to the React floor (medians of cold loads):',
  )
  console.log(
    `  ${'engine'.padEnd(9)} ${'button: floor'.padStart(14)} ${'ours'.padStart(9)} ${'ratio'.padStart(6)}   ${'dialog: floor'.padStart(14)} ${'ours'.padStart(9)} ${'ratio'.padStart(6)}`,
  )
  for (const result of results) {
    if (result.skipped) {
      console.log(`  ${result.engine.padEnd(9)} skipped (${result.skipped})`)
      continue
    }
    console.log(
      `  ${result.engine.padEnd(9)} ${ms(result.floor.buttonVisibleMs).padStart(14)} ${ms(result.ours.buttonVisibleMs).padStart(9)} ${ratio(result.ours.buttonVisibleMs, result.floor.buttonVisibleMs).padStart(6)}   ${ms(result.floor.dialogMs).padStart(14)} ${ms(result.ours.dialogMs).padStart(9)} ${ratio(result.ours.dialogMs, result.floor.dialogMs).padStart(6)}`,
    )
  }
  const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
  for (const result of results.filter((entry) => !entry.skipped)) {
    console.log(
      `  ${result.engine}: floor button ${list(result.floor.buttonVisibleMs)}; ours ${list(result.ours.buttonVisibleMs)}; floor dialog ${list(result.floor.dialogMs)}; ours ${list(result.ours.dialogMs)}`,
    )
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printEngines(await benchEngines(Number(process.argv[2] ?? 5)))
  process.exit(0)
}
