import { useId, useRef, useState } from 'react'
import type { Config } from '../../core/createConfig.ts'
import { type InAppBrowser, openInBrowser } from '../../core/inAppBrowser.ts'
import { useStrings } from '../modal/viewContext.ts'

/**
 * In place of the social buttons inside an app's own browser (Instagram, Facebook, X, LINE, WeChat,
 * Telegram, Farcaster), where social sign-in cannot finish (see core/inAppBrowser.ts): says so, points
 * to the e-mail sign-in when the site has it, and offers the way into the phone's own browser: a
 * link that leaves the app (Android's intent, LINE's parameter), or else the page's link to copy,
 * shown in a read-only field so it can be copied by hand where the clipboard is refused.
 */
export function InAppNotice({
  config,
  browser,
  email,
}: {
  config: Config
  browser: InAppBrowser
  /** Whether the e-mail sign-in is offered above. */
  email: boolean
}) {
  const { t } = useStrings()
  const id = useId()
  const field = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState(false)
  const pageUrl = config.platform.window?.location.href ?? ''
  const way = pageUrl ? openInBrowser(browser, pageUrl) : undefined
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(pageUrl)
      setCopied(true)
    } catch {
      // The clipboard refused (some web views do): the link is selected for the person to copy.
      field.current?.focus()
      field.current?.select()
    }
  }
  return (
    <div className="in-app" part="in-app-notice">
      <p className="hint-text">{t(email ? 'inAppSocialEmail' : 'inAppSocialOnly', { app: browser.name })}</p>
      {way?.kind === 'link' ? (
        <a className="secondary" part="open-in-browser" href={way.href}>
          {t('openInBrowser')}
        </a>
      ) : way ? (
        <>
          <p className="hint-text">{t('inAppCopyHint', { app: browser.name })}</p>
          <div className="field">
            <label htmlFor={`${id}link`}>{t('pageLink')}</label>
            <input
              ref={field}
              id={`${id}link`}
              readOnly
              value={way.url}
              dir="ltr"
              onFocus={(event) => event.currentTarget.select()}
            />
          </div>
          <button type="button" className="secondary" part="open-in-browser" onClick={() => void copy()}>
            {t('copyLink')}
          </button>
        </>
      ) : null}
      <div role="status">{copied ? t('linkCopied') : null}</div>
    </div>
  )
}
