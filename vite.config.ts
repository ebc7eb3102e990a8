import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** Modules that only Solana needs: its chain code, Wallet Standard discovery and their libraries. */
const SOLANA_MODULE =
  /[\\/](src[\\/](chains[\\/]solana|connectors[\\/]walletStandard|core[\\/]solana)|node_modules[\\/](@solana|@wallet-standard)[\\/])/

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
        // Solana code gets its own prefix, so the size check can prove an EVM-only page never loads it.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => SOLANA_MODULE.test(id))
            ? 'chunks/solana-[name]-[hash].js'
            : 'chunks/[name]-[hash].js',
      },
    },
  },
})
