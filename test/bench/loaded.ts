/**
 * Which JS a script-tag page loads, read from the browser's own resource list (Chromium, dist/
 * served on loopback), never from the import graph:
 * - `measureFirstLoad`: the page with one `<wallet-button>` and no interaction, split into the JS
 *   whose fetch started before the button was painted and all JS fetched until the page is idle;
 * - `measureLoadedJs`: a whole EVM session (first paint, open, connect a browser wallet, Account,
 *   Send, Networks), so the budget check proves an EVM-only page never fetches a `solana-*` or
 *   `bitcoin-*` chunk.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { Browser, Page, Request } from 'playwright-core'
import { launchBrowser, newContext } from '../e2e/harness.ts'
import { serveDist } from './page.ts'

export interface LoadedFile {
  /** Path under dist/. */
  file: string
  /** Its size gzipped at level 9, as a server would send it. */
  gzip: number
}

const sum = (files: readonly LoadedFile[]) => files.reduce((total, file) => total + file.gzip, 0)

/** The dist/ files behind the page's script URLs, each once, with their gzip size. */
function distFiles(urls: readonly string[]): LoadedFile[] {
  const dist = resolve('dist')
  return [...new Set(urls.map((url) => new URL(url).pathname.slice(1)))].map((file) => ({
    file,
    gzip: gzipSync(readFileSync(join(dist, file)), { level: 9 }).length,
  }))
}

/** How long the network must stay quiet, after the load event and an idle callback, to call the page idle. */
const QUIET_MS = 2_000

/**
 * Resolves once no request has been in flight for `QUIET_MS` (each request restarts the wait).
 * Requests already in flight when it is called are not waited for.
 */
export function networkQuiet(page: Page): Promise<void> {
  return new Promise((settle) => {
    const inFlight = new Set<Request>()
    let timer: NodeJS.Timeout | undefined
    const arm = () => {
      clearTimeout(timer)
      if (inFlight.size === 0) timer = setTimeout(settle, QUIET_MS)
    }
    page.on('request', (request) => {
      inFlight.add(request)
      clearTimeout(timer)
    })
    const finished = (request: Request) => {
      if (inFlight.delete(request)) arm()
    }
    page.on('requestfinished', finished)
    page.on('requestfailed', finished)
    arm()
  })
}

export interface FirstLoad {
  /** JS whose fetch started before `<wallet-button>` was painted (the first paint). */
  beforePaint: LoadedFile[]
  beforePaintGzip: number
  /** All JS fetched with no interaction until the page was idle (idle prefetch included). */
  idle: LoadedFile[]
  idleGzip: number
}

/**
 * The script-tag page with one `<wallet-button>` (test/bench/page.ts), loaded `runs` times in fresh
 * contexts with no interaction. Which lazy fetches start before the paint depends on timing, so each
 * figure is the largest of the runs: the budget holds for the slowest and the fastest load alike.
 *
 * @example
 * const { beforePaintGzip, idleGzip } = await measureFirstLoad()
 */
export async function measureFirstLoad(
  options: { runs?: number; browser?: Browser } = {},
): Promise<FirstLoad> {
  const server = await serveDist()
  const browser = options.browser ?? (await launchBrowser())
  let worst: FirstLoad | undefined
  try {
    for (let run = 0; run < (options.runs ?? 3); run++) {
      const context = await newContext(browser)
      const page = await context.newPage()
      const quiet = networkQuiet(page)
      await page.goto(server.url, { waitUntil: 'load' })
      await page.waitForFunction(() => (window as { buttonVisibleAt?: number }).buttonVisibleAt !== undefined)
      await page.evaluate(() => new Promise((idle) => requestIdleCallback(idle)))
      await quiet
      const { paintedAt, scripts } = await page.evaluate(() => ({
        paintedAt: (window as { buttonVisibleAt?: number }).buttonVisibleAt ?? Number.POSITIVE_INFINITY,
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
          .map((entry) => ({ url: entry.name, startTime: entry.startTime })),
      }))
      await context.close()
      const beforePaint = distFiles(
        scripts.filter((script) => script.startTime < paintedAt).map((s) => s.url),
      )
      const idle = distFiles(scripts.map((script) => script.url))
      const load = { beforePaint, beforePaintGzip: sum(beforePaint), idle, idleGzip: sum(idle) }
      worst = !worst
        ? load
        : {
            ...(load.beforePaintGzip > worst.beforePaintGzip
              ? pick(load, 'beforePaint')
              : pick(worst, 'beforePaint')),
            ...(load.idleGzip > worst.idleGzip ? pick(load, 'idle') : pick(worst, 'idle')),
          }
    }
  } finally {
    if (!options.browser) await browser.close()
    await server.close()
  }
  if (!worst) throw new Error('measureFirstLoad: runs must be at least 1')
  return worst
}

