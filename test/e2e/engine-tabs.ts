/**
 * {@link EngineTab}s for the engine journeys (test/e2e/engine-journeys.ts) and the engines bench:
 * a puppeteer-core page (Firefox over WebDriver BiDi) and a WebDriver classic window (WebKit).
 */
import type { Browser, Frame, Page } from 'puppeteer-core'
import type { EngineTab } from './engine-journeys.ts'
import {
  type ElementRef,
  isElementRef,
  startWebKitDriver,
  type WebDriverSession,
  type WebKitDriverOptions,
} from './webdriver.ts'

/**
 * The script that runs `fn` with `args` in a page. tsx compiles the tests with esbuild's keepNames,
 * which wraps named inner functions in a `__name()` helper that pages do not have: it is given here.
 */
export const scriptOf = (fn: (...args: never[]) => unknown, args: readonly unknown[]) =>
  `((__name) => (${fn.toString()}).apply(null, ${JSON.stringify(args)}))((target) => target)`

/** The wallet frame of a puppeteer page (its URL starts with `frameUrl`). */
const frameOf = (page: Page, frameUrl: string): Frame => {
  const frame = page.frames().find((candidate) => candidate.url().startsWith(frameUrl))
  if (!frame) throw new Error('The wallet frame is not loaded')
  return frame
}

/**
 * A puppeteer page as an {@link EngineTab}.
 *
 * @example
 * const tab = puppeteerTab(browser, await browser.newPage(), stack.urls.frame)
 */
export function puppeteerTab(browser: Browser, page: Page, frameUrl: string): EngineTab {
  return {
    async goto(url) {
      await page.goto(url)
    },
    evaluate: <T, A extends unknown[]>(fn: (...args: A) => T, ...args: A) =>
      page.evaluate(scriptOf(fn, args)) as Promise<Awaited<T>>,
    evaluateInFrame: <T, A extends unknown[]>(fn: (...args: A) => T, ...args: A) =>
      frameOf(page, frameUrl).evaluate(scriptOf(fn, args)) as Promise<Awaited<T>>,
    async clickAt(x, y) {
      await page.bringToFront()
      await page.mouse.click(x, y)
    },
    async type(text) {
      await page.keyboard.type(text)
    },
    async waitForWindow(prefix) {
      const target = await browser.waitForTarget((candidate) => candidate.url().startsWith(prefix), {
        timeout: 15_000,
      })
      const opened = await target.page()
      if (!opened) throw new Error(`No page for the window at ${target.url()}`)
      await opened.bringToFront()
      return puppeteerTab(browser, opened, frameUrl)
    },
    async windowOpen(prefix) {
      return (await browser.pages()).some((candidate) => candidate.url().startsWith(prefix))
    },
    async openTab(url) {
      const opened = await browser.newPage()
      await opened.goto(url)
      return puppeteerTab(browser, opened, frameUrl)
    },
    close: () => page.close(),
  }
}

/**
 * A WebDriver window (`handle`) as an {@link EngineTab}: each command first makes it the current
 * window (the session drives one window at a time). With `touch`, a person's click is a finger's tap
 * (a phone), in this window and in those it opens.
 *
 * @example
 * const tab = webDriverTab(session, await session.windowHandle())
 */
export function webDriverTab(
  session: WebDriverSession,
  handle: string,
  { touch = false }: { touch?: boolean } = {},
): EngineTab {
  const here = async () => {
    await session.switchToWindow(handle)
  }
  const script = <T, A extends unknown[]>(fn: (...args: A) => T, args: A) =>
    session.executeScript<Awaited<T>>(`return ${scriptOf(fn as (...args: never[]) => unknown, args)}`)
  return {
    async goto(url) {
      await here()
      await session.navigate(url)
    },
    async evaluate<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
      await here()
      return script(fn, args)
    },
    async evaluateInFrame<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
      await here()
      const frame = await session.execute(
        () =>
          document.querySelector('wallet-modal')?.shadowRoot?.querySelector('iframe[data-wallet-frame]') ??
          null,
      )
      if (!isElementRef(frame)) throw new Error('The wallet frame is not loaded')
      await session.switchToFrame(frame as ElementRef)
      try {
        return await script(fn, args)
      } finally {
        await session.switchToFrame(null)
      }
    },
    async clickAt(x, y) {
      await here()
      if (touch) await session.tapAt(x, y)
      else await session.clickAt(x, y)
    },
    async type(text) {
      await here()
      await session.keys(text)
    },
    async waitForWindow(prefix) {
      const deadline = Date.now() + 15_000
      for (;;) {
        for (const candidate of await session.windowHandles()) {
          if (candidate === handle) continue
          await session.switchToWindow(candidate)
          if ((await session.url().catch(() => '')).startsWith(prefix))
            return webDriverTab(session, candidate, { touch })
        }
        if (Date.now() > deadline) throw new Error(`No window at ${prefix}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async windowOpen(prefix) {
      for (const candidate of await session.windowHandles()) {
        if (candidate === handle) continue
        await session.switchToWindow(candidate)
        if ((await session.url().catch(() => '')).startsWith(prefix)) return true
      }
      return false
    },
    async openTab(url) {
      const opened = await session.newWindow()
      await session.switchToWindow(opened)
      await session.navigate(url)
      return webDriverTab(session, opened, { touch })
    },
    async close() {
      await here()
      await session.closeWindow()
    },
  }
}

/** A WebKit browser started for a test file: its session, its first window as a tab, and its end. */
export type WebKitTab = { session: WebDriverSession; tab: EngineTab; stop(): Promise<void> }

/**
 * Starts WebKit (test/e2e/webdriver.ts: Xvfb, WebKitWebDriver, MiniBrowser) with one session, its
 * first window an {@link EngineTab}: on a `screen` of that size, with MiniBrowser's `browserArgs`,
 * and presses as taps with `touch`.
 *
 * @example
 * const webkit = await startWebKitTab({ screen: { width: 390, height: 844 }, touch: true })
 * await webkit.tab.goto(url)
 * await webkit.stop()
 */
export async function startWebKitTab({
  screen,
  browserArgs,
  touch,
}: WebKitDriverOptions & { browserArgs?: readonly string[]; touch?: boolean } = {}): Promise<WebKitTab> {
  const driver = await startWebKitDriver(screen ? { screen } : {})
  try {
    const session = await driver.newSession(browserArgs ? { browserArgs } : {})
    const tab = webDriverTab(session, await session.windowHandle(), { touch: touch ?? false })
    return {
      session,
      tab,
      async stop() {
        await session.stop()
        await driver.stop()
      },
    }
  } catch (error) {
    await driver.stop()
    throw error
  }
}
