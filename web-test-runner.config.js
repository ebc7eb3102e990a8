// Browser tests: Debian's chromium (or CHROME_PATH) through puppeteer-core; never a downloaded browser.
import net from 'node:net'
import path from 'node:path'
import { defaultReporter } from '@web/test-runner'
import { chromeLauncher } from '@web/test-runner-chrome'
import { build } from 'esbuild'
import { summaryReporter } from './test/support/wtr-summary-reporter.js'

// @web/dev-server binds every interface even when told 127.0.0.1; keep it on loopback.
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) {
    args.splice(1, 0, '127.0.0.1')
  } else if (typeof args[0] === 'object' && args[0] !== null && !args[0].host && !args[0].path) {
    args[0] = { ...args[0], host: '127.0.0.1' }
  }
  return listen.apply(this, args)
}

const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium'

/**
 * Each test (and bench) file is bundled with esbuild (React is CommonJS, and the views' lazy chunks are
 * inlined), so tests run the same source the build ships.
 */
const bundleTests = {
  name: 'bundle-tests',
  async serve(context) {
    if (!/\.(test|bench)\.tsx?$/.test(context.path)) return undefined
    const result = await build({
      entryPoints: [path.join(process.cwd(), context.path)],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      jsx: 'automatic',
      sourcemap: 'inline',
      define: { 'process.env.NODE_ENV': '"development"' },
      logLevel: 'silent',
    })
    return { body: result.outputFiles[0].text, type: 'js' }
  },
}

export default {
  files: ['test/browser/**/*.test.ts', 'test/browser/**/*.test.tsx'],
  hostname: '127.0.0.1',
  nodeResolve: false,
  concurrency: 2,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 10_000 } },
  plugins: [bundleTests],
  // The counts for `npm test`'s table go to TEST_SUMMARY_FILE beside the usual report.
  reporters: [defaultReporter(), summaryReporter()],
  browsers: [
    chromeLauncher({
      // Each test file gets its own browser context, so files running side by side never share
      // localStorage (a connection one file stores would be restored by the other's modal).
      createPage: async ({ browser }) => (await browser.createBrowserContext()).newPage(),
      // puppeteer-core's default --disable-features (24.43) leave ThirdPartyStoragePartitioning on,
      // as Chrome ships it (playwright's do not: see test/e2e/harness.ts).
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          '--disable-quic',
        ],
      },
    }),
  ],
}
