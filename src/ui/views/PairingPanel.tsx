import { useEffect, useState } from 'react'
import { startPairing } from '../../core/actions/startPairing.ts'
import type { Config } from '../../core/createConfig.ts'
import { canRetryPairing } from '../../core/pairing/rules.ts'
import { walletLink } from '../../core/walletConnect.ts'
import { QrCode } from '../components/QrCode.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'

export interface PairingWallet {
  id: string
  name: string
  logo: string | undefined
  mobileLink: string | null
  desktopLink: string | null
  webappLink: string | null
}

/** The QR code, copy link, open-the-app and retry of a WalletConnect pairing. */
export function PairingPanel({ config, wallet }: { config: Config; wallet: PairingWallet | undefined }) {
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

  const retry = () => {
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
  const retryReady = canRetryPairing(lastAttempt, config.platform.now())

  return (
    <div className="center">
      {pairing.uri ? (
        <QrCode value={pairing.uri} logo={wallet?.logo} label={en.qrLabel(wallet?.name)} />
      ) : (
        <div className="qr placeholder" role="status">
          {pairing.status === 'creating' ? <span className="spinner" aria-hidden="true" /> : null}
          {pairing.status === 'creating' ? en.preparingLink : null}
        </div>
      )}
      <div role="status" aria-live="polite">
        {pairing.status === 'waiting' ? <p>{en.scanWith(wallet?.name)}</p> : null}
        {pairing.status === 'rejected' ? <p className="error-text">{en.connectionDeclined}</p> : null}
        {pairing.status === 'failed' ? <p className="error-text">{pairing.error?.message}</p> : null}
        {copied ? <p>{en.linkCopied}</p> : null}
      </div>
      <div className="actions" style={{ width: '100%' }}>
        {openHref ? (
          // A real link, so a phone opens the app inside the person's own click.
          <a
            className="primary"
            href={openHref}
            target={isMobile ? '_self' : '_blank'}
            rel="noopener noreferrer"
          >
            {en.openApp(wallet?.name ?? 'wallet')}
          </a>
        ) : null}
        <button type="button" className="secondary" disabled={!pairing.uri} onClick={() => void copy()}>
          {en.copyLink}
        </button>
        {pairing.status === 'rejected' || pairing.status === 'failed' ? (
          <button type="button" className="primary" autoFocus disabled={!retryReady} onClick={retry}>
            {en.tryAgain}
          </button>
        ) : null}
        {wallet && getHref ? (
          <p className="status">
            {en.noApp(wallet.name)}{' '}
            <a href={getHref} target="_blank" rel="noopener noreferrer">
              {en.getIt}
            </a>
          </p>
        ) : null}
      </div>
    </div>
  )
}
