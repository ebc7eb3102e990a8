/**
 * Builds what the test suites need, once: `npm test` runs this first (its pretest), so a fresh clone
 * needs nothing but `npm ci`. The service's suites serve the built wallet frame (dist-frame/), the
 * size and package suites read the library build (dist/), and the demo build (dist-demo/) is checked
 * by its own tests. A build is skipped when every output exists and the sources it is made from are
 * byte for byte the ones the last build was made from (a digest kept in dist/); any edit rebuilds.
 *
 * `--check` answers without building: exit 0 when up to date, 1 (with the reason) when not.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Where the build reads from: folders walked whole, and single files. */
const INPUTS = [
  'src',
  'elements',
  'frameworks',
  'demo',
  // The demo's Solana wallet takes its dev keys from here.
  'server/dev/solana',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'vite.config.ts',
  'vite.demo.config.ts',
  'vite.frame.config.ts',
  'vite.script-tag.config.ts',
  'scripts/chunkGraph.ts',
  'scripts/cssStrings.ts',
  'scripts/licenses.ts',
  'scripts/sriPlugin.ts',
]

/** What `npm run build` makes that a suite reads; one missing file means the build is not there. */
export const BUILD_OUTPUTS = [
  'dist/wallet-elements.js',
  'dist/index.js',
  'dist/wagmi.js',
  'dist/types/src/index.d.ts',
  'dist/THIRD-PARTY-NOTICES.txt',
  'dist-demo/index.html',
  'dist-frame/index.html',
  'dist-frame/integrity.json',
]

const STAMP = 'dist/.sources-sha256'

function files(entry: string): string[] {
  const full = path.join(root, entry)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [entry]
  return readdirSync(full, { withFileTypes: true })
    .filter((child) => child.name !== 'node_modules')
    .flatMap((child) => files(path.join(entry, child.name)))
}

/** A digest of every input file's path and bytes, in a stable order. */
export function sourcesDigest(): string {
  const hash = createHash('sha256')
  for (const file of INPUTS.flatMap(files).sort()) {
    hash.update(`${file}\0`)
    hash.update(readFileSync(path.join(root, file)))
    hash.update('\0')
  }
  return hash.digest('hex')
}

/** Why a build is needed, or undefined when the last one is current. */
export function staleReason(digest = sourcesDigest()): string | undefined {
  const missing = BUILD_OUTPUTS.find((output) => !existsSync(path.join(root, output)))
  if (missing) return `${missing} is missing`
  const stamp = existsSync(path.join(root, STAMP)) ? readFileSync(path.join(root, STAMP), 'utf8').trim() : ''
  if (stamp !== digest) return 'the sources changed since the last build'
  return undefined
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const digest = sourcesDigest()
  const reason = staleReason(digest)
  if (!reason) {
    console.log('Build: up to date (dist, dist-demo, dist-frame)')
    process.exit(0)
  }
  if (process.argv.includes('--check')) {
    console.log(`Build: needed, ${reason}`)
    process.exit(1)
  }
  console.log(`Build: ${reason}; running npm run build`)
  const started = Date.now()
  // The build lists every chunk; its output is shown only when it fails.
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 })
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '')
    process.stderr.write(result.stderr ?? '')
    console.error(`npm run build failed (exit ${result.status ?? result.signal})`)
    process.exit(result.status ?? 1)
  }
  writeFileSync(path.join(root, STAMP), `${digest}\n`)
  console.log(`Build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
