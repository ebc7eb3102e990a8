import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type PluginOption, type UserConfig } from 'vite'
import { cssStringsPlugin } from './scripts/cssStrings.ts'

/** Modules that only Solana needs: its chain code, Wallet Standard discovery and their libraries. */
const SOLANA_MODULE =
  /[\\/](src[\\/](chains[\\/]solana|connectors[\\/]walletStandard|core[\\/]solana)|node_modules[\\/](@solana|@wallet-standard)[\\/])/

/** Modules that only Bitcoin needs: its chain code, its wallets' discovery and its transaction library. */
const BITCOIN_MODULE =
  /[\\/](src[\\/](chains[\\/]bip122|connectors[\\/]bitcoin|core[\\/]bitcoin)|node_modules[\\/]@scure[\\/]btc-signer)[\\/]/

/**
 * What a bundler entry leaves to the app: React, ReactDOM and r2wc (peer dependencies, so a React
 * app ships one React), nanostores and zod (dependencies: the public types are written in them),
 * and wagmi's packages (optional peer dependencies of `wallet-elements/wagmi`).
 */
const EXTERNAL = /^(react|react-dom|@r2wc\/react-to-web-component|nanostores|zod|wagmi|@wagmi\/core)(\/|$)/

/** The wagmi connector's modules: the viem they import is the wagmi app's own (wagmi's peer), not ours. */
const WAGMI_MODULE = /[\\/]src[\\/]wagmi[\\/]/

/** {@link EXTERNAL}, and viem where the wagmi connector imports it (the core keeps its own, inside). */
const external = (id: string, importer: string | undefined): boolean =>
  EXTERNAL.test(id) || (/^viem(\/|$)/.test(id) && importer !== undefined && WAGMI_MODULE.test(importer))

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** The modules whose template literals are the shadow roots' CSS (minified at build time). */
const STYLE_MODULE = /[\\/]src[\\/]ui[\\/]theme[\\/](reset|\w+Styles)\.ts$/

/**
 * The options both library builds share: React, production mode, ES2022, minified ES modules with
 * hidden source maps (kept in dist/ for us, left out of the package: nothing points at a missing
 * file), and lazily loaded chunks under `chunkDir`, Solana ones prefixed `solana-` and Bitcoin ones
 * `bitcoin-` so the size check can prove an EVM-only page never loads them.
 */
export function libraryConfig(options: {
  entry: Record<string, string>
  chunkDir: string
  external?: RegExp | ((id: string, importer: string | undefined) => boolean)
  emptyOutDir: boolean
  /** Puts every module the entries import statically into one chunk (fewer, better-compressed files). */
  oneInitialChunk?: boolean
  /**
   * Drops the `@__PURE__` annotations and JSDoc: they help a bundler that builds on our output, and
   * nothing builds on the script-tag file (in its first chunk, 4.5 KB to parse, 0.07 KB gzip).
   * Licence comments stay.
   */
  final?: boolean
  /** Plugins besides React's. */
  plugins?: PluginOption[]
  /** Chunks of modules that load together, after the initial one (needs `oneInitialChunk`). */
  groups?: { name: string; test: (id: string) => boolean }[]
}): UserConfig {
  return {
    plugins: [react(), cssStringsPlugin(STYLE_MODULE), ...(options.plugins ?? [])],
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: 'dist',
      emptyOutDir: options.emptyOutDir,
      target: 'es2022',
      sourcemap: 'hidden',
      lib: { entry: options.entry, formats: ['es'], fileName: (_format, name) => `${name}.js` },
      rolldownOptions: {
        ...(options.external ? { external: options.external } : {}),
        output: {
          minify: true,
          ...(options.final ? { comments: { legal: true, annotation: false, jsdoc: false } } : {}),
          ...(options.oneInitialChunk
            ? {
                codeSplitting: {
                  groups: [{ name: 'initial', tags: ['$initial' as const] }, ...(options.groups ?? [])],
                },
              }
            : {}),
          chunkFileNames: (chunk) =>
            chunk.moduleIds.some((id) => SOLANA_MODULE.test(id))
              ? `${options.chunkDir}/solana-[name]-[hash].js`
              : chunk.moduleIds.some((id) => BITCOIN_MODULE.test(id))
                ? `${options.chunkDir}/bitcoin-[name]-[hash].js`
                : `${options.chunkDir}/[name]-[hash].js`,
        },
      },
    },
  }
}

/**
 * The bundler entries (`.`, `./core`, `./elements`, `./wagmi`) into `dist/`, sharing chunks under
 * `dist/chunks/`. The script-tag file is a second build (`vite.script-tag.config.ts`) that keeps
 * everything inside.
 */
export default defineConfig(
  libraryConfig({
    entry: {
      index: here('src/index.ts'),
      core: here('src/core/index.ts'),
      elements: here('elements/index.ts'),
      wagmi: here('src/wagmi/index.ts'),
    },
    chunkDir: 'chunks',
    external,
    emptyOutDir: true,
  }),
)
