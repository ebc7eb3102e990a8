/**
 * Helpers for the end-to-end tests: a headless Chromium driven by playwright-core, and the local
 * stack on free loopback ports.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { staleReason } from '../../scripts/ensure-built.ts'
import { type StackOptions, type StackUrls, startStack } from '../../scripts/stack.ts'
import type { ServiceDatabase } from '../../server/db/database.ts'
import type { LocalEns } from '../../server/dev/chain/ens.ts'
import type { LocalMarket } from '../../server/dev/chain/market.ts'
import { freePort, freePortPair } from '../support/net.ts'

/**
 * playwright-core 1.65.1's own `--disable-features` list (its chromiumSwitches.ts) without
 * `ThirdPartyStoragePartitioning`. Playwright disables that feature, and a cross-site frame (the
 * wallet frame on `localhost` in a page on 127.0.0.1, like production's own origin in a site) then
 * gets no storage at all, where Chrome gives it storage partitioned by the top-level site. Chromium
 * keeps the last `--disable-features` switch, so ours replaces playwright's. Playwright does not
 * export its list: test/e2e/embedded-origin.test.ts reads the launched browser's command line and fails
 * if an upgrade changed it (update this list then).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  `--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`,
] as const

/**
 * Launches headless Chromium (`CHROME_PATH`, else Debian's /usr/bin/chromium; see
 * scripts/install-browsers.sh).
 *
 * @example
 * const browser = await launchBrowser()
 * const page = await browser.newPage()
 * await browser.close()
 */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium'
  try {
    return await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] })
  } catch (error) {
    throw new Error(
      `Could not launch Chromium at ${executablePath}: run \`npm run setup:browser\` or set CHROME_PATH.`,
      { cause: error },
    )
  }
}

/**
 * A fresh browser context (its own localStorage) ready for `page.evaluate` with functions from tests.
 *
 * tsx compiles tests with esbuild's keepNames, which wraps named inner functions in a `__name()`
 * helper; the function text sent by `page.evaluate` then fails in the page with
 * "__name is not defined". The init script defines a no-op `__name` in every page of the context.
 *
 * @example
 * const context = await newContext(browser)
 * const page = await context.newPage()
 */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext()
  await context.addInitScript({ content: 'globalThis.__name ??= (target) => target' })
  return context
}

export { freePort } from '../support/net.ts'

export type TestStack = {
  urls: StackUrls
  /**
   * The embedded wallet's key-encryption key this stack's service uses (base64): tests open a person's
   * keys from the database with it, as an operator with the database and the KEK could.
   */
  walletKek: string
  market: LocalMarket
  /** ENS on the first chain (its universal resolver finds the service's names). */
  ens: LocalEns
  /** The service's database (the embedded wallet's tests read and change its rows as an operator would). */
  readonly serviceDatabase: ServiceDatabase | undefined
  /** Stops the companion service and starts it again (same port, data folder), `between` while it is down. */
  restartService(between?: () => Promise<void>): Promise<void>
  /** Stops the ERC-4337 bundler and starts it again (same port), `between` while it is down. */
  restartBundler(between?: () => Promise<void>): Promise<void>
  /** Moves the Farcaster relay stand-in's clock forward (an expired sign-in channel). */
  advanceFarcasterClock(ms: number): void
  /** Puts the stack back as it was once started (scripts/stack.ts `reset()`). */
  reset(): Promise<void>
  stop(): Promise<void>
}

/** What a shared stack can serve: the parts it runs. Anything else (ports, folders, a frame, sites) is a file's own. */
type SharedParts = Pick<StackOptions, 'solana' | 'bitcoin' | 'farcaster'>
const PARTS = ['solana', 'bitcoin', 'farcaster'] as const

/**
 * The local stack for a test file, on free ports, quietly.
 *
 * Test files that ask only for parts (`solana`, `bitcoin`, `farcaster`) share one stack per process:
 * the first starts it, each later one gets it back as it was once started (`reset()`: the chains
 * reverted, a new service database, the mail forgotten). The end-to-end runner (test/e2e/lane.ts) runs
 * several files in one process and names the parts its files need in `E2E_STACK_PARTS`, so that the first
 * start runs them all. A file that asks for anything else (its own ports, data folder, frame build or
 * sites) gets a stack of its own, stopped by its `stop()`.
 *
 * @example
 * const stack = await startTestStack({ solana: true })
 * await page.goto(new URL('wallets/harness.html', stack.urls.demo).href)
 * await stack.stop()
 */
