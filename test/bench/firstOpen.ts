/**
 * Click to dialog, side by side with the floor, in one Chromium run: our script-tag page
 * (`<wallet-button>`, an in-page EIP-6963 wallet) against `<floor-button>` (test/bench/floor/floor.tsx,
 * React 19 + r2wc, the same dialog DOM and styles rendered in the click's own render), built here by
 * Vite. Cold contexts, alternating floor and ours; each page is left until idle (its idle prefetch
 * done) before the click. Timings are reported as medians and a ratio, never judged.
 *
 * From `pointerdown` (capture, on the document): "in the DOM" when a MutationObserver on the element's
 * shadow root first sees the dialog's first row, "painted" when the frame that first holds it has
 * been rendered (the task after that frame's requestAnimationFrame).
 *
 * @example
 * const result = await benchFirstOpen(7)
 * console.log(result.ratio)
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import type { Browser } from 'playwright-core'
import { build } from 'vite'
import { launchBrowser, newContext } from '../e2e/harness.ts'
import { networkQuiet, WALLET } from './loaded.ts'
import { serveDist } from './page.ts'

/** Builds the floor element into a temporary folder (`floor.js`, React inside, minified). */
export async function buildFloor(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wallet-elements-floor-'))
  await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: dir,
      emptyOutDir: true,
      target: 'es2022',
      lib: {
        entry: fileURLToPath(new URL('floor/floor.tsx', import.meta.url)),
        formats: ['es'],
        fileName: () => 'floor.js',
      },
      rolldownOptions: { output: { minify: true } },
    },
  })
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/**
 * Records, from the first `pointerdown`, when the dialog's first row (`.item`, or `.empty` without
 * wallets) is in `host`'s shadow root and when it has been painted, in `window.firstOpen`.
 */
export const measure = (host: string) => `<script>
  document.addEventListener('pointerdown', () => {
    const start = performance.now()
    const root = document.querySelector('${host}').shadowRoot
    const row = () => root.querySelector('[role="dialog"] :is(.item, .empty)')
    const painted = (inDomMs) => requestAnimationFrame(() => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => { window.firstOpen = { inDomMs, paintedMs: performance.now() - start } }
      channel.port2.postMessage(null)
    })
    if (row()) return painted(0)
    const observer = new MutationObserver(() => {
      if (!row()) return
      observer.disconnect()
      painted(performance.now() - start)
    })
    observer.observe(root, { childList: true, subtree: true })
  }, { capture: true, once: true })
</script>`

export const page = (script: string, body: string, host: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>first open</title>
${WALLET}<script type="module" src="${script}"></script></head>
<body>${body}${measure(host)}</body></html>`

/** Our page: the bench page of test/bench/page.ts with the in-page wallet (its modal is added by the button). */
export const OURS_PAGE = page('/wallet-elements.js', '<wallet-button></wallet-button>', 'wallet-modal')
const FLOOR_PAGE = page('/floor.js', '<floor-button></floor-button>', 'floor-button')

export interface OpenTimings {
  /** Click to the dialog's first row in the DOM, per run. */
  inDomMs: number[]
  /** Click to that row painted, per run. */
  paintedMs: number[]
  /** JS files requested from the click to the paint, per run. */
  jsAfterClick: number[]
}

export interface FirstOpenResult {
  runs: number
  floor: OpenTimings
  ours: OpenTimings
  medianFloorMs: number
  medianOursMs: number
  /** Median painted, ours over the floor. */
  ratio: number
  maxOursMs: number
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** One cold load of `url`, left until idle, then a click on `tag`'s button; the timings of that click. */
async function openOnce(browser: Browser, url: string, tag: string) {
  const context = await newContext(browser)
  try {
    const tab = await context.newPage()
    const quiet = networkQuiet(tab)
    await tab.goto(url, { waitUntil: 'load' })
    const button = tab.locator(tag).getByRole('button', { name: 'Connect Wallet' })
    await button.and(tab.locator(':enabled')).waitFor()
    await tab.evaluate(() => new Promise((idle) => requestIdleCallback(idle)))
    await quiet
    let jsAfterClick = 0
    tab.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.js')) jsAfterClick++
    })
    await button.click()
    const handle = await tab.waitForFunction(() => (window as { firstOpen?: unknown }).firstOpen)
    const { inDomMs, paintedMs } = (await handle.jsonValue()) as { inDomMs: number; paintedMs: number }
    return { inDomMs, paintedMs, jsAfterClick }
  } finally {
    await context.close()
  }
}

/**
 * `runs` first opens of each page in one browser, alternating floor and ours.
 *
 * @example
 * const { medianOursMs, medianFloorMs, ratio, maxOursMs } = await benchFirstOpen(7)
 */
export async function benchFirstOpen(runs = 7): Promise<FirstOpenResult> {
  const floorBuild = await buildFloor()
  const ours = await serveDist({ '/': OURS_PAGE })
  const floor = await serveDist({ '/': FLOOR_PAGE }, floorBuild.dir)
  const browser = await launchBrowser()
  const empty = (): OpenTimings => ({ inDomMs: [], paintedMs: [], jsAfterClick: [] })
  const result = { floor: empty(), ours: empty() }
  const record = (into: OpenTimings, run: Awaited<ReturnType<typeof openOnce>>) => {
    into.inDomMs.push(run.inDomMs)
    into.paintedMs.push(run.paintedMs)
    into.jsAfterClick.push(run.jsAfterClick)
  }
  try {
    for (let run = 0; run < runs; run++) {
      record(result.floor, await openOnce(browser, floor.url, 'floor-button'))
      record(result.ours, await openOnce(browser, ours.url, 'wallet-button'))
    }
  } finally {
    await browser.close()
    await Promise.all([ours.close(), floor.close()])
    await floorBuild.remove()
  }
  const medianFloorMs = median(result.floor.paintedMs)
  const medianOursMs = median(result.ours.paintedMs)
  return {
    runs,
    ...result,
    medianFloorMs,
    medianOursMs,
    ratio: medianOursMs / medianFloorMs,
    maxOursMs: Math.max(...result.ours.paintedMs),
  }
}

/** Prints the figures of {@link benchFirstOpen}. */
export function printFirstOpen(result: FirstOpenResult): void {
  const list = (values: number[]) => values.map((value) => value.toFixed(1)).join(', ')
  const line = (name: string, timings: OpenTimings) => {
    console.log(
      `  ${name.padEnd(22)} painted ${median(timings.paintedMs).toFixed(1).padStart(6)} ms (${list(timings.paintedMs)})`,
    )
    console.log(
      `  ${''.padEnd(22)} in DOM  ${median(timings.inDomMs).toFixed(1).padStart(6)} ms (${list(timings.inDomMs)}); JS fetched after the click: ${timings.jsAfterClick.join(', ')}`,
    )
  }
  console.log(`\nClick to dialog, side by side (median of ${result.runs} cold loads each, left until idle):`)
  line('React + r2wc floor', result.floor)
  line('<wallet-button>', result.ours)
  console.log(
    `  ratio ${result.ratio.toFixed(2)}× the floor (painted, medians); slowest click of ours ${result.maxOursMs.toFixed(1)} ms`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printFirstOpen(await benchFirstOpen(Number(process.argv[2] ?? 7)))
}
