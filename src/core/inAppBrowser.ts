/**
 * The in-app browsers of social and messaging apps: the web view an app opens a tapped link in.
 *
 * Social sign-in cannot finish in them: Google and others refuse OAuth in embedded web views
 * (`disallowed_useragent`), and the sign-in window either never opens or opens without the
 * `window.opener` it reports back to. So the e-mail section hides those buttons there and offers the
 * e-mail sign-in, or the page in the phone's own browser ({@link openInBrowser}).
 *
 * Each app is recognised by what it adds to its web view: a token in the user agent, or an object it
 * injects (Telegram). Detection is a hint, never a security decision.
 */

/** The in-app browsers we know. */
export type InAppBrowserId = 'telegram' | 'farcaster' | 'instagram' | 'facebook' | 'x' | 'line' | 'wechat'

/** The phone's system, as far as leaving the app goes. */
export type InAppBrowserOs = 'ios' | 'android' | 'other'

export interface InAppBrowser {
  id: InAppBrowserId
  /** The app's name as it writes it (shown in the notice). */
  name: string
  os: InAppBrowserOs
}

/** The parts of `window` the detection reads (a test passes a plain object). */
export interface InAppBrowserWindow {
  navigator: { userAgent: string }
  TelegramWebviewProxy?: unknown
  Telegram?: { WebApp?: { initData?: unknown } }
}

const names: Record<InAppBrowserId, string> = {
  telegram: 'Telegram',
  farcaster: 'Farcaster',
  instagram: 'Instagram',
  facebook: 'Facebook',
  x: 'X',
  line: 'LINE',
  wechat: 'WeChat',
}

/**
 * The user-agent tokens, most specific first: Instagram's and Messenger's web views also carry
 * Facebook's `FBAN`/`FBAV` on some builds, so Instagram is tried before Facebook.
 */
const byUserAgent: readonly (readonly [RegExp, InAppBrowserId])[] = [
  [/\bTelegram-(Android|iOS)\//, 'telegram'],
  [/\b(Warpcast|Farcaster)\//, 'farcaster'],
  [/\bInstagram\s/, 'instagram'],
  [/\bFB_IAB\/|\bFBAN\/|\bFBAV\/|\bFB4A\b|\bFBIOS\b|\[FB/, 'facebook'],
  [/\bTwitter for iP(hone|ad)\b|\bTwitterAndroid\b/, 'x'],
  [/\bLine\/\d/, 'line'],
  [/\bMicroMessenger\//, 'wechat'],
]

function osOf(userAgent: string): InAppBrowserOs {
  if (/\bAndroid\b/.test(userAgent)) return 'android'
  if (/\b(iPhone|iPad|iPod)\b|\biOS\b/.test(userAgent)) return 'ios'
  return 'other'
}

/**
 * The in-app browser this page runs in, if it is one we know; `undefined` in a browser of its own
 * (or on a server).
 *
 * @example
 * const inApp = detectInAppBrowser(window) // { id: 'instagram', name: 'Instagram', os: 'ios' }
 */
export function detectInAppBrowser(win: InAppBrowserWindow | undefined): InAppBrowser | undefined {
  if (!win) return undefined
  const userAgent = win.navigator.userAgent
  const os = osOf(userAgent)
  const found = byUserAgent.find(([pattern]) => pattern.test(userAgent))?.[1]
  if (found) return { id: found, name: names[found], os }
  // Telegram's in-app browser injects its bridge; a Telegram mini app has `Telegram.WebApp` with the
  // launch data (the object alone is only the page's own copy of Telegram's script).
  const telegramApp = win.Telegram?.WebApp?.initData
  if (win.TelegramWebviewProxy !== undefined || (typeof telegramApp === 'string' && telegramApp !== ''))
    return { id: 'telegram', name: names.telegram, os }
  return undefined
}

/**
 * How to get the page into the phone's own browser:
 * - `link`: a link that leaves the app when tapped (`href`).
 * - `copy`: nothing a page can do leaves this app (iOS web views have no documented way out): the
 *   person copies `url` and opens it in their browser, or uses the app's own "Open in browser" menu.
 */
export type OpenInBrowser = { kind: 'link'; href: string } | { kind: 'copy'; url: string }

/**
 * The way out of `browser` for the page at `pageUrl`.
 *
 * - Android: an `intent://` URL (Chrome's documented intent syntax, which Android web views hand to
 *   the system) with the page's scheme, no package (the person's default browser takes it) and
 *   `S.browser_fallback_url` set to the page itself, so a view that cannot start it stays on the page.
 * - LINE (both systems): its documented `openExternalBrowser=1` query parameter.
 * - iOS otherwise: copy the link; the `x-safari-https:` scheme is undocumented and may stop working.
 *
 * @example
 * const way = openInBrowser(inApp, location.href)
 * if (way.kind === 'link') anchor.href = way.href
 */
export function openInBrowser(browser: InAppBrowser, pageUrl: string): OpenInBrowser {
  const url = new URL(pageUrl)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'copy', url: pageUrl }
  if (browser.id === 'line') {
    const external = new URL(url)
    external.searchParams.set('openExternalBrowser', '1')
    return { kind: 'link', href: external.href }
  }
  if (browser.os === 'android') {
    const scheme = url.protocol.slice(0, -1)
    const rest = `${url.host}${url.pathname}${url.search}`
    // The page's own fragment cannot ride along: `#Intent;` is the intent's.
    return {
      kind: 'link',
      href: `intent://${rest}#Intent;scheme=${scheme};action=android.intent.action.VIEW;S.browser_fallback_url=${encodeURIComponent(pageUrl)};end`,
    }
  }
  return { kind: 'copy', url: pageUrl }
}
