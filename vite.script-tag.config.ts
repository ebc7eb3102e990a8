import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { chunkFilesPlugin, closureGroups } from './scripts/chunkGraph.ts'
import { libraryConfig } from './vite.config.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * One chunk of what a page with `<wallet-modal>` fetches once idle: wallet discovery and the
 * dialog's prefetch, with the errors and helpers they import (a single file compresses better than
 * the seven it was). The dialog's own chunks are left to rolldown: grouping them would pull in the
 * core actions they share with the connection code (rolldown groups take their dependencies), so
 * restoring a connection at load would fetch the dialog.
 */
const { plugin: groupsPlugin, groups } = closureGroups([
  { name: 'idle', roots: [here('src/connectors/injected/index.ts'), here('src/ui/modal/prefetch.ts')] },
])

/**
 * The script-tag file `dist/wallet-elements.js`: one `<script type="module">` and a page needs
 * nothing else, so it carries its own React. Its lazily loaded chunks sit beside it in
 * `dist/wallet-elements/`. Runs after `vite.config.ts`, into the same `dist/`.
 */
export default defineConfig(
  libraryConfig({
    entry: { 'wallet-elements': here('src/script-tag.ts') },
    chunkDir: 'wallet-elements',
    emptyOutDir: false,
    oneInitialChunk: true,
    final: true,
    // The dialog's idle prefetch needs to know its chunks (src/ui/chunkFiles.ts).
    plugins: [chunkFilesPlugin(), groupsPlugin],
    groups,
  }),
)
