import { useEffect, useState } from 'react'
import { startPairing } from '../../core/actions/startPairing.ts'
import type { Config } from '../../core/createConfig.ts'
import { watchAppLaunch } from '../../core/pairing/launch.ts'
import { appLink, mobileOs, storeLink, type WalletAppLinks } from '../../core/pairing/links.ts'
import { canRetryPairing } from '../../core/pairing/rules.ts'
import pairingLoaders from '../../shared/i18n/pairingLoaders.ts'
import { CatalogueScope } from '../components/CatalogueScope.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { QrCode } from '../components/QrCode.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'

export interface PairingWallet extends WalletAppLinks {
  id: string
  name: string
  logo: string | undefined
}

/**
 * The QR code, copy link, open-the-app and retry of a WalletConnect pairing. Copy link is the main
 * control (it takes focus); a control that cannot act yet says so with `aria-disabled` and keeps
 * focus. It uses the pairing in progress (on a phone, the one the wallet's row was tapped with) and
 * leaves it running when it goes: the pairing stops with the modal, or on a view that does not pair.
 * On a phone, an app that did not open ~2 s after its link was followed is said so, with the app's
 * store page for the phone (App Store, Google Play) and the link to copy. Its words are a catalogue of
 * their own (`src/shared/locales/pairing/`), fetched while the pairing is being made.
 */
export function PairingPanel({ config, wallet }: { config: Config; wallet: PairingWallet | undefined }) {
  const walletId = wallet?.id
  const walletName = wallet?.name
  useEffect(() => {
    void startPairing(config, walletId && walletName ? { wallet: { id: walletId, name: walletName } } : {})
  }, [config, walletId, walletName])
  return (
    <CatalogueScope loaders={pairingLoaders}>
      <PairingControls config={config} wallet={wallet} />
    </CatalogueScope>
  )
}

function PairingControls({ config, wallet }: { config: Config; wallet: PairingWallet | undefined }) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const pairing = useStore(config.$pairing)
  const [copied, setCopied] = useState(false)
  // The pairing started as the panel came: a retry waits 1 s from here.
  const [lastAttempt, setLastAttempt] = useState(() => config.platform.now())
  const [, tick] = useState(0)

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
    void startPairing(config, {
      wallet: wallet ? { id: wallet.id, name: wallet.name } : undefined,
      fresh: true,
    })
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
  const openHref = pairing.uri && wallet ? appLink(wallet, pairing.uri, { isMobile }) : undefined
  const launch = wallet && pairing.launch?.walletId === wallet.id ? pairing.launch.status : undefined
  // Where to get the app: on a phone its store page for the phone (App Store, Google Play), else its web
  // app or website.
  const os = isMobile ? mobileOs(config.platform.window?.navigator) : undefined
  const storeHref = wallet && os ? storeLink(wallet, os) : undefined
  const getHref = wallet
    ? (storeHref ??
      wallet.webapp_link ??
      (wallet.mobile_link?.startsWith('https://') ? wallet.mobile_link : undefined))
    : undefined
  const offerStore = launch === 'stayed' && storeHref !== undefined
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
        {pairing.status === 'waiting' && launch === 'left' && wallet ? (
          <p>{t('approveInApp', { name: wallet.name })}</p>
        ) : pairing.status === 'waiting' && launch === 'stayed' && wallet ? (
          <p>{t('appDidNotOpen', { name: wallet.name })}</p>
        ) : pairing.status === 'waiting' ? (
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
          // A real link, so a phone opens the app inside the person's tap.
          <a
            className="primary"
            href={openHref}
            target={isMobile ? '_self' : '_blank'}
            rel="noopener noreferrer"
            onClick={isMobile ? () => watchAppLaunch(config, wallet.id) : undefined}
          >
            {t('openApp', { name: wallet.name })}
          </a>
        ) : null}
        {wallet && offerStore ? (
          <a className="secondary" href={storeHref} target="_blank" rel="noopener noreferrer">
            {t(os === 'ios' ? 'getOnAppStore' : 'getOnGooglePlay', { name: wallet.name })}
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
        {wallet && getHref && !offerStore ? (
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
