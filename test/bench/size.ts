/**
 * `npm run size`: what a script-tag page loads, measured in Chromium from the browser's resource list
 * (test/bench/loaded.ts), checked against the budgets with --check. Run after `npm run build`.
 *
 * 1. First paint: JS whose fetch starts before `<wallet-button>` is painted.
 * 2. Idle: all JS fetched with no interaction until the page is idle (idle prefetch included).
 * 3. Static imports of `dist/wallet-elements.js` (what the import graph alone says; reported).
 * 4. An EVM-only page through connect, Account, Send and Networks: its total, and no Solana or
 *    Bitcoin chunk.
 * 5. The Bitcoin chunks of the script-tag build (`bitcoin-*`), gzip (reported).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchBrowser } from '../e2e/harness.ts'
import {
  EVM_ONLY_NETWORKS,
  type FirstLoad,
  type LoadedJs,
  measureFirstLoad,
  measureLoadedJs,
} from './loaded.ts'

export const BUDGETS = {
  /** JS whose fetch starts before `<wallet-button>` is painted, React included. */
  firstPaintGzip: 90.2 * 1024,
  /** All JS a page with `<wallet-button>` fetches with no interaction until idle. */
  idleGzip: 105.9 * 1024,
  /** An EVM-only page from first paint through connect, Account, Send and Networks. */
  evmSessionGzip: 150.2 * 1024,
}

const DIST = resolve('dist')

export interface FileSize {
  file: string
  raw: number
  gzip: number
}

const sizeOf = (path: string): FileSize => {
  const bytes = readFileSync(path)
  return { file: relative(DIST, path), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.js') ? [path] : []
  })
}

/**
 * The files an entry loads: its static `import`/`export … from` closure, and with `dynamic` also
 * every `import()` target, recursively (what the page can ever load from it).
 */
export function importClosure(entry: string, options: { dynamic?: boolean } = {}): string[] {
  const seen = new Set<string>()
  const patterns = [/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*${}\s,]*?\s*from\s*)?["']([^"']+)["']/g]
  if (options.dynamic) patterns.push(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    for (const pattern of patterns)
      for (const match of code.matchAll(pattern)) {
        const specifier = match[1]
        if (specifier?.startsWith('.')) visit(resolve(dirname(file), specifier))
      }
  }
  visit(resolve(entry))
  return [...seen]
}

const total = (list: readonly { raw?: number; gzip: number }[]) => ({
  raw: list.reduce((sum, file) => sum + (file.raw ?? 0), 0),
  gzip: list.reduce((sum, file) => sum + file.gzip, 0),
})

/** Every entry and chunk in dist/, and the static imports of the script-tag file. */
export function measureSizes() {
  const all = walk(DIST)
    .map(sizeOf)
    .sort((a, b) => b.gzip - a.gzip)
  const staticImports = importClosure(join(DIST, 'wallet-elements.js')).map(sizeOf)
  return { all, allTotal: total(all), staticImports, staticImportsTotal: total(staticImports) }
}

