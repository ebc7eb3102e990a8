/**
 * Tokens and swaps, against the local market on a Hardhat chain and the companion service on loopback
 * (PGlite in memory):
 * - the swap quote endpoint (`GET /blockchain/v1/swap/quote`, 0.1 ETH to USDC) under autocannon for
 *   10 s, with 1 and with 50 concurrent clients, anonymous and with `userAddress` (what the Swap view
 *   sends: the gas is then estimated for the account); beside each, what it asks the node (the quote's
 *   JSON-RPC batch; the swap's `eth_estimateGas`) posted straight to the node by as many clients: the
 *   floor the chain sets. The data API's rate limit is raised
 *   out of reach: the 50 clients share one address;
 * - the Account view with 20 tokens, in headless Chromium against the built script tag (dist/): dev
 *   account 0 holds the market's USDC, DEV and WETH and 17 more tokens, each with a USDC pool (so each
 *   has a price). Two services over one chain, one listing those 20 tokens and one the market's 3, taken
 *   in alternation (A/B) in fresh browser contexts, median of `runs`:
 *   - cold: a returning visitor (the session restored from storage) opens Account as soon as the
 *     button is connected; from that click to every token row and the total painted (the token list,
 *     one multicall through the RPC proxy, prices, render);
 *   - warm: the modal closed and opened again within the 30 s balance cache: click to painted.
 *   The service keeps its pool prices 30 s, so from the second run on they come from its cache, as they
 *   do for every visitor but the first. Token icons load after the paint and are not waited for.
 *
 * Run alone: `npx tsx test/bench/tokens.ts` (builds dist/ first when it is missing; optional env:
 * TOKENS_BENCH_SECONDS, TOKENS_BENCH_RUNS).
 */
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { parseTokenLists } from '../../server/blockchain/tokenLists.ts'
import { loadConfig } from '../../server/config.ts'
import { createDatabase, type ServiceDatabase } from '../../server/db/database.ts'
import { startChain } from '../../server/dev/chain/index.ts'
import { deployMarket, marketTokenList } from '../../server/dev/chain/market.ts'
import { createLogger } from '../../server/logger.ts'
import { freePort, launchBrowser, newContext } from '../e2e/harness.ts'
import { WALLET } from './loaded.ts'
import { serveDist } from './page.ts'
import { deployExtraTokens, EXTRA_TOKENS, PROJECT } from './tokens-market.ts'
import { benchQuotes, type QuoteLoad } from './tokens-quotes.ts'

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** The bench page: the one-account EIP-6963 Bench Wallet (dev account 0 on 31337) and the modal against `apiUrl`. */
const accountPage = (apiUrl: string) => `<!doctype html><html><head><meta charset="utf-8"><title>bench</title>
${WALLET}
<script>
  // Opens Account (a click on the connected button) and resolves to the ms until every row and the
  // total are painted.
  window.openAccount = (rows) => new Promise((resolve) => {
    const button = document.querySelector('wallet-button')?.shadowRoot?.querySelector('button')
    const root = document.querySelector('wallet-modal')?.shadowRoot
    const start = performance.now()
    button.click()
    ;(function painted() {
      const shown = root?.querySelectorAll('[role="dialog"] [data-token]').length ?? 0
      const total = root?.querySelector('[role="dialog"] [part="total"]')
      if (shown === rows && total) requestAnimationFrame(() => resolve(performance.now() - start))
      else requestAnimationFrame(painted)
    })()
  })
</script>
<script type="module" src="/wallet-elements.js"></script></head>
<body><wallet-button></wallet-button>
<wallet-modal project-id="${PROJECT}" api-url="${apiUrl}" networks="eip155:31337"></wallet-modal>
</body></html>`

export interface AccountTiming {
  tokens: number
  coldMs: number[]
  warmMs: number[]
  medianColdMs: number
  medianWarmMs: number
}

async function benchAccount(
  services: { tokens: number; url: string }[],
  runs: number,
  pages: Record<string, string>,
  pageUrl: string,
): Promise<AccountTiming[]> {
  const browser = await launchBrowser()
  const timings = services.map((service) => ({ ...service, coldMs: [] as number[], warmMs: [] as number[] }))
  try {
    for (let run = 0; run < runs; run++) {
      for (const timing of timings) {
        const path = `/account-${timing.tokens}.html`
        pages[path] = accountPage(timing.url)
        const context = await newContext(browser)
        const page = await context.newPage()
        await page.goto(new URL(path, pageUrl).href)
        // Connect once; the next load restores the session from storage.
        const button = page.locator('wallet-button').getByRole('button')
        await button.and(page.locator(':enabled')).click()
        await page
          .getByRole('dialog')
          .getByRole('button', { name: /Bench Wallet/ })
          .click()
        await page.getByRole('dialog').waitFor({ state: 'detached' })
        await page.reload()
        await page.waitForFunction(
          () =>
            (
              document.querySelector('wallet-modal') as { walletConfig?: { $status: { get(): string } } }
            )?.walletConfig?.$status.get() === 'connected',
          undefined,
          { polling: 'raf' },
        )
        const rows = timing.tokens + 1
        const open = () =>
          page.evaluate(
            (count) => (window as unknown as { openAccount(n: number): Promise<number> }).openAccount(count),
            rows,
          )
        timing.coldMs.push(await open())
        await page.keyboard.press('Escape')
        await page.getByRole('dialog').waitFor({ state: 'detached' })
        timing.warmMs.push(await open())
        await context.close()
      }
    }
  } finally {
    await browser.close()
  }
  return timings.map((timing) => ({
    tokens: timing.tokens,
    coldMs: timing.coldMs,
    warmMs: timing.warmMs,
    medianColdMs: median(timing.coldMs),
    medianWarmMs: median(timing.warmMs),
  }))
}

