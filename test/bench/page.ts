/**
 * Browser timings of the script-tag page, in headless Chromium against dist/ served on loopback:
 * navigation to `<wallet-button>` visible, and click to the modal's dialog visible.
 */
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve } from 'node:path'
import { launchBrowser, newContext } from '../e2e/harness.ts'

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.map': 'application/json',
}

/** The smallest integration: one script tag and one element. */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
<script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<script>
  // Records when the button's inner <button> is painted, and how long a click takes to show the dialog.
  const inner = () => document.querySelector('wallet-button')?.shadowRoot?.querySelector('button')
  const dialog = () => document.querySelector('wallet-modal')?.shadowRoot?.querySelector('[role="dialog"] .item, [role="dialog"] .empty')
  const visible = (el) => el && el.getBoundingClientRect().width > 0
  ;(function waitButton() {
    if (visible(inner())) requestAnimationFrame(() => { window.buttonVisibleAt = performance.now() })
    else requestAnimationFrame(waitButton)
  })()
  document.addEventListener('pointerdown', () => {
    const start = performance.now()
    ;(function waitDialog() {
      if (visible(dialog())) requestAnimationFrame(() => { window.modalOpenMs = performance.now() - start })
      else requestAnimationFrame(waitDialog)
    })()
  }, true)
</script></body></html>`

/** Serves dist/ (or `root`) and the bench pages (`/` is the script-tag page) on 127.0.0.1 (`port`, or a free one). */
export async function serveDist(
  pages: Record<string, string> = { '/': PAGE },
  root = resolve('dist'),
  port = 0,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const html = pages[path]
    if (html !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(html)
      return
    }
    const file = normalize(join(root, path))
    if (!file.startsWith(root)) {
      response.writeHead(403).end()
      return
    }
    try {
      const body = await readFile(file)
      response
        .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        .end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done))
  const { port: bound } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${bound}/`, close: () => new Promise((done) => server.close(() => done())) }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export interface PageBenchResult {
  runs: number
  buttonVisibleMs: number[]
  modalOpenMs: number[]
  medianButtonVisibleMs: number
  medianModalOpenMs: number
}

/** Median of `runs` cold loads (a fresh browser context each, so nothing is cached). */
export async function benchPage(runs = 5): Promise<PageBenchResult> {
  const server = await serveDist()
  const browser = await launchBrowser()
  const buttonVisibleMs: number[] = []
  const modalOpenMs: number[] = []
  try {
    for (let run = 0; run < runs; run++) {
      const context = await newContext(browser)
      const page = await context.newPage()
      await page.goto(server.url)
      await page.waitForFunction(() => (window as { buttonVisibleAt?: number }).buttonVisibleAt !== undefined)
      // The button is enabled once the modal it adds has its instance.
      await page
        .locator('wallet-button')
        .getByRole('button', { name: 'Connect Wallet' })
        .and(page.locator(':enabled'))
        .waitFor()
      buttonVisibleMs.push(
        await page.evaluate(() => (window as { buttonVisibleAt?: number }).buttonVisibleAt ?? Number.NaN),
      )
      await page.locator('wallet-button').getByRole('button').click()
      await page.waitForFunction(() => (window as { modalOpenMs?: number }).modalOpenMs !== undefined)
      modalOpenMs.push(
        await page.evaluate(() => (window as { modalOpenMs?: number }).modalOpenMs ?? Number.NaN),
      )
      await context.close()
    }
  } finally {
    await browser.close()
    await server.close()
  }
  return {
    runs,
    buttonVisibleMs,
    modalOpenMs,
    medianButtonVisibleMs: median(buttonVisibleMs),
    medianModalOpenMs: median(modalOpenMs),
  }
}
