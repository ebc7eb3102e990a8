// Pins the frame build: SRI on every script and stylesheet, an import map with every chunk's integrity.
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { Plugin } from 'vite'
import { sriOf } from '../src/protocol/embedded/frameIntegrity.ts'

/** What `integrity.json` holds: each page's SRI hash, and `frame`, the one a site pins (index.html's). */
export interface FrameIntegrity {
  frame: string
  pages: Record<string, string>
}

/** The file name `integrity.json` is written to, beside the pages. */
export const INTEGRITY_FILE = 'integrity.json'

/** The parts of rolldown's output this plugin reads (a chunk's imports; an asset has none). */
type BundleItem = { fileName: string; type: 'chunk' | 'asset'; imports?: string[]; dynamicImports?: string[] }

/** The built file a tag's `src`/`href` names (`/assets/x.js` with base `/`), or undefined. */
const fileOf = (url: string, base: string) => (url.startsWith(base) ? url.slice(base.length) : undefined)

/** Every chunk reachable from `entries` through static and dynamic imports (the page's code). */
function reachable(entries: readonly string[], items: ReadonlyMap<string, BundleItem>): string[] {
  const seen = new Set<string>()
  const visit = (fileName: string) => {
    const item = items.get(fileName)
    if (item?.type !== 'chunk' || seen.has(fileName)) return
    seen.add(fileName)
    for (const next of [...(item.imports ?? []), ...(item.dynamicImports ?? [])]) visit(next)
  }
  for (const entry of entries) visit(entry)
  return [...seen].sort()
}

/**
 * After the build is written, every HTML page gets `integrity="sha384-…"` (and `crossorigin`) on each
 * `<script src>` and `<link rel="stylesheet|modulepreload">`, and an import map whose `integrity`
 * names every chunk the page's code may import, statically or with `import()` (SRI on the tag pins
 * only that file; the import map pins what it imports). Then `integrity.json`: each page's own hash,
 * and `frame`, index.html's, which through these pins all the code the frame page runs. A tag naming
 * anything outside the build (another origin's code) fails the build. Hashes are of the bytes on disk.
 *
 * @example
 * plugins: [subresourceIntegrityPlugin()]
 */
export function subresourceIntegrityPlugin(): Plugin {
  let base = '/'
  return {
    name: 'wallet-elements:sri',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base
    },
    async writeBundle(options, bundle) {
      const dir = options.dir ?? path.dirname(options.file ?? '')
      const items = new Map(Object.values(bundle).map((item) => [item.fileName, item as BundleItem]))
      const hashes = new Map<string, string>()
      const hashOf = async (fileName: string) => {
        let hash = hashes.get(fileName)
        if (!hash) {
          hash = await sriOf(new Uint8Array(await readFile(path.join(dir, fileName))))
          hashes.set(fileName, hash)
        }
        return hash
      }
      const pages: Record<string, string> = {}
      for (const page of [...items.keys()].filter((name) => name.endsWith('.html')).sort()) {
        const html = await readFile(path.join(dir, page), 'utf8')
        const tags = [...html.matchAll(/<(script|link)\b[^>]*>/g)].map(([tag]) => tag)
        const named = tags
          .map((tag) => ({ tag, url: /\s(?:src|href)="([^"]+)"/.exec(tag)?.[1] }))
          .filter((entry): entry is { tag: string; url: string } => entry.url !== undefined)
        let out = html
        for (const { tag, url } of named) {
          const fileName = fileOf(url, base)
          if (fileName === undefined || !items.has(fileName))
            throw new Error(`${page}: ${url} is not part of the frame's build, so it cannot be pinned`)
          const attributes = [
            ...(/\scrossorigin\b/.test(tag) ? [] : ['crossorigin']),
            `integrity="${await hashOf(fileName)}"`,
          ]
          out = out.replace(tag, tag.replace(/\s*\/?>$/, ` ${attributes.join(' ')}>`))
        }
        const entries = named.map(({ url }) => fileOf(url, base) ?? '')
        const integrity: Record<string, string> = {}
        for (const chunk of reachable(entries, items)) integrity[`${base}${chunk}`] = await hashOf(chunk)
        if (Object.keys(integrity).length > 0) {
          const map = `<script type="importmap">${JSON.stringify({ integrity })}</script>`
          const first = /<(script|link)\b/.exec(out)?.index ?? out.indexOf('</head>')
          out = `${out.slice(0, first)}${map}\n    ${out.slice(first)}`
        }
        await writeFile(path.join(dir, page), out)
        pages[page] = await sriOf(new TextEncoder().encode(out))
      }
      const frame = pages['index.html']
      if (!frame) throw new Error('The frame build has no index.html')
      const record: FrameIntegrity = { frame, pages }
      await writeFile(path.join(dir, INTEGRITY_FILE), `${JSON.stringify(record, null, 2)}\n`)
    },
  }
}