/** The script-tag build's Bitcoin-only chunks (`bitcoin-*`, named so by vite.config.ts). */
export function bitcoinChunks(): FileSize[] {
  return walk(join(DIST, 'wallet-elements'))
    .filter((path) => /(^|\/)bitcoin-[^/]*\.js$/.test(path))
    .map(sizeOf)
    .sort((a, b) => b.gzip - a.gzip)
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const row = (name: string, raw: string, gzip: string) =>
  `  ${name.padEnd(56)} ${raw.padStart(10)} ${gzip.padStart(10)} gzip`

export function printSizes(sizes = measureSizes()): void {
  console.log('\nAll entries and chunks:')
  for (const file of sizes.all) console.log(row(file.file, kb(file.raw), kb(file.gzip)))
  console.log(row('total', kb(sizes.allTotal.raw), kb(sizes.allTotal.gzip)))
}

export interface BrowserSizes {
  firstLoad: FirstLoad
  evmSession: LoadedJs
  staticImportsGzip: number
}

/** The browser-measured figures the budgets are about (one Chromium for all of them). */
export async function measureBrowserSizes(): Promise<BrowserSizes> {
  const browser = await launchBrowser()
  try {
    return {
      firstLoad: await measureFirstLoad({ browser }),
      evmSession: await measureLoadedJs(EVM_ONLY_NETWORKS, browser),
      staticImportsGzip: measureSizes().staticImportsTotal.gzip,
    }
  } finally {
    await browser.close()
  }
}

/** Prints the budget lines (the files behind each with `detail`); returns the budgets exceeded. */
export function reportBudgets(sizes: BrowserSizes, detail = true): string[] {
  const { firstLoad, evmSession } = sizes
  const line = (name: string, gzip: number, budget?: number) =>
    console.log(`  ${name.padEnd(66)} ${kb(gzip).padStart(9)} gzip${budget ? `   budget ${kb(budget)}` : ''}`)
  const files = (list: readonly { file: string; gzip: number }[]) => {
    if (detail)
      for (const file of list) console.log(`      ${file.file.padEnd(60)} ${kb(file.gzip).padStart(9)}`)
  }
  console.log('\nA script-tag page with <wallet-button>, in Chromium, no interaction:')
  line(
    `1. first paint: fetch started before the button painted (${firstLoad.beforePaint.length} files)`,
    firstLoad.beforePaintGzip,
    BUDGETS.firstPaintGzip,
  )
  files(firstLoad.beforePaint)
  line(
    `2. idle: all JS fetched until the page is idle (${firstLoad.idle.length} files)`,
    firstLoad.idleGzip,
    BUDGETS.idleGzip,
  )
  files(firstLoad.idle.filter((file) => !firstLoad.beforePaint.some((early) => early.file === file.file)))
  line('3. static imports of dist/wallet-elements.js (import graph only)', sizes.staticImportsGzip)
  console.log('\nAn EVM-only script-tag page through connect, Account, Send and Networks:')
  line(`4. all JS fetched (${evmSession.files.length} files)`, evmSession.gzip, BUDGETS.evmSessionGzip)
  console.log(`     Solana chunks fetched: ${evmSession.solanaFiles.join(', ') || 'none'}`)
  console.log(`     Bitcoin chunks fetched: ${evmSession.bitcoinFiles.join(', ') || 'none'}`)
  console.log('     (neither page has the embedded wallet: its announcement chunk must not load either)')
  const exceeded: string[] = []
  if (firstLoad.beforePaintGzip > BUDGETS.firstPaintGzip)
    exceeded.push(`first paint ${kb(firstLoad.beforePaintGzip)} > ${kb(BUDGETS.firstPaintGzip)}`)
  if (firstLoad.idleGzip > BUDGETS.idleGzip)
    exceeded.push(`idle ${kb(firstLoad.idleGzip)} > ${kb(BUDGETS.idleGzip)}`)
  if (evmSession.gzip > BUDGETS.evmSessionGzip)
    exceeded.push(`EVM session ${kb(evmSession.gzip)} > ${kb(BUDGETS.evmSessionGzip)}`)
  if (evmSession.solanaFiles.length > 0)
    exceeded.push(`the EVM-only page loaded Solana code: ${evmSession.solanaFiles.join(', ')}`)
  if (evmSession.bitcoinFiles.length > 0)
    exceeded.push(`the EVM-only page loaded Bitcoin code: ${evmSession.bitcoinFiles.join(', ')}`)
  const bitcoin = bitcoinChunks()
  console.log('\nThe Bitcoin chunks of the script-tag build (loaded only with a bip122 network):')
  line(`5. bitcoin-* in dist/wallet-elements/ (${bitcoin.length} files)`, total(bitcoin).gzip)
  files(bitcoin)
  // The site's wallet announcement (core/announce.ts) loads only with the embedded wallet on.
  const announce = [...firstLoad.idle, ...evmSession.files].filter((file) =>
    /(^|\/)announce-/.test(file.file),
  )
  if (announce.length > 0)
    exceeded.push(
      `a page without the embedded wallet loaded the announcement: ${announce.map((f) => f.file).join(', ')}`,
    )
  return exceeded
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const exceeded = reportBudgets(await measureBrowserSizes())
  if (process.argv.includes('--check')) {
    const checks = 6
    for (const problem of exceeded) console.error(`\nBudget exceeded: ${problem}`)
    console.log(`\nsize budgets: ${checks - exceeded.length} passed, ${exceeded.length} failed`)
    if (exceeded.length > 0) process.exit(1)
  }
}