export async function startTestStack(options: Omit<StackOptions, 'logLevel'> = {}): Promise<TestStack> {
  const own = Object.keys(options).some((key) => !(PARTS as readonly string[]).includes(key))
  if (own || process.env.E2E_SHARED_STACK === 'off') return ownStack(options)
  const wanted = { ...partsFromEnv(), ...options }
  if (shared && PARTS.some((part) => wanted[part] && !shared?.parts[part])) {
    // The shared stack lacks a part this file needs: it has its own.
    return ownStack(options)
  }
  if (!shared) {
    const parts = Object.fromEntries(PARTS.map((part) => [part, wanted[part] === true])) as SharedParts
    const started = ownStack(parts)
    shared = { parts, stack: started, users: 0, fresh: true }
    // A stack that failed to start fails this file; the next file tries a new one.
    const entry = shared
    started.catch(() => {
      if (shared === entry) shared = undefined
    })
  }
  const entry = shared
  const stack = await entry.stack
  if (!entry.fresh) {
    try {
      await stack.reset()
    } catch (error) {
      // A stack that cannot be put back (a part died with the last file) is replaced by a new one.
      console.error(`The shared stack could not be reset, starting a new one: ${(error as Error).message}`)
      if (shared === entry) shared = undefined
      await stack.stop().catch(() => {})
      return startTestStack(options)
    }
  }
  entry.fresh = false
  entry.users++
  // The shared stack outlives the file; a process that runs one file alone stops it with that file. The
  // lease is the stack with its own stop (the stack as prototype, so `serviceDatabase` stays current).
  return Object.create(stack, {
    stop: {
      value: async () => {
        entry.users--
        if (entry.users === 0 && process.env.E2E_LANE === undefined) await stopSharedStack()
      },
    },
  }) as TestStack
}

/** Stops the stack the files of this process share (test/e2e/lane.ts, once its files are done). */
export async function stopSharedStack(): Promise<void> {
  const entry = shared
  shared = undefined
  if (entry) await (await entry.stack).stop()
}

let shared: { parts: SharedParts; stack: Promise<TestStack>; users: number; fresh: boolean } | undefined

/** The parts named in `E2E_STACK_PARTS` (comma-separated), which a shared stack starts with. */
function partsFromEnv(): SharedParts {
  const named = (process.env.E2E_STACK_PARTS ?? '').split(',').map((part) => part.trim())
  return Object.fromEntries(PARTS.filter((part) => named.includes(part)).map((part) => [part, true]))
}

async function ownStack(options: Omit<StackOptions, 'logLevel'>): Promise<TestStack> {
  // Ports are found free and then bound: another process (a test file of another suite, say) may take one
  // in between. The stack stops what it started and is tried again on other ports, unless the caller
  // chose ports itself (then the refusal is what it tests).
  const chosen = Object.keys(options).some((key) => key.endsWith('Port'))
  let stack: Awaited<ReturnType<typeof startStack>>
  const walletKek = options.walletKek ?? randomBytes(32).toString('base64')
  for (let attempt = 1; ; attempt++) {
    const ports = await distinctFreePorts([
      'chainPort',
      'chain2Port',
      'demoPort',
      'servicePort',
      'relayPort',
      'framePort',
      'smtpPort',
      'onrampPort',
      'bundlerPort',
      'oidcPort',
      'farcasterChainPort',
      'farcasterRelayPort',
      'farcasterAppPort',
    ] as const satisfies readonly (keyof StackOptions)[])
    try {
      stack = await startStack({
        ...ports,
        ...builtFrame(),
        serviceDataDir: 'memory://',
        solana: false,
        bitcoin: false,
        farcaster: false,
        // Bitcoin blocks only on demand (POST /dev/mine), so a payment is seen in the mempool first.
        bitcoinBlockIntervalMs: 0,
        walletKek,
        logLevel: 'warn',
        ...(options.solana ? { solanaPort: await freePortPair() } : {}),
        ...(options.bitcoin ? { bitcoinPort: await freePort() } : {}),
        ...options,
      })
      break
    } catch (error) {
      if (
        chosen ||
        attempt >= 3 ||
        !/EADDRINUSE|address already in use/.test(String((error as Error).message))
      )
        throw error
    }
  }
  return {
    urls: stack.urls,
    walletKek,
    market: stack.market,
    ens: stack.ens,
    get serviceDatabase() {
      return stack.serviceDatabase
    },
    restartService: stack.restartService,
    restartBundler: stack.restartBundler,
    advanceFarcasterClock: stack.advanceFarcasterClock,
    reset: stack.reset,
    stop: stack.stop,
  }
}

/**
 * The wallet frame `npm test` built (its pretest), when that build is of the sources as they are: each
 * file's stack then serves it instead of building its own (a few seconds, once per file). A stale or
 * missing build (a file run alone after an edit) leaves the stack to build the frame as `npm start` does.
 */
