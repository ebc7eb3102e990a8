/**
 * A small W3C WebDriver (classic, over HTTP) client with `fetch`, for WebKit: Debian's
 * `WebKitWebDriver` (package `webkit2gtk-driver`) driving its MiniBrowser under Xvfb. Only what the
 * engine journeys use: a session, navigation, scripts (shadow roots are reached from a script; a script
 * may return an element, which WebDriver hands back as a reference), real pointer and key input through
 * the Actions API, frames and windows.
 *
 * @example
 * const driver = await startWebKitDriver()
 * const session = await driver.newSession()
 * await session.navigate('http://127.0.0.1:5173/')
 * await session.stop(); await driver.stop()
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { freePort } from './harness.ts'

/** What WebDriver answers for an element a script returned (the W3C element key). */
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf'
export type ElementRef = { [ELEMENT_KEY]: string }
export const isElementRef = (value: unknown): value is ElementRef =>
  typeof value === 'object' && value !== null && ELEMENT_KEY in value

/** A WebDriver error answer (`error`, `message`), with the command that got it. */
export class WebDriverError extends Error {
  override name = 'WebDriverError'
  constructor(
    readonly command: string,
    readonly error: string,
    message: string,
  ) {
    super(`${command}: ${error}: ${message}`)
  }
}

/** Debian's paths; WEBKIT_DRIVER_PATH and WEBKIT_BROWSER_PATH override them. */
export const webkitDriverPath = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver'
export const webkitBrowserPath =
  process.env.WEBKIT_BROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'
export const xvfbPath = process.env.XVFB_PATH ?? '/usr/bin/Xvfb'
/**
 * A window manager on the Xvfb display, as on a person's desktop: without one, a window a page opens
 * (the embedded wallet's approval window) never gets the focus, and `document.hasFocus()` stays false
 * in it. matchbox is small and gives each new window the focus.
 */
export const windowManagerPath = process.env.WINDOW_MANAGER_PATH ?? '/usr/bin/matchbox-window-manager'

/** Why WebKit cannot run here (a missing program), or undefined when it can. */
export function webkitMissing(): string | undefined {
  for (const [name, path, override] of [
    ['WebKitWebDriver', webkitDriverPath, 'WEBKIT_DRIVER_PATH'],
    ['MiniBrowser', webkitBrowserPath, 'WEBKIT_BROWSER_PATH'],
    ['Xvfb', xvfbPath, 'XVFB_PATH'],
    ['matchbox-window-manager', windowManagerPath, 'WINDOW_MANAGER_PATH'],
  ] as const) {
    if (!existsSync(path))
      return `${name} is not installed at ${path}: run \`bash scripts/install-browsers.sh\` (as root with apt) or set ${override}`
  }
  return undefined
}

type Answer<T> = { value: T }

