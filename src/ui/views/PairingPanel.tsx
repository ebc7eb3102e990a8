import { useEffect, useState } from 'react'
import { startPairing } from '../../core/actions/startPairing.ts'
import type { Config } from '../../core/createConfig.ts'
import { canRetryPairing } from '../../core/pairing/rules.ts'
import { walletLink } from '../../core/walletConnect.ts'
import { ErrorMessage } from '../components/Message.tsx'
import { QrCode } from '../components/QrCode.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'

export interface PairingWallet {
  id: string
  name: string
  logo: string | undefined
  mobileLink: string | null
  desktopLink: string | null
  webappLink: string | null
}

/**
 * The QR code, copy link, open-the-app and retry of a WalletConnect pairing. Copy link is the main
 * control (it takes focus); a control that cannot act yet says so with `aria-disabled` and keeps
 * focus.
 */
export function PairingPanel({ config, wallet }: { config: Config; wallet: PairingWallet | undefined }) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const pairing = useStore(config.$pairing)
  const [copied, setCopied] = useState(false)
  const [lastAttempt, setLastAttempt] = useState(0)
  const [, tick] = useState(0)

  useEffect(() => {
    void startPairing(config, wallet ? { wallet: { id: wallet.id, name: wallet.name } } : {})
    setLastAttempt(config.platform.now())
    return () => config.internal.stopPairing?.()
  }, [config, wallet])

  // Retry becomes available 1 s after an attempt.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-render once, 1 s after each attempt.
  useEffect(() => {
    const timer = setTimeout(() => tick((n) => n + 1), 1_000)
    return () => clearTimeout(timer)
  }, [lastAttempt])

  const retryReady = canRetryPairing(lastAttempt, config.platform.now())
  const retry = () => {
    if (!retryReady) return
    setLastAttempt(config.platform.now())
    void startPairing(config, wallet ? { wallet: { id: wallet.id, name: wallet.name } } : {})
  }
  const copy = async () => {
    if (!pairing.uri) return
    try {
      await navigator.clipboard.writeText(pairing.uri)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {}
  }

  const isMobile = config.platform.isMobile()
  const appLink = isMobile
    ? (wallet?.mobileLink ?? wallet?.webappLink)
    : (wallet?.desktopLink ?? wallet?.webappLink)
  const openHref = pairing.uri && appLink ? walletLink(appLink, pairing.uri) : undefined
  const getHref =
    wallet?.webappLink ?? (wallet?.mobileLink?.startsWith('https://') ? wallet.mobileLink : undefined)
  const failed = pairing.status === 'rejected' || pairing.status === 'failed'

  return (
    <div className="center">
      {pairing.uri ? (
        <QrCode
          value={pairing.uri}
          logo={wallet?.logo}
          label={wallet ? t('qrLabel', { name: wallet.name }) : t('qrLabelAnyWallet')}
        />
      ) : (
        <div className="qr placeholder">
          {pairing.status === 'creating' ? <span className="spinner" aria-hidden="true" /> : null}
          {pairing.status === 'creating' ? t('preparingLink') : null}
        </div>
      )}
      <div className="live" role="status">
        {pairing.status === 'waiting' ? (
          <p>{wallet ? t('scanWith', { name: wallet.name }) : t('scanWithAnyWallet')}</p>
        ) : null}
        {copied ? <p>{t('linkCopied')}</p> : null}
      </div>
      <div className="live" role="alert">
        {pairing.status === 'rejected' ? <ErrorMessage>{t('connectionDeclined')}</ErrorMessage> : null}
        {pairing.status === 'failed' && pairing.error ? (
          <ErrorMessage>{strings.error(pairing.error)}</ErrorMessage>
        ) : null}
      </div>
      <div className="actions">
        {openHref && wallet ? (
          // A real link, so a phone opens the app inside the person's own click.
          <a
            className="primary"
            href={openHref}
            target={isMobile ? '_self' : '_blank'}
            rel="noopener noreferrer"
          >
            {t('openApp', { name: wallet.name })}
          </a>
        ) : null}
        <button
          type="button"
          className="secondary"
          autoFocus={autoFocus && !failed}
          aria-disabled={!pairing.uri}
          onClick={() => void copy()}
        >
          {t('copyLink')}
        </button>
        {failed ? (
          <button
            type="button"
            className="primary"
            autoFocus={autoFocus}
            aria-disabled={!retryReady}
            onClick={retry}
          >
            {t('tryAgain')}
          </button>
        ) : null}
        {wallet && getHref ? (
          <p className="status">
            {t('noApp', { name: wallet.name })}{' '}
            <a href={getHref} target="_blank" rel="noopener noreferrer">
              {t('getIt')}
            </a>
          </p>
        ) : null}
      </div>
    </div>
  )
}
