import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// The local stack's default addresses; `npm start` (scripts/stack.ts) sets the real ones.
process.env.VITE_API_URL ??= 'http://127.0.0.1:8787'
process.env.VITE_PROJECT_ID ??= 'dev-project'
process.env.VITE_RELAY_URL ??= 'ws://127.0.0.1:8789'
process.env.VITE_FRAME_URL ??= 'http://127.0.0.1:8788'

/**
 * The demo: `demo/` served at the root. `/wallet-elements.js` is the script-tag entry, exactly the
 * URL a site would use, mapped to the source in dev and bundled for `npm run preview`.
 */
export default defineConfig({
  root: here('demo'),
  envDir: here('.'),
  plugins: [react()],
  resolve: {
    alias: [{ find: /^\/wallet-elements\.js$/, replacement: here('src/script-tag.ts') }],
  },
  server: {
    host: '127.0.0.1',
    port: Number(process.env.DEMO_PORT ?? 5173),
    strictPort: true,
    fs: { allow: [here('.')] },
  },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  build: {
    outDir: here('dist-demo'),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      input: {
        index: here('demo/index.html'),
        module: here('demo/module.html'),
        dapp: here('demo/dapp.html'),
        harness: here('demo/wallets/harness.html'),
        phone: here('demo/wallets/phone.html'),
      },
      output: { minify: true },
    },
  },
})
