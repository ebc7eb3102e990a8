/**
 * Bundle sizes of dist/: every entry and chunk (raw and gzip), and the JS a page that shows
 * `<wallet-button>` loads before the first click (the script-tag entry and its static imports).
 * With --check, fails when a budget is exceeded. Run after `npm run build`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

export const BUDGETS = {
  /** JS before the first click on a page with only `<wallet-button>`, React included. */
  firstPaintGzip: 90 * 1024,
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

/** Files loaded eagerly from an entry: static `import`/`export … from`, never `import()`. */
export function staticClosure(entry: string): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const code = readFileSync(file, 'utf8')
    const pattern = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*${}\s,]*?\s*from\s*)?["']([^"']+)["']/g
    for (const match of code.matchAll(pattern)) {
      const specifier = match[1]
      if (specifier?.startsWith('.')) visit(resolve(dirname(file), specifier))
    }
  }
  visit(resolve(entry))
  return [...seen]
}

export function measureSizes() {
  const all = walk(DIST)
    .map(sizeOf)
    .sort((a, b) => b.gzip - a.gzip)
  const firstPaint = staticClosure(join(DIST, 'wallet-elements.js')).map(sizeOf)
  const total = (list: FileSize[]) => ({
    raw: list.reduce((sum, file) => sum + file.raw, 0),
    gzip: list.reduce((sum, file) => sum + file.gzip, 0),
  })
  return { all, allTotal: total(all), firstPaint, firstPaintTotal: total(firstPaint) }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export function printSizes(sizes = measureSizes()): void {
  console.log('\nJS loaded before the first click (script-tag page with <wallet-button>):')
  for (const file of sizes.firstPaint)
    console.log(`  ${file.file.padEnd(48)} ${kb(file.raw).padStart(10)} ${kb(file.gzip).padStart(10)} gzip`)
  console.log(
    `  ${'total'.padEnd(48)} ${kb(sizes.firstPaintTotal.raw).padStart(10)} ${kb(sizes.firstPaintTotal.gzip).padStart(10)} gzip (budget ${kb(BUDGETS.firstPaintGzip)})`,
  )
  console.log('\nAll entries and chunks:')
  for (const file of sizes.all)
    console.log(`  ${file.file.padEnd(48)} ${kb(file.raw).padStart(10)} ${kb(file.gzip).padStart(10)} gzip`)
  console.log(
    `  ${'total'.padEnd(48)} ${kb(sizes.allTotal.raw).padStart(10)} ${kb(sizes.allTotal.gzip).padStart(10)} gzip`,
  )
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = measureSizes()
  printSizes(sizes)
  if (process.argv.includes('--check')) {
    if (sizes.firstPaintTotal.gzip > BUDGETS.firstPaintGzip) {
      console.error(
        `\nBudget exceeded: first paint ${kb(sizes.firstPaintTotal.gzip)} > ${kb(BUDGETS.firstPaintGzip)}`,
      )
      process.exit(1)
    }
    const { measureLoadedJs, EVM_ONLY_NETWORKS } = await import('./loaded.ts')
    const evm = await measureLoadedJs(EVM_ONLY_NETWORKS)
    console.log(
      `\nEVM-only script-tag page, first paint through connect, Account, Send and Networks: ${evm.files.length} files, ${kb(evm.gzip)} gzip`,
    )
    if (evm.solanaFiles.length > 0) {
      console.error(`\nBudget exceeded: the EVM-only page loaded Solana code: ${evm.solanaFiles.join(', ')}`)
      process.exit(1)
    }
    console.log('  Solana chunks loaded: none')
    console.log('\nsize budgets: 2 passed, 0 failed')
  }
}
