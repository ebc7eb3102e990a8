import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/**
 * The same wagmi app two ways: with the modal (`wallet-elements/wagmi` and the elements) and, with
 * `--mode alone`, without them (wagmi's `injected()` connector instead), for the size comparison.
 */
export default defineConfig(({ mode }) => ({
  plugins: [react()],
  resolve: {
    alias: [
      {
        find: /^\.\/app-wallet$/,
        replacement: fileURLToPath(
          new URL(mode === 'alone' ? 'src/app-wallet-alone.tsx' : 'src/app-wallet.tsx', import.meta.url),
        ),
      },
    ],
  },
}))
