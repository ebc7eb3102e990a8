import type { Config } from '../config.ts'
import type { AppLaunch } from '../state/pairing.ts'
import { APP_OPEN_CHECK_MS } from './rules.ts'

/**
 * Follows a link to a wallet's app on a phone: `$pairing.launch` is `opening`, then `left` when the page
 * goes away (hidden or `pagehide`: the app came to the front), or `stayed` when about 2 s later the page
 * is still in front with the focus (nothing handled the link: the app is likely not installed). While
 * something else holds the focus (a system prompt "Open in …?"), the verdict waits for the page to hide
 * or get the focus back. A page that hides after `stayed` (the prompt was answered late) counts as
 * `left`. Ends with the pairing or the next tap.
 *
 * @example
 * watchAppLaunch(config, entry.id) // in the tap's click handler
 */
export function watchAppLaunch(config: Config, walletId: string): void {
  const session = config.internal.pairing
  const win = config.platform.window
  if (!session || !win) return
  session.endLaunch?.()
  const doc = win.document
  const set = (status: AppLaunch['status']) => {
    if (config.internal.pairing === session) config.$pairing.setKey('launch', { walletId, status })
  }
  const status = () => config.$pairing.get().launch?.status
  let checked = false
  const onHidden = () => {
    if (doc.visibilityState === 'hidden') {
      set('left')
      end()
    }
  }
  const onPagehide = () => {
    set('left')
    end()
  }
  const onFocus = () => {
    if (checked && status() === 'opening' && doc.visibilityState === 'visible') set('stayed')
  }
  const timer = setTimeout(() => {
    checked = true
    if (doc.visibilityState === 'visible' && doc.hasFocus()) set('stayed')
  }, APP_OPEN_CHECK_MS)
  doc.addEventListener('visibilitychange', onHidden)
  win.addEventListener('pagehide', onPagehide)
  win.addEventListener('focus', onFocus)
  const end = () => {
    clearTimeout(timer)
    doc.removeEventListener('visibilitychange', onHidden)
    win.removeEventListener('pagehide', onPagehide)
    win.removeEventListener('focus', onFocus)
    if (session.endLaunch === end) session.endLaunch = undefined
  }
  session.endLaunch = end
  set('opening')
}
