import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import { subresourceIntegrityPlugin } from './scripts/sriPlugin.ts'

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * The embedded-wallet frame (src/frame): its own small app, served by the companion service on its
 * own origin (server/frame/app.ts). No React, no inline script or style (its CSP allows only 'self').
 * `npm run build` writes it to `dist-frame/`; the local stack builds it into a temporary folder.
 * Pinned: SRI on every tag, an import map with every chunk's integrity, and `integrity.json` (the
 * hash a site publishes and gives `frame-integrity`; docs/EMBEDDED-WALLET.md, "Pinning the frame build").
 */
export default defineConfig({
  root: here('src/frame'),
  base: '/',
  logLevel: 'warn',
  plugins: [subresourceIntegrityPlugin()],
  build: {
    outDir: here('dist-frame'),
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    // Inlined assets would need data: in the CSP.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: {
        index: here('src/frame/index.html'),
        device: here('src/frame/device.html'),
        social: here('src/frame/social.html'),
        approve: here('src/frame/approve.html'),
      },
      output: { minify: true },
    },
  },
})
