import { dirname, posix, relative } from 'node:path'
import type { Plugin } from 'vite'

/** Everything `next` leads to from `roots`, the roots included. */
function reachable(
  roots: Iterable<string>,
  next: (node: string) => readonly string[] | undefined,
): Set<string> {
  const seen = new Set<string>()
  const visit = (node: string) => {
    if (seen.has(node)) return
    seen.add(node)
    for (const following of next(node) ?? []) visit(following)
  }
  for (const root of roots) visit(root)
  return seen
}

/** A group of rolldown's code splitting whose modules are known once the module graph is. */
export interface ClosureGroup {
  name: string
  test: (id: string) => boolean
}

/**
 * Chunks made of what some modules import: each group is the static import closure of its `roots`
 * (absolute module ids), without what the entries load (`$initial`) and what an earlier group took.
 * Code that is always fetched together becomes one file: fewer requests, and gzip compresses one
 * file better than several. The plugin computes the closures when the module graph is complete; the
 * groups go to `output.codeSplitting.groups`. A root that is not a module of the build fails it.
 *
 * @example
 * const { plugin, groups } = closureGroups([{ name: 'idle', roots: [here('src/connectors/injected/index.ts')] }])
 */
export function closureGroups(definitions: readonly { name: string; roots: readonly string[] }[]): {
  plugin: Plugin
  groups: ClosureGroup[]
} {
  const members = new Map<string, string>()
  const plugin: Plugin = {
    name: 'wallet-elements:closure-groups',
    buildEnd(error) {
      if (error) return
      const closure = (roots: Iterable<string>) =>
        reachable(roots, (id) => this.getModuleInfo(id)?.importedIds)
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry)
      const initial = closure(entries)
      for (const { name, roots } of definitions) {
        for (const root of roots)
          if (!this.getModuleInfo(root))
            this.error(`closureGroups: ${root} (group ${name}) is not in the build`)
        for (const id of closure(roots)) if (!initial.has(id) && !members.has(id)) members.set(id, name)
      }
    },
  }
  const groups = definitions.map(({ name }) => ({ name, test: (id: string) => members.get(id) === name }))
  return { plugin, groups }
}

/** A call of `chunkFiles('<specifier>')` (src/ui/chunkFiles.ts) with a literal specifier. */
const CALL = /\bchunkFiles\(\s*(['"])([^'"]+)\1\s*\)/g
/** What a call becomes until the chunks are known: a global the minifier keeps as written. */
const PLACEHOLDER = /__wallet_chunk_files__\((\d+)\)/g

/**
 * Writes the chunk graph into the build: each `chunkFiles('./Module.tsx')` call becomes the list of
 * JS files (relative to the calling chunk) that `import('./Module.tsx')` fetches and the entry has
 * not loaded already: the module's chunk and its static imports, recursively. The dialog's idle
 * prefetch (src/ui/modal/prefetch.ts) preloads them in one round, so nothing is listed by hand and
 * the list follows the code. Used by the script-tag build only: a bundler entry's chunks are made
 * again by the app's bundler, and there `chunkFiles` stays a function that returns nothing.
 *
 * A module in no chunk (imported by nobody) fails the build, so a removed module cannot leave a
 * stale list.
 */
export function chunkFilesPlugin(): Plugin {
  const targets: string[] = []
  return {
    name: 'wallet-elements:chunk-files',
    async transform(code, id) {
      // chunkFiles.ts itself shows a call in its documentation.
      if (id.includes('/node_modules/') || id.endsWith('/src/ui/chunkFiles.ts')) return null
      if (!code.includes('chunkFiles(')) return null
      let out = ''
      let last = 0
      for (const match of code.matchAll(CALL)) {
        const specifier = match[2] as string
        const resolved = await this.resolve(specifier, id)
        if (!resolved) this.error(`chunkFiles: cannot resolve ${specifier} from ${id}`)
        targets.push(resolved.id)
        out += `${code.slice(last, match.index)}__wallet_chunk_files__(${targets.length - 1})`
        last = match.index + match[0].length
      }
      return last === 0 ? null : { code: out + code.slice(last), map: null }
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []))
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
      const closure = (files: Iterable<string>) => reachable(files, (file) => byFile.get(file)?.imports)
      // What the page has once the entry ran: the entry chunks and their static imports.
      const loaded = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName))
      const filesOf = (index: number) => {
        const target = targets[index]
        const chunk = chunks.find((candidate) => target && candidate.moduleIds.includes(target))
        if (!chunk) this.error(`chunkFiles: ${target} is in no chunk (nothing imports it)`)
        return [...closure([chunk.fileName])].filter((file) => !loaded.has(file))
      }
      for (const chunk of chunks) {
        if (!chunk.code.includes('__wallet_chunk_files__(')) continue
        chunk.code = chunk.code.replace(PLACEHOLDER, (_call: string, index: string) =>
          JSON.stringify(
            filesOf(Number(index)).map((file) => {
              const path = relative(dirname(chunk.fileName), file).split('\\').join(posix.sep)
              return path.startsWith('.') ? path : `./${path}`
            }),
          ),
        )
      }
    },
  }
}
