/**
 * `npm run check:layers`: the project's own import check, so the map in docs/ARCHITECTURE.md stays
 * true. It reads every import of every source file under `src/`, `elements/` and `server/` (static,
 * `import type`, `export … from` and `import()` alike: a type-only or lazy edge ties two files
 * together just as much) and fails, printing each offence as `file -> file  [rule]`, on:
 *
 * - `cycle`: an import cycle anywhere;
 * - `layer`: an import pointing up, or sideways into a layer not named below;
 * - `dev`: production code of the service (`server/` outside `server/dev/`) importing `server/dev/`.
 *
 * Run as a script it checks this checkout and exits 1 on any offence; the test
 * (test/unit/scripts/check-layers.test.ts) runs `checkTree` on small fixture trees.
 *
 * @example
 * ```sh
 * npm run check:layers
 * ```
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/**
 * The layers, top to bottom, each with the paths it owns (a folder or one file, relative to the
 * checkout) and the layers it may import besides itself. The UI's direction is
 * `elements -> ui -> core -> chains/connectors/services -> protocol/errors`; the wallet frame is a
 * page of its own and may use only `protocol`, `errors`, `chains` and the shared catalogue and
 * formatting layer (`src/shared`, where the locale catalogues and formatting move so that the frame
 * stops reaching into `ui/` and `core/`). The service may use the wire formats and errors.
 */
export const LAYERS: readonly Layer[] = [
  // The package's main entry (`wallet-elements`) is the facade above every layer: the public surface
  // names the elements' classes beside the core's functions there. It registers nothing and loads the
  // elements' code only when they are defined; `wallet-elements/core` is the core's own entry.
  {
    name: 'entry',
    paths: ['src/index.ts'],
    mayImport: ['elements', 'ui', 'core', 'chains', 'connectors', 'services', 'shared', 'protocol', 'errors'],
  },
  // `wallet-elements/wagmi`: the wagmi connector, over the core's public entry only.
  { name: 'wagmi', paths: ['src/wagmi'], mayImport: ['core'] },
  {
    name: 'elements',
    paths: ['elements', 'src/script-tag.ts'],
    mayImport: ['ui', 'core', 'chains', 'connectors', 'services', 'shared', 'protocol', 'errors'],
  },
  {
    name: 'ui',
    paths: ['src/ui'],
    mayImport: ['core', 'chains', 'connectors', 'services', 'shared', 'protocol', 'errors'],
  },
  {
    name: 'core',
    paths: ['src/core'],
    mayImport: ['chains', 'connectors', 'services', 'shared', 'protocol', 'errors'],
  },
  {
    name: 'connectors',
    paths: ['src/connectors'],
    mayImport: ['chains', 'services', 'shared', 'protocol', 'errors'],
  },
  { name: 'chains', paths: ['src/chains'], mayImport: ['services', 'shared', 'protocol', 'errors'] },
  { name: 'services', paths: ['src/services'], mayImport: ['shared', 'protocol', 'errors'] },
  { name: 'frame', paths: ['src/frame'], mayImport: ['chains', 'shared', 'protocol', 'errors'] },
  { name: 'shared', paths: ['src/shared'], mayImport: ['protocol', 'errors'] },
  { name: 'protocol', paths: ['src/protocol'], mayImport: ['errors'] },
  { name: 'errors', paths: ['src/errors'], mayImport: ['protocol'] },
  { name: 'server', paths: ['server'], mayImport: ['protocol', 'errors'] },
]

/** One row of {@link LAYERS}. */
export type Layer = {
  readonly name: string
  /** Folders or files, relative to the checkout, with `/` separators. */
  readonly paths: readonly string[]
  readonly mayImport: readonly string[]
}

/** Which rule an offence breaks. */
export type Rule = 'cycle' | 'layer' | 'dev'

/** One offending import: `from` imports `to` (paths relative to the checkout, `/` separators). */
export type Offence = {
  readonly rule: Rule
  readonly from: string
  readonly to: string
  readonly detail: string
}

/** The folders scanned, relative to the checkout. */
export const ROOTS = ['src', 'elements', 'server'] as const

const SOURCE = /\.(?:ts|tsx|mts|js|mjs)$/
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git'])

function toPosix(path: string): string {
  return path.split(sep).join('/')
}

function listSources(root: string, folder: string, out: string[]): void {
  const dir = join(root, folder)
  if (!existsSync(dir)) return
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) listSources(root, relative(root, path), out)
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(toPosix(relative(root, path)))
    }
  }
}

/** Resolves a relative specifier the way the bundler does here (explicit `.ts`, or index files). */
function resolveSpecifier(root: string, fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null
  const bare = specifier.replace(/[?#].*$/, '')
  const base = resolve(root, dirname(fromFile), bare)
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]
  for (const candidate of candidates) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return toPosix(relative(root, candidate))
  }
  // An import of a file that does not exist is the compiler's business; keep the edge for the rules.
  return toPosix(relative(root, base))
}

