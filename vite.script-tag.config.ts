import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { libraryConfig } from './vite.config.ts'

/**
 * The script-tag file `dist/wallet-elements.js`: one `<script type="module">` and a page needs
 * nothing else, so it carries its own React. Its lazily loaded chunks sit beside it in
 * `dist/wallet-elements/`. Runs after `vite.config.ts`, into the same `dist/`.
 */
export default defineConfig(
  libraryConfig({
    entry: { 'wallet-elements': fileURLToPath(new URL('src/script-tag.ts', import.meta.url)) },
    chunkDir: 'wallet-elements',
    emptyOutDir: false,
    oneInitialChunk: true,
    final: true,
  }),
)
