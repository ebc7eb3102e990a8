import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * The library build: ES modules for bundlers (`.`, `./core`, `./elements`) and the script-tag
 * entry `dist/wallet-elements.js`, all sharing lazily loaded chunks under `dist/chunks/`.
 * Dependencies are bundled: the elements carry their own React, so a page needs nothing else.
 */
export default defineConfig({
  plugins: [react()],
  define: { 'process.env.NODE_ENV': '"production"' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: {
      entry: {
        index: here('src/index.ts'),
        core: here('src/core/index.ts'),
        elements: here('elements/index.ts'),
        'wallet-elements': here('src/script-tag.ts'),
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      output: {
        minify: true,
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
})
