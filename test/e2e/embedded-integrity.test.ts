import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { build } from 'vite'
import type { FrameIntegrity } from '../../scripts/sriPlugin.ts'
import { repoRoot } from '../../scripts/stack/options.ts'
import { modal, signInByEmail, submitEmail } from './embedded-helpers.ts'
import { launchBrowser, newContext, startTestStack, type TestStack } from './harness.ts'

const PINNED_ERROR = 'The wallet did not load: its code is not the version this site approved'
const LOAD_ERROR = 'Network Error - could not load embedded wallet'

/** The SRI value of bytes, computed here (node:crypto) apart from the code under test. */
const sri = (bytes: Uint8Array | string) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`

/**
 * A site pins the wallet frame's build: `<wallet-modal frame-integrity>` holds the
 * `frame` value of the build's integrity.json; the element fetches the frame page and hashes it before
 * it loads the frame. The right pin: the frame loads and e-mail sign-in works. A wrong pin, or a build
 * changed on the server: the person reads why, in red, and no frame of that origin is ever created. A
 * script changed without its page: the browser's own SRI refuses it and the frame never becomes ready.
 * The stack serves a copy of a fresh build (its `frameDir`), which the tests change as an attacker would.
 */
describe('embedded wallet: a pinned frame build (frame-integrity)', { timeout: 480_000 }, () => {
  const folders: string[] = []
  let original: string
  let served: string
  let pin: string
  let stack: TestStack
  let browser: Browser
  const address = (name: string) => `${name}.${Date.now()}@example.com`

  before(async () => {
    original = mkdtempSync(join(tmpdir(), 'frame-pinned-'))
    served = mkdtempSync(join(tmpdir(), 'frame-served-'))
    folders.push(original, served)
    await build({
      configFile: join(repoRoot, 'vite.frame.config.ts'),
      logLevel: 'silent',
      build: { outDir: original, emptyOutDir: true },
    })
    cpSync(original, served, { recursive: true })
    pin = (JSON.parse(readFileSync(join(original, 'integrity.json'), 'utf8')) as FrameIntegrity).frame
    ;[stack, browser] = await Promise.all([startTestStack({ frameDir: served }), launchBrowser()])
  })
  // Each test's pages go with it: a page left open holds connections to the frame server.
  const contexts: BrowserContext[] = []
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()))
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  })

  /** The dapp in a fresh context, its modal pinned to `integrity` (none: no attribute). */
  async function dappPage(integrity?: string): Promise<Page> {
    const context = await newContext(browser)
    contexts.push(context)
    await context.addInitScript(() => {
      // When the frame's ready event arrives, and when a SHA-384 digest (the element's check) resolves.
      const marks: Record<string, number> = {}
      ;(globalThis as unknown as { marks: typeof marks }).marks = marks
      const digest = crypto.subtle.digest.bind(crypto.subtle)
      crypto.subtle.digest = async (algorithm, data) => {
        const result = await digest(algorithm, data)
        if (algorithm === 'SHA-384') marks.checked = performance.now()
        return result
      }
      const Original = MessageChannel
      globalThis.MessageChannel = class extends Original {
        constructor() {
          super()
          this.port1.addEventListener('message', (event) => {
            if ((event.data as { type?: unknown })?.type === 'FRAME_READY') marks.ready ??= performance.now()
          })
        }
      }
      const errors: string[] = []
      ;(globalThis as unknown as { walletErrors: string[] }).walletErrors = errors
      document.addEventListener('wallet-error', (event) =>
        errors.push((event as CustomEvent<{ message: string }>).detail.message),
      )
    })
    const page = await context.newPage()
    await page.goto(new URL('/dapp.html', stack.urls.demo).href)
    if (integrity)
      await page
        .locator('wallet-modal')
        .evaluate((element, value) => element.setAttribute('frame-integrity', value), integrity)
    return page
  }

  /** Every iframe in the page and the modal's shadow root whose address is on the frame's origin. */
  const frameIframes = (page: Page) =>
    page.evaluate((origin) => {
      const roots: ParentNode[] = [
        document,
        ...[...document.querySelectorAll('*')].flatMap((e) => e.shadowRoot ?? []),
      ]
      return roots.flatMap((root) =>
        [...root.querySelectorAll('iframe')]
          .filter((frame) => frame.src.startsWith(origin))
          .map((frame) => frame.src),
      )
    }, new URL(stack.urls.frame).origin)

  /** The alert with `text`: announced (inside role=alert), in the modal's danger colour. */
  async function refusedWith(page: Page, text: string) {
    const alert = modal(page).getByRole('alert').filter({ hasText: text })
    await alert.waitFor({ timeout: 45_000 })
    const [colour, danger] = await alert.getByText(text, { exact: true }).evaluate((element) => {
      const probe = document.createElement('span')
      probe.style.color = getComputedStyle(element).getPropertyValue('--_danger')
      element.append(probe)
      const expected = getComputedStyle(probe).color
      probe.remove()
      return [getComputedStyle(element).color, expected]
    })
    assert.equal(colour, danger, 'the error reads in the danger colour')
  }

  const walletErrors = (page: Page) =>
    page.evaluate(() => (window as unknown as { walletErrors: string[] }).walletErrors)

  it('default: with the build’s published hash the frame loads, and e-mail sign-in works', async () => {
    const page = await dappPage(pin)
    await signInByEmail(page, stack, address('pinned'))
    assert.equal((await frameIframes(page)).length, 1)
    assert.deepEqual(await walletErrors(page), [])
  })

  it('behavior: the check (fetch + SHA-384) against the frame’s own load, median of 10', async (t) => {
    const checks: number[] = []
    const loads: number[] = []
    for (let run = 0; run < 10; run++) {
      const page = await dappPage(pin)
      await page.getByRole('button', { name: 'Connect Wallet' }).click()
      // The frame starts loading when the e-mail field takes focus.
      await modal(page).getByLabel('Email').focus()
      const marks = await page.waitForFunction(
        () => {
          const { marks } = window as unknown as { marks: Record<string, number> }
          return marks.ready === undefined ? false : marks
        },
        undefined,
        { timeout: 30_000 },
      )
      const { checked = 0, ready = 0 } = (await marks.jsonValue()) as Record<string, number>
      const started = await page.evaluate(
        (origin) =>
          performance
            .getEntriesByType('resource')
            .find(
              (entry) =>
                entry.name.startsWith(origin) &&
                (entry as PerformanceResourceTiming).initiatorType === 'fetch',
            )?.startTime ?? 0,
        new URL(stack.urls.frame).origin,
      )
      assert.ok(
        started > 0 && checked > started && ready > checked,
        `run ${run}: ${started} ${checked} ${ready}`,
      )
      checks.push(checked - started)
      loads.push(ready - checked)
      await page.context().close()
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0
    const [check, load] = [median(checks), median(loads)]
    t.diagnostic(
      `frame-integrity check ${check.toFixed(1)} ms, frame load to ready ${load.toFixed(1)} ms (medians of 10): ${((100 * check) / load).toFixed(1)} %`,
    )
    assert.ok(check < load, 'the check costs less than the frame’s own load')
  })

  it('error: a wrong pin shows why, and no frame of that origin is ever created', async () => {
    const page = await dappPage(sri('another build'))
    await submitEmail(page, address('wrong-pin'))
    await refusedWith(page, PINNED_ERROR)
    assert.deepEqual(await frameIframes(page), [])
    // The page hears it too (`wallet-error`, the spec's iframe_load_failed), with the same words.
    const heard = await walletErrors(page)
    assert.ok(heard.length > 0 && heard.every((message) => message === PINNED_ERROR), heard.join(' | '))
  })

  it('error: a script changed on the server is refused by the browser’s SRI, pinned or not: the frame never becomes ready', async () => {
    const script = /<script type="module"[^>]*\ssrc="\/([^"]+)"/.exec(
      readFileSync(join(served, 'index.html'), 'utf8'),
    )?.[1]
    assert.ok(script, 'the frame page names its script')
    const bytes = readFileSync(join(served, script))
    // One byte of the entry script: a `;` becomes a space (still valid code, another hash).
    const at = bytes.lastIndexOf(';'.charCodeAt(0))
    bytes[at] = ' '.charCodeAt(0)
    writeFileSync(join(served, script), bytes)
    try {
      const pages = await Promise.all([dappPage(), dappPage(pin)])
      const consoles = pages.map((page) => {
        const lines: string[] = []
        page.on('console', (message) => lines.push(message.text()))
        return lines
      })
      await Promise.all(
        pages.map(async (page, index) => {
          await submitEmail(page, address(`changed-script-${index}`))
          await refusedWith(page, LOAD_ERROR)
        }),
      )
      for (const lines of consoles)
        assert.ok(
          lines.some((line) => /integrity/i.test(line) && line.includes(script)),
          `the browser reports the integrity failure: ${lines.join(' | ')}`,
        )
    } finally {
      writeFileSync(join(served, script), readFileSync(join(original, script)))
    }
  })

  it('error: a whole build changed on the server (scripts and page agree) loads unpinned, and is refused with the pin', async () => {
    // An attacker's consistent build: the entry script changed, and the page's SRI and import map with it.
    const page = readFileSync(join(original, 'index.html'), 'utf8')
    const script = /<script type="module"[^>]*\ssrc="\/([^"]+)"/.exec(page)?.[1] ?? ''
    const code = `${readFileSync(join(original, script), 'utf8')}\n;globalThis.changedBuild = true\n`
    const [before, after] = [sri(readFileSync(join(original, script))), sri(code)]
    await stack.restartService(async () => {
      writeFileSync(join(served, script), code)
      writeFileSync(join(served, 'index.html'), page.replaceAll(before, after))
    })
    const unpinned = await dappPage()
    await unpinned.getByRole('button', { name: 'Connect Wallet' }).click()
    await modal(unpinned).getByLabel('Email').focus()
    await unpinned.waitForFunction(
      () => (window as unknown as { marks: { ready?: number } }).marks.ready,
      undefined,
      { timeout: 30_000 },
    )
    assert.equal(
      await unpinned
        .frameLocator('iframe[data-wallet-frame]')
        .locator('body')
        .evaluate(() => (globalThis as { changedBuild?: boolean }).changedBuild),
      true,
      'without a pin the changed build runs',
    )
    const pinned = await dappPage(pin)
    await submitEmail(pinned, address('changed-build'))
    await refusedWith(pinned, PINNED_ERROR)
    assert.deepEqual(await frameIframes(pinned), [])
    // The published hash of the changed build is what a site would have to pin to accept it.
    assert.notEqual(sri(readFileSync(join(served, 'index.html'))), pin)
    assert.ok(readdirSync(served).includes('integrity.json'))
  })
})
