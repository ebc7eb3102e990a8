/**
 * AllWallets with 600 wallets, in headless Chromium against the built script tag (dist/) and the
 * companion service on loopback (PGlite in memory, its catalogue filled up to 600 entries through
 * the db layer). Median of 5 runs, each in a fresh browser context:
 * - click on "All wallets" to the first rows painted;
 * - scrolling to the bottom again and again until all 600 are loaded and the last row is painted
 *   (total, and per page of 40);
 * - one search keystroke to its results painted, minus the 300 ms search pause.
 *
 * Run alone: `npx tsx test/bench/wallets.ts` (builds dist/ first when it is missing).
 */
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from 'playwright-core'
import { countWallets } from '../../server/catalogue/getWallets.ts'
import { imageEtag, placeholderLogo } from '../../server/catalogue/imageFiles.ts'
import { loadConfig } from '../../server/config.ts'
import { images, wallets } from '../../server/db/schema.ts'
import { createLogger } from '../../server/logger.ts'
import { startService } from '../../server/main.ts'
import { WALLET_SEARCH_DEBOUNCE_MS, WALLETS_PAGE_SIZE } from '../../src/protocol/constants.ts'
import { launchBrowser, newContext } from '../e2e/harness.ts'

const TOTAL = 600
const PROJECT = 'bench-project'
/** One keystroke; the synthetic names ("Bench Wallet 007", ...) make it match many wallets. */
const KEY = '7'

const page = (apiUrl: string) => `<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
<script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<wallet-modal project-id="${PROJECT}" api-url="${apiUrl}" networks="eip155:1"></wallet-modal>
</body></html>`

/** Serves dist/ and the bench page on 127.0.0.1; the page's api-url is set once the service runs. */
async function serveDist() {
  const root = resolve('dist')
  let apiUrl = ''
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(apiUrl))
      return
    }
    const file = normalize(join(root, path))
    if (!file.startsWith(root)) {
      response.writeHead(403).end()
      return
    }
    try {
      const body = await readFile(file)
      const type = extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream'
      response.writeHead(200, { 'content-type': type }).end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/`,
    setApiUrl: (url: string) => {
      apiUrl = url
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

/** Adds synthetic wallets (with their placeholder logos) until the catalogue has `total` entries. */
async function fillCatalogue(service: Awaited<ReturnType<typeof startService>>, total: number) {
  const { db } = service.app.database
  const have = await countWallets(db)
  const rows = Array.from({ length: Math.max(0, total - have) }, (_, index) => {
    const name = `Bench Wallet ${String(index + 1).padStart(3, '0')}`
    const id = `bench-wallet-${index + 1}`
    return { id, name, logo: placeholderLogo(name, '#3b6fd8'), position: 10_000 + index }
  })
  for (let start = 0; start < rows.length; start += 100) {
    const chunk = rows.slice(start, start + 100)
    await db.insert(wallets).values(
      chunk.map((row) => ({
        id: row.id,
        name: row.name,
        imageId: row.id,
        chains: ['eip155:1'],
        webappLink: `https://${row.id}.example.com`,
        position: row.position,
        source: 'custom' as const,
      })),
    )
    await db.insert(images).values(
      chunk.map((row) => ({
        kind: 'wallet' as const,
        id: row.id,
        contentType: 'image/svg+xml',
        etag: imageEtag(row.logo),
        data: row.logo,
      })),
    )
  }
  return countWallets(db)
}

/** Helpers installed in the page: frame waits and the modal's shadow root. */
const PAGE_HELPERS = `
  window.bench = {
    root: () => document.querySelector('wallet-modal').shadowRoot,
    list: () => document.querySelector('wallet-modal').walletConfig.$walletList.get(),
    frame: () => new Promise((done) => requestAnimationFrame(() => done())),
    // Resolves after the frame in which check() first held has been painted.
    painted: async (check, timeout = 30000) => {
      const end = performance.now() + timeout
      while (!check()) {
        if (performance.now() > end) throw new Error('timed out')
        await window.bench.frame()
      }
      await window.bench.frame()
      return performance.now()
    },
  }
`

type BenchWindow = Window & {
  bench: {
    root(): ShadowRoot
    list(): { entries: { id: string; name: string }[]; status: string; query: string; count: number }
    frame(): Promise<void>
    painted(check: () => boolean, timeout?: number): Promise<number>
  }
  firstRowsMs?: number
  searched?: { ms: number; results: number }
}