/** A started WebDriver session: every command of the journeys. */
export class WebDriverSession {
  constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  private async command<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.base}/session/${this.id}${path}`, {
      method,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : null,
    })
    const answer = (await response.json()) as Answer<T | { error: string; message: string }>
    const value = answer.value as { error?: string; message?: string }
    if (!response.ok || (value && typeof value === 'object' && typeof value.error === 'string'))
      throw new WebDriverError(
        `${method} ${path}`,
        value.error ?? String(response.status),
        value.message ?? '',
      )
    return answer.value as T
  }

  navigate(url: string): Promise<null> {
    return this.command('POST', '/url', { url })
  }

  url(): Promise<string> {
    return this.command('GET', '/url')
  }

  /**
   * Runs `fn` in the current browsing context with `args` (element references arrive as elements),
   * awaiting a promise it returns (WebDriver's execute script does).
   */
  execute<T, A extends unknown[]>(fn: (...args: A) => T, ...args: A): Promise<Awaited<T>> {
    return this.executeScript(`return (${fn.toString()}).apply(null, arguments)`, args)
  }

  /** Runs the body of a function, `script`, with `args` (WebDriver's execute script, as it is given). */
  executeScript<T>(script: string, args: readonly unknown[] = []): Promise<T> {
    return this.command('POST', '/execute/sync', { script, args })
  }

  /** A real click (pointer move, down, up) at viewport point (`x`, `y`), as a person's mouse. */
  async clickAt(x: number, y: number): Promise<void> {
    await this.pointer('mouse', { x, y }, [], 0)
  }

  /**
   * A finger's tap at viewport point (`x`, `y`): WebDriver's touch pointer (down and up in place).
   * WebKitGTK delivers it as a mouse press (see test/e2e/webkit-phone.test.ts).
   */
  async tapAt(x: number, y: number): Promise<void> {
    await this.pointer('touch', { x, y }, [], 0)
  }

  /**
   * A finger down at `from`, moved through each of `path` (each move taking `stepMs`), lifted at the
   * last point.
   */
  async touch(from: { x: number; y: number }, path: readonly { x: number; y: number }[], stepMs: number) {
    await this.pointer('touch', from, path, stepMs)
  }

  /** A pointer of `type` down at `from`, moved through each of `path` (`stepMs` a move), up at the last. */
  private async pointer(
    type: 'mouse' | 'touch',
    from: { x: number; y: number },
    path: readonly { x: number; y: number }[],
    stepMs: number,
  ): Promise<void> {
    const at = (point: { x: number; y: number }) => ({ x: Math.round(point.x), y: Math.round(point.y) })
    await this.command('POST', '/actions', {
      actions: [
        {
          type: 'pointer',
          id: type === 'mouse' ? 'mouse' : 'finger',
          parameters: { pointerType: type },
          actions: [
            { type: 'pointerMove', duration: 0, origin: 'viewport', ...at(from) },
            { type: 'pointerDown', button: 0 },
            ...path.map((point) => ({
              type: 'pointerMove',
              duration: stepMs,
              origin: 'viewport',
              ...at(point),
            })),
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    })
    await this.releaseActions()
  }

  /** The browser's Back (its button, or a phone's back gesture). */
  back(): Promise<null> {
    return this.command('POST', '/back')
  }

  /**
   * A new top-level window: answers its handle (the current window stays current). A window, not a
   * tab: MiniBrowser shows one tab of a window, and input to a hidden tab never arrives.
   */
  async newWindow(): Promise<string> {
    const { handle } = await this.command<{ handle: string; type: string }>('POST', '/window/new', {
      type: 'window',
    })
    return handle
  }

  /**
   * Releases the pointer and keys after an input: the input may have closed the window it landed in
   * (an approval window closes once it has the person's answer), and then nothing is left to release.
   */
  private async releaseActions(): Promise<void> {
    await this.command('DELETE', '/actions').catch((error: unknown) => {
      if (!(error instanceof WebDriverError && error.error === 'no such window')) throw error
    })
  }

  /** Keys typed into whatever has focus. */
  async keys(text: string): Promise<void> {
    await this.command('POST', '/actions', {
      actions: [
        {
          type: 'key',
          id: 'keyboard',
          actions: [...text].flatMap((value) => [
            { type: 'keyDown', value },
            { type: 'keyUp', value },
          ]),
        },
      ],
    })
    await this.releaseActions()
  }

  /** Into the iframe `frame` (an element reference, in a shadow root or not); `null` for the top. */
  switchToFrame(frame: ElementRef | null): Promise<null> {
    return this.command('POST', '/frame', { id: frame })
  }

  windowHandle(): Promise<string> {
    return this.command('GET', '/window')
  }

  windowHandles(): Promise<string[]> {
    return this.command('GET', '/window/handles')
  }

  switchToWindow(handle: string): Promise<null> {
    return this.command('POST', '/window', { handle })
  }

  /** Closes the current window; answers the handles left. */
  closeWindow(): Promise<string[]> {
    return this.command('DELETE', '/window')
  }

  async stop(): Promise<void> {
    await fetch(`${this.base}/session/${this.id}`, { method: 'DELETE' }).catch(() => undefined)
  }
}

/** Waits until `url` answers at all (the driver listening). */
async function reachable(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A free X display number (no lock file in /tmp), from 90 up. */
function freeDisplay(): number {
  for (let display = 90; display < 200; display++)
    if (!existsSync(`/tmp/.X${display}-lock`) && !existsSync(`/tmp/.X11-unix/X${display}`)) return display
  throw new Error('No free X display between :90 and :199')
}

const stopped = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve()
    else {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    }
  })

export type WebKitDriver = {
  /**
   * A new MiniBrowser session (its own ephemeral profile, automation mode); `browserArgs` are more of
   * MiniBrowser's command-line options (its WebKit settings: `--user-agent=…`, say).
   */
  newSession(options?: {
    browserArgs?: readonly string[]
    /** WebDriver's: when navigating and every command after it wait for the page (default `normal`: its load). */
    pageLoadStrategy?: 'normal' | 'eager' | 'none'
  }): Promise<WebDriverSession>
  stop(): Promise<void>
}

export type WebKitDriverOptions = {
  /**
   * The display's size (default 1280 × 1024). The window manager gives each window the whole display,
   * so a 390 px wide display is a phone's width.
   */
  screen?: { width: number; height: number }
}

/**
 * Starts Xvfb on a free display with a window manager, and WebKitWebDriver on a free loopback port;
 * sessions run MiniBrowser on that display.
 */
export async function startWebKitDriver({
  screen: size = { width: 1280, height: 1024 },
}: WebKitDriverOptions = {}): Promise<WebKitDriver> {
  const display = freeDisplay()
  const xvfb = spawn(
    xvfbPath,
    [`:${display}`, '-screen', '0', `${size.width}x${size.height}x24`, '-nolisten', 'tcp'],
    {
      stdio: 'ignore',
    },
  )
  const screen = `:${display}`
  // The window manager connects once the display's socket is there.
  for (let wait = 0; wait < 100 && !existsSync(`/tmp/.X11-unix/X${display}`); wait++)
    await new Promise((resolve) => setTimeout(resolve, 50))
  const windowManager = spawn(windowManagerPath, ['-use_titlebar', 'no'], {
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: screen },
  })
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const driver = spawn(webkitDriverPath, [`--port=${port}`, '--host=127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, DISPLAY: screen },
  })
  let stderr = ''
  driver.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const stop = async () => {
    await stopped(driver)
    await stopped(windowManager)
    await stopped(xvfb)
  }
  try {
    await reachable(`${base}/status`, 15_000)
  } catch (error) {
    await stop()
    throw new Error(`WebKitWebDriver did not start: ${stderr}`, { cause: error })
  }
  return {
    async newSession({ browserArgs = [], pageLoadStrategy } = {}) {
      const response = await fetch(`${base}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          capabilities: {
            alwaysMatch: {
              browserName: 'MiniBrowser',
              ...(pageLoadStrategy ? { pageLoadStrategy } : {}),
              'webkitgtk:browserOptions': {
                binary: webkitBrowserPath,
                args: ['--automation', ...browserArgs],
              },
            },
          },
        }),
      })
      const answer = (await response.json()) as {
        value: { sessionId?: string; error?: string; message?: string }
      }
      if (!answer.value.sessionId)
        throw new WebDriverError(
          'POST /session',
          answer.value.error ?? '',
          `${answer.value.message} ${stderr}`,
        )
      return new WebDriverSession(base, answer.value.sessionId)
    },
    stop,
  }
}