const pick = <K extends 'beforePaint' | 'idle'>(load: FirstLoad, key: K) =>
  ({ [key]: load[key], [`${key}Gzip`]: load[`${key}Gzip`] }) as Pick<FirstLoad, K | `${K}Gzip`>

/**
 * A tiny EIP-6963 wallet in the page (the size check needs a connected account, not a real chain):
 * one account on chain 31337, approving everything. The first-open bench shows it too.
 */
export const WALLET = `<script>
  const provider = {
    request: async ({ method }) => ({
      eth_requestAccounts: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      eth_accounts: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'],
      eth_chainId: '0x7a69',
    })[method] ?? null,
    on() {}, removeListener() {},
  }
  const detail = Object.freeze({ info: { uuid: '1', name: 'Bench Wallet', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', rdns: 'dev.bench' }, provider })
  const announce = () => dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  addEventListener('eip6963:requestProvider', announce)
  announce()
</script>`

const page = (networks: string) => `<!doctype html><html><head><meta charset="utf-8"><title>size</title>
${WALLET}<script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button><wallet-modal networks="${networks}"></wallet-modal></body></html>`

export const EVM_ONLY_NETWORKS = 'eip155:31337,eip155:1'
export const WITH_SOLANA_NETWORKS = 'eip155:31337,eip155:1,solana:45HEQDFcNoxGz8mrpTbTT37jixbR5dy9'

export interface LoadedJs {
  files: LoadedFile[]
  gzip: number
  solanaFiles: string[]
  bitcoinFiles: string[]
}

/** Loads the page, connects the in-page wallet and walks Account, Send and Networks. */
export async function measureLoadedJs(networks: string, shared?: Browser): Promise<LoadedJs> {
  const server = await serveDist({ '/size.html': page(networks) })
  const browser = shared ?? (await launchBrowser())
  try {
    const context = await newContext(browser)
    const tab = await context.newPage()
    await tab.goto(`${server.url}size.html`)
    const button = tab.locator('wallet-button').getByRole('button')
    await button.and(tab.locator(':enabled')).waitFor()
    await button.click()
    const dialog = tab.getByRole('dialog')
    await dialog.getByRole('button', { name: /Bench Wallet/ }).click()
    await dialog.waitFor({ state: 'detached' })
    await button.click()
    await dialog.getByRole('button', { name: 'Send' }).click()
    await dialog.getByLabel('Receiver address').waitFor()
    await dialog.getByRole('button', { name: 'Back' }).click()
    await dialog
      .getByRole('button', { name: /Network/ })
      .first()
      .click()
    await dialog.locator('[data-network-id]').first().waitFor()
    await tab.waitForTimeout(300)
    const urls = await tab.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .concat([...document.scripts].map((script) => script.src))
        .filter((url) => url.endsWith('.js')),
    )
    await context.close()
    const files = distFiles(urls)
    return {
      files,
      gzip: sum(files),
      solanaFiles: files.map((f) => f.file).filter((file) => /(^|\/)solana-/.test(file)),
      bitcoinFiles: files.map((f) => f.file).filter((file) => /(^|\/)bitcoin-/.test(file)),
    }
  } finally {
    if (!shared) await browser.close()
    await server.close()
  }
}