/** Every relative import of one file (static, type-only, re-export, dynamic), resolved. */
export function importsOf(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8')
  const info = ts.preProcessFile(text, true, true)
  const targets = new Set<string>()
  for (const ref of info.importedFiles) {
    const target = resolveSpecifier(root, file, ref.fileName)
    if (target !== null && target !== file) targets.add(target)
  }
  return [...targets]
}

function within(file: string, path: string): boolean {
  return file === path || file.startsWith(`${path}/`)
}

/** The layer owning a file: the most specific path wins (`src/index.ts` before `src`). */
export function layerOf(file: string, layers: readonly Layer[] = LAYERS): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined
  for (const layer of layers) {
    for (const path of layer.paths) {
      if (within(file, path) && (best === undefined || path.length > best.length)) {
        best = { layer, length: path.length }
      }
    }
  }
  return best?.layer
}

/** Strongly connected components of size > 1 (Tarjan), each as one cycle through all its files' first loop. */
function findCycles(graph: Map<string, string[]>): string[][] {
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  const strongConnect = (node: string): void => {
    indices.set(node, index)
    low.set(node, index)
    index += 1
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!indices.has(next)) {
        strongConnect(next)
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, indices.get(next) as number))
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = []
      let member: string | undefined
      do {
        member = stack.pop() as string
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) components.push(component.sort())
    }
  }
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) strongConnect(node)
  return components
}

/** The shortest loop from a component's first file back to itself, inside the component. */
function loopIn(component: string[], graph: Map<string, string[]>): string[] {
  const members = new Set(component)
  const start = component[0] as string
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift() as string
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue
      if (next === start) {
        const path = [node]
        let step = node
        while (step !== start) {
          step = previous.get(step) as string
          path.unshift(step)
        }
        return [...path, start]
      }
      if (!previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  return [start, start]
}

/**
 * Checks one checkout (or a fixture tree laid out like one) and returns every offence, sorted by
 * rule. A cycle is reported once per strongly connected group of files: the edges of its shortest
 * loop, with the group's size in `detail`.
 */
export function checkTree(root: string, layers: readonly Layer[] = LAYERS): Offence[] {
  const files: string[] = []
  for (const folder of ROOTS) listSources(root, folder, files)
  files.sort()
  const graph = new Map<string, string[]>()
  for (const file of files) graph.set(file, importsOf(root, file))

  const offences: Offence[] = []
  for (const component of findCycles(graph)) {
    const loop = loopIn(component, graph)
    const detail = `cycle of ${component.length} files: ${loop.join(' -> ')}`
    for (let i = 0; i + 1 < loop.length; i += 1) {
      offences.push({ rule: 'cycle', from: loop[i] as string, to: loop[i + 1] as string, detail })
    }
  }
  for (const [from, targets] of graph) {
    const fromLayer = layerOf(from, layers)
    for (const to of targets) {
      if (within(from, 'server') && !within(from, 'server/dev') && within(to, 'server/dev')) {
        offences.push({ rule: 'dev', from, to, detail: 'production code of the service imports server/dev/' })
      }
      const toLayer = layerOf(to, layers)
      if (fromLayer === undefined || toLayer === undefined || fromLayer === toLayer) continue
      if (!fromLayer.mayImport.includes(toLayer.name)) {
        offences.push({
          rule: 'layer',
          from,
          to,
          detail: `${fromLayer.name} may not import ${toLayer.name} (may import: ${fromLayer.mayImport.join(', ') || 'nothing'})`,
        })
      }
    }
  }
  const order: Rule[] = ['cycle', 'layer', 'dev']
  return offences.sort((a, b) => order.indexOf(a.rule) - order.indexOf(b.rule))
}

/** One line per offence, then a count per rule. */
export function report(offences: readonly Offence[]): string {
  const lines: string[] = []
  let lastDetail = ''
  for (const offence of offences) {
    if (offence.rule === 'cycle') {
      if (offence.detail !== lastDetail) lines.push(`[cycle] ${offence.detail}`)
      lastDetail = offence.detail
      lines.push(`  ${offence.from} -> ${offence.to}  [cycle]`)
    } else {
      lines.push(`${offence.from} -> ${offence.to}  [${offence.rule}] ${offence.detail}`)
    }
  }
  const cycles = new Set(offences.filter((o) => o.rule === 'cycle').map((o) => o.detail)).size
  const layer = offences.filter((o) => o.rule === 'layer').length
  const dev = offences.filter((o) => o.rule === 'dev').length
  lines.push(`check:layers: ${cycles} cycle(s), ${layer} layer offence(s), ${dev} server/dev import(s)`)
  return lines.join('\n')
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
  const offences = checkTree(root)
  const text = report(offences)
  if (offences.length > 0) {
    console.error(text)
    process.exit(1)
  }
  console.log(text)
}