function builtFrame(): Pick<StackOptions, 'frameDir'> {
  return staleReason() === undefined
    ? { frameDir: fileURLToPath(new URL('../../dist-frame', import.meta.url)) }
    : {}
}

/** A different free port for each name. */
async function distinctFreePorts<Name extends string>(names: readonly Name[]): Promise<Record<Name, number>> {
  const ports = new Set<number>()
  while (ports.size < names.length) ports.add(await freePort())
  const list = [...ports]
  return Object.fromEntries(names.map((name, index) => [name, list[index]])) as Record<Name, number>
}

/**
 * From the demo page: connects the Demo Wallet (approving in its prompt) and opens Account.
 *
 * @example
 * await page.goto(stack.urls.demo)
 * await connectDemoWallet(page)
 */
export async function connectDemoWallet(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page
    .locator('wallet-modal')
    .getByRole('dialog')
    .getByRole('button', { name: /Demo Wallet/ })
    .click()
  await page.locator('[data-demo-wallet="approve"]').click()
  await page
    .locator('wallet-button')
    .getByRole('button', { name: /, Account$/ })
    .click()
}

/**
 * From a demo page with the modal closed: opens it, chooses WalletConnect, waits for the QR code and
 * returns the pairing URI the modal shows.
 *
 * @example
 * const uri = await startGenericPairing(page)
 */
export async function startGenericPairing(page: Page): Promise<string> {
  const modal = page.locator('wallet-modal').getByRole('dialog')
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await modal.getByRole('button', { name: /WalletConnect/ }).click()
  await modal.getByRole('img', { name: /QR code/ }).waitFor()
  const uri = await page.evaluate(
    () => document.querySelector('wallet-modal')?.walletConfig.$pairing.get().uri,
  )
  if (!uri) throw new Error('the modal shows no pairing URI')
  return uri
}

/** Opens the demo phone wallet on a pairing URI, in another page of the same context. */
export async function openPhoneWallet(context: BrowserContext, demoUrl: string, uri: string): Promise<Page> {
  const phone = await context.newPage()
  await phone.goto(new URL(`/wallets/phone.html?uri=${encodeURIComponent(uri)}`, demoUrl).href)
  return phone
}

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** What has focus, looking through shadow roots: enough to say which control it is. */
export type Focus = { tag: string; name: string; part: string | null; inModal: boolean; inButton: boolean }

export const focusOf = (page: Page): Promise<Focus> =>
  page.evaluate(() => {
    let active = document.activeElement
    const hosts: string[] = []
    while (active?.shadowRoot?.activeElement) {
      hosts.push(active.localName)
      active = active.shadowRoot.activeElement
    }
    const element = active as HTMLElement | null
    const label = element?.getAttribute('aria-label')
    return {
      tag: element?.localName ?? 'none',
      name: (label ?? element?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      part: element?.getAttribute('part') ?? null,
      inModal: hosts.includes('wallet-modal'),
      inButton: hosts.includes('wallet-button'),
    }
  })

/** Waits until focus is where `expected` says (polling: focus moves after renders). */
export async function focusIs(page: Page, expected: Partial<Focus> & { nameMatch?: RegExp }, step: string) {
  const deadline = Date.now() + 5_000
  let seen: Focus | undefined
  while (Date.now() < deadline) {
    seen = await focusOf(page)
    const { nameMatch, ...exact } = expected
    const ok =
      Object.entries(exact).every(([key, value]) => seen?.[key as keyof Focus] === value) &&
      (!nameMatch || nameMatch.test(seen.name))
    if (ok) return
    await page.waitForTimeout(50)
  }
  assert.fail(
    `after "${step}", focus is on ${JSON.stringify(seen)}, expected ${JSON.stringify(expected, (_, v) => (v instanceof RegExp ? String(v) : v))}`,
  )
}

/** Runs axe on the modal (the page's own markup and the wallet's prompt left out). */
export async function axeClean(page: Page, view: string) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource })
  const violations = await page.evaluate(async () => {
    // The open dialog sets overflow: hidden on <html>; axe would clip the dialog to <html>'s box.
    document.documentElement.style.height = '100%'
    const modal = document.querySelector('wallet-modal') as Element
    const { violations } = await (
      window as unknown as {
        axe: { run(node: Element): Promise<{ violations: { id: string; nodes: unknown[] }[] }> }
      }
    ).axe.run(modal)
    return violations.map((violation) => `${violation.id} (${violation.nodes.length})`)
  })
  assert.deepEqual(violations, [], `axe on ${view}`)
}