async function oneRun(pageUrl: string, browser: Awaited<ReturnType<typeof launchBrowser>>) {
  const context = await newContext(browser)
  try {
    const tab: Page = await context.newPage()
    await tab.addInitScript({ content: PAGE_HELPERS })
    await tab.goto(pageUrl)
    await tab
      .locator('wallet-button')
      .getByRole('button', { name: 'Connect Wallet' })
      .and(tab.locator(':enabled'))
      .click()
    const allWallets = tab.locator('wallet-modal').getByRole('button', { name: /^All wallets/ })
    await allWallets.waitFor()
    // Click to the first rows painted: the page starts watching on the pointer going down.
    await tab.evaluate(() => {
      const win = window as unknown as BenchWindow
      document.addEventListener(
        'pointerdown',
        () => {
          const clickedAt = performance.now()
          void win.bench
            .painted(() => win.bench.root().querySelector('.virtual [data-wallet-id]') !== null)
            .then((at) => {
              win.firstRowsMs = at - clickedAt
            })
        },
        { capture: true, once: true },
      )
    })
    await allWallets.click()
    await tab.waitForFunction(() => (window as unknown as BenchWindow).firstRowsMs !== undefined)
    const firstRowsMs = await tab.evaluate(() => (window as unknown as BenchWindow).firstRowsMs ?? Number.NaN)

    // Scroll to the bottom until every wallet is loaded and the last row is painted.
    const scroll = await tab.evaluate(async (total) => {
      const { bench } = window as unknown as BenchWindow
      await bench.painted(() => bench.list().entries.length > 0 && bench.list().status === 'ready')
      const scroller = bench.root().querySelector('.virtual') as HTMLElement
      const started = performance.now()
      const lastPainted = () => {
        const entries = bench.list().entries
        const last = entries[entries.length - 1]
        return (
          entries.length >= total &&
          last !== undefined &&
          bench.root().querySelector(`[data-wallet-id="${CSS.escape(last.id)}"]`) !== null
        )
      }
      const ended = await bench.painted(() => {
        if (lastPainted()) return true
        scroller.scrollTop = scroller.scrollHeight
        return false
      }, 120_000)
      return { totalMs: ended - started, loaded: bench.list().entries.length }
    }, TOTAL)

    // One keystroke in the search box to its results painted.
    const search = tab.locator('wallet-modal').getByRole('searchbox', { name: 'Search wallets' })
    await search.focus()
    await tab.evaluate((key) => {
      const win = window as unknown as BenchWindow
      document.addEventListener(
        'keydown',
        () => {
          const keyAt = performance.now()
          void win.bench
            .painted(() => {
              const list = win.bench.list()
              const first = list.entries[0]
              return (
                list.query === key &&
                list.status === 'ready' &&
                first !== undefined &&
                win.bench.root().querySelector(`.virtual [data-wallet-id="${CSS.escape(first.id)}"]`) !== null
              )
            })
            .then((at) => {
              win.searched = { ms: at - keyAt, results: win.bench.list().entries.length }
            })
        },
        { capture: true, once: true },
      )
    }, KEY)
    await tab.keyboard.press(KEY)
    await tab.waitForFunction(() => (window as unknown as BenchWindow).searched !== undefined)
    const searched = await tab.evaluate(
      () => (window as unknown as BenchWindow).searched ?? { ms: Number.NaN, results: 0 },
    )
    return { firstRowsMs, scroll, searched }
  } finally {
    await context.close()
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

export interface WalletsBenchResult {
  wallets: number
  runs: number
  /** Click on "All wallets" to the first rows painted, per run and median. */
  firstRowsMs: number[]
  medianFirstRowsMs: number
  /** Scrolling until all wallets are loaded and the last row painted. */
  scrollAllMs: number[]
  medianScrollAllMs: number
  /** The median total divided by the pages loaded while scrolling. */
  msPerPage: number
  /** One search keystroke to its results painted, without the 300 ms pause. */
  searchMs: number[]
  medianSearchMs: number
  searchResults: number
}

/** Runs the AllWallets bench and prints its numbers. */
export async function benchWallets(
  options: { runs?: number; print?: (line: string) => void } = {},
): Promise<WalletsBenchResult> {
  const runs = options.runs ?? 5
  const print = options.print ?? ((line: string) => console.log(line))
  if (!existsSync(resolve('dist/wallet-elements.js')))
    execSync('npm run build:lib --silent', { stdio: 'inherit' })
  const server = await serveDist()
  const logger = createLogger('warn')
  const service = await startService({
    config: {
      // The wallet frame on a free port: 8788 may be another stack's (suites run side by side).
      ...loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'warn', FRAME_PORT: '0' }),
      port: 0,
      databaseUrl: null,
      devProjectId: PROJECT,
      devOrigins: [new URL(server.url).origin],
    },
    logger,
  })
  server.setApiUrl(service.url)
  const browser = await launchBrowser()
  try {
    const count = await fillCatalogue(service, TOTAL)
    if (count !== TOTAL) throw new Error(`the catalogue has ${count} wallets, not ${TOTAL}`)
    const results = []
    for (let run = 0; run < runs; run++) {
      const result = await oneRun(server.url, browser)
      if (result.scroll.loaded !== TOTAL) throw new Error(`loaded ${result.scroll.loaded} of ${TOTAL}`)
      results.push(result)
    }
    const firstRowsMs = results.map((result) => result.firstRowsMs)
    const scrollAllMs = results.map((result) => result.scroll.totalMs)
    const searchMs = results.map((result) => result.searched.ms - WALLET_SEARCH_DEBOUNCE_MS)
    const pagesWhileScrolling = Math.ceil(TOTAL / WALLETS_PAGE_SIZE) - 1
    const result: WalletsBenchResult = {
      wallets: TOTAL,
      runs,
      firstRowsMs,
      medianFirstRowsMs: median(firstRowsMs),
      scrollAllMs,
      medianScrollAllMs: median(scrollAllMs),
      msPerPage: median(scrollAllMs) / pagesWhileScrolling,
      searchMs,
      medianSearchMs: median(searchMs),
      searchResults: results[0]?.searched.results ?? 0,
    }
    const fmt = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
    print(`\nAllWallets with ${TOTAL} wallets in headless Chromium (median of ${runs}):`)
    print(
      `  click "All wallets" to first rows painted  ${result.medianFirstRowsMs.toFixed(0)} ms   (${fmt(firstRowsMs)})`,
    )
    print(
      `  scroll through all ${TOTAL} (${pagesWhileScrolling} more pages)   ${result.medianScrollAllMs.toFixed(0)} ms, ${result.msPerPage.toFixed(0)} ms per page   (${fmt(scrollAllMs)})`,
    )
    print(
      `  search keystroke to results painted       ${result.medianSearchMs.toFixed(0)} ms + ${WALLET_SEARCH_DEBOUNCE_MS} ms pause, ${result.searchResults} results   (${fmt(searchMs)})`,
    )
    return result
  } finally {
    await browser.close()
    await service.stop()
    await server.close()
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchWallets()
  process.exit(0)
}
