import { useEffect, useState } from 'react'
import type { FarcasterChannel } from '../../core/actions/connectFarcaster.ts'
import type { ErrorSummary } from '../../errors/base.ts'
import { summaryOf } from '../components/EmailForm.tsx'
import { EmbeddedScope } from '../components/EmbeddedScope.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { QrCode } from '../components/QrCode.tsx'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** The sign-in's code and its wait load with the view (the frame is the embedded wallet's). */
const loadConnectFarcaster = () => import('../../core/actions/connectFarcaster.ts')

/**
 * ConnectingFarcaster (SPEC 2): the sign-in channel's QR code and its link ("Open Farcaster", copy),
 * the site asking and the wallet's host the Farcaster app will show in its place, then a wait for the visitor's approval in their Farcaster app; connected, the modal goes on as
 * after any embedded sign-in. An expired code offers a fresh one; a decline and every failure show in
 * red, announced, with Try again. Focus starts on the view's main control.
 */
function ConnectingFarcaster({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const [channel, setChannel] = useState<FarcasterChannel | undefined>()
  const [error, setError] = useState<ErrorSummary | undefined>()
  const [copied, setCopied] = useState(false)
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh code (attempt) opens a new channel.
  useEffect(() => {
    const controller = new AbortController()
    setChannel(undefined)
    setError(undefined)
    setCopied(false)
    void loadConnectFarcaster()
      .then(({ connectFarcaster }) =>
        connectFarcaster(config, { onChannel: setChannel, signal: controller.signal }),
      )
      .catch((thrown: unknown) => {
        if (!controller.signal.aborted) setError(summaryOf(thrown))
      })
    return () => controller.abort()
  }, [config, attempt])

  const copy = async () => {
    if (!channel) return
    try {
      await navigator.clipboard.writeText(channel.url)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {}
  }
  const expired = error?.messageId === 'farcasterExpired'
  // The page the person is on; the Farcaster app names the wallet frame's host instead (the sign-in
  // message's domain must be the verifier's), so the view says both, lest the person approve a host they do
  // not recognise.
  const site = config.platform.window?.location.host

  return (
    <div className="center" part="farcaster">
      {error ? null : channel ? (
        <QrCode value={channel.url} label={t('farcasterQrLabel')} />
      ) : (
        <div className="qr placeholder">
          <span className="spinner" aria-hidden="true" /> {t('preparingLink')}
        </div>
      )}
      {channel && !error && site ? (
        <p part="farcaster-site">{t('farcasterSite', { site, wallet: channel.domain })}</p>
      ) : null}
      <div className="live" role="status">
        {channel && !error ? (
          <>
            <p>{t('farcasterScan')}</p>
            <p>
              <span className="spinner" aria-hidden="true" /> {t('farcasterWaiting')}
            </p>
          </>
        ) : null}
        {copied ? <p>{t('linkCopied')}</p> : null}
      </div>
      <div className="live" role="alert">
        {error ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}
      </div>
      <div className="actions">
        {error ? (
          <button
            type="button"
            className="primary"
            autoFocus={autoFocus}
            onClick={() => setAttempt((count) => count + 1)}
          >
            {expired ? t('farcasterNewCode') : t('tryAgain')}
          </button>
        ) : (
          <>
            {channel ? (
              // A real link, so a phone opens the Farcaster app inside the person's own click.
              <a
                className="primary"
                part="farcaster-open"
                href={channel.url}
                target="_blank"
                rel="noopener noreferrer"
                autoFocus={autoFocus}
              >
                {t('openApp', { name: 'Farcaster' })}
              </a>
            ) : null}
            <button
              type="button"
              className="secondary"
              autoFocus={autoFocus && !channel}
              aria-disabled={!channel}
              onClick={() => void copy()}
            >
              {t('copyLink')}
            </button>
          </>
        )}
      </div>
    </div>
  )
}

/** The view in the embedded wallet's words (its catalogue loads with it). */
export default function ConnectingFarcasterView(props: ViewProps) {
  return (
    <EmbeddedScope>
      <ConnectingFarcaster {...props} />
    </EmbeddedScope>
  )
}