export interface TokensBenchResult {
  quotes: QuoteLoad[]
  account: AccountTiming[]
}

/**
 * Runs the tokens and swaps benchmark, prints a short report and returns the numbers.
 *
 * @example
 * const { quotes, account } = await benchTokens({ seconds: 10, runs: 9 })
 */
export async function benchTokens(
  options: { seconds?: number; runs?: number; print?: (line: string) => void } = {},
): Promise<TokensBenchResult> {
  const seconds = options.seconds ?? 10
  const runs = options.runs ?? 9
  const print = options.print ?? ((line: string) => console.log(line))
  if (!existsSync('dist/wallet-elements.js')) execSync('npm run build:lib --silent', { stdio: 'inherit' })

  const chain = await startChain({ port: await freePort(), chainId: 31337 })
  const apps: FastifyInstance[] = []
  const pages: Record<string, string> = {}
  const dist = await serveDist(pages)
  let database: ServiceDatabase | undefined
  try {
    const market = await deployMarket({ url: chain.url, chainId: 31337 })
    const extra = await deployExtraTokens(chain.url, market, EXTRA_TOKENS)
    const base = marketTokenList(market)
    const twenty = {
      ...base,
      tokens: [
        ...base.tokens,
        ...extra.map((address, index) => ({
          address,
          symbol: `BENCH${String(index + 1).padStart(2, '0')}`,
          name: `Bench Token ${index + 1}`,
          decimals: 18,
        })),
      ],
    }
    const logger = createLogger('warn')
    const config = {
      ...loadConfig({ NODE_ENV: 'development', DATA_DIR: 'memory://' }),
      logLevel: 'warn' as const,
      devOrigins: ['http://localhost:5173', new URL(dist.url).origin],
      rpcUpstreams: { [market.caipNetworkId]: chain.url },
    }
    database = await createDatabase(config, { logger })
    const db = database
    const serve = async (list: typeof base) => {
      const app = await buildApp(
        {
          ...config,
          tokenLists: parseTokenLists({ networks: { [market.caipNetworkId]: list } }),
          // 50 clients from one address: the limits stay on, out of their reach.
          rateLimits: {
            ...config.rateLimits,
            dataPerSecond: 1_000_000,
            rpcPerSecond: 1_000_000,
            rpcEntriesPerSecond: 1_000_000,
          },
        },
        { database: db, logger },
      )
      apps.push(app)
      return app.listen({ host: '127.0.0.1', port: 0 })
    }
    const [twentyUrl, threeUrl] = [await serve(twenty), await serve(base)]

    const quotes = await benchQuotes(chain.url, twentyUrl, market, seconds)
    print(`\nSwap quote, 0.1 ETH to USDC on the local market (autocannon, ${seconds} s each):`)
    for (const result of quotes) {
      print(
        `  ${result.label.padEnd(38)} ${String(result.connections).padStart(2)} clients: ${result.requestsPerSecond.toFixed(0).padStart(5)} req/s, p50 ${result.p50Ms.toFixed(0)} ms, p99 ${result.p99Ms.toFixed(0)} ms (${result.requests} requests, ${result.failures} failed)`,
      )
    }

    const account = await benchAccount(
      [
        { tokens: 20, url: twentyUrl },
        { tokens: 3, url: threeUrl },
      ],
      runs,
      pages,
      dist.url,
    )
    print(
      `\nAccount view to every token row and the total painted (headless Chromium, median of ${runs}, A/B):`,
    )
    const fmt = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ')
    for (const timing of account) {
      print(
        `  ${String(timing.tokens).padStart(2)} tokens: cold ${timing.medianColdMs.toFixed(0)} ms (${fmt(timing.coldMs)}), warm ${timing.medianWarmMs.toFixed(0)} ms (${fmt(timing.warmMs)})`,
      )
    }
    return { quotes, account }
  } finally {
    for (const app of apps) await app.close()
    await database?.close()
    await dist.close()
    await chain.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchTokens({
    ...(process.env.TOKENS_BENCH_SECONDS ? { seconds: Number(process.env.TOKENS_BENCH_SECONDS) } : {}),
    ...(process.env.TOKENS_BENCH_RUNS ? { runs: Number(process.env.TOKENS_BENCH_RUNS) } : {}),
  })
  process.exit(0)
}
