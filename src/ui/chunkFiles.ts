/**
 * The JS files, relative to the calling module's chunk, that `import(specifier)` fetches and the
 * page has not loaded with its entry: the target's chunk and its static imports, recursively. The
 * script-tag build writes the list in place of each call (scripts/chunkFilesPlugin.ts; `specifier`
 * must be a string literal); elsewhere (the bundler entries, whose chunks the app's bundler makes
 * again, and the dev server) there is no such list and this returns none.
 *
 * @example
 * const files = chunkFiles('./ModalShell.tsx') // ['./ModalShell-C1x2.js', './viewContext-D3y4.js', …]
 */
export function chunkFiles(_specifier: string): readonly string[] {
  return []
}
