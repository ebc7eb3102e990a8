import { useEffect, useRef } from 'react'
import { navigate } from '../../core/actions/navigate.ts'
import type { Config, Connector } from '../../core/createConfig.ts'
import { recentWallets } from '../../core/recentWallets.ts'
import { walletImageUrl } from '../../core/walletImageUrl.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import { WalletImage } from '../components/WalletImage.tsx'
import { WalletRow } from '../components/WalletRow.tsx'
import { useModule } from '../hooks/useModule.ts'
import { useStore } from '../hooks/useStore.ts'
import { loadCatalogueLazily } from '../modal/catalogue.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

// Selecting and the catalogue load lazily: the dialog's first paint needs neither.
const select = (config: Config, choice: { connector: Connector } | { entry: CatalogueEntry }) =>
  void import('../../core/actions/selectWallet.ts').then(({ selectWallet }) => selectWallet(config, choice))

// Connect's e-mail sign-in (the embedded wallet), a chunk of its own: a page without it never fetches it.
const loadEmailSection = () => import('../components/EmailSection.tsx')

/**
 * Connect: recent wallets, browser wallets, featured and recommended catalogue wallets, then
 * "All wallets" with the catalogue's count. A wallet appears once: catalogue entries installed as
 * browser wallets (same rdns) are shown among the browser wallets only. The first row shown when
 * the view opens takes focus; rows arriving later (the catalogue) never take it away. On a phone the
 * catalogue rows are links that open the wallet's app with a pairing made while the view is open
 * (`PhoneWalletRow`); a wallet's own in-app browser shows as a browser wallet and connects directly.
 */
export default function ConnectView({ config }: ViewProps) {
  const { t, number } = useStrings()
  const autoFocus = useAutoFocus()
  const connectors = useStore(config.$connectors).filter(
    (connector) => connector.type === 'injected' || connector.type === 'walletStandard',
  )
  const options = useStore(config.$options)
  const catalogue = useStore(config.$catalogue)
  const opening = useRef(true)
  useEffect(() => {
    opening.current = false
  }, [])
  let focusTaken = false
  const takesFocus = () => {
    if (!autoFocus || !opening.current || focusTaken) return false
    focusTaken = true
    return true
  }

  // Loads on open (unless the pointer or focus on the button started it), and again when the page
  // points the modal at another service or project. Browser wallets show without waiting for it.
  const idle = catalogue.status === 'idle'
  useEffect(() => {
    if (idle) loadCatalogueLazily(config)
  }, [config, idle])

  const installedRdns = new Set(connectors.map((connector) => connector.rdns).filter(Boolean))
  const notInstalled = (entry: CatalogueEntry) => !entry.rdns || !installedRdns.has(entry.rdns)
  const shown = new Set<string>()
  const once = <T extends { id: string }>(items: readonly T[]) =>
    items.filter((item) => {
      if (shown.has(item.id)) return false
      shown.add(item.id)
      return true
    })

  const connectorIds = new Set(connectors.map((connector) => connector.id))
  const catalogueById = new Map(
    [...catalogue.featured, ...catalogue.recommended].map((entry) => [entry.id, entry]),
  )
  const recent = recentWallets(config).filter(
    (wallet) => !connectorIds.has(wallet.id) && catalogueById.has(wallet.id),
  )
  const recentEntries = once(recent.map((wallet) => catalogueById.get(wallet.id) as CatalogueEntry))
  const browser = once(connectors)
  const featured = once(catalogue.featured.filter(notInstalled))
  const recommended = once(catalogue.recommended.filter(notInstalled))

  const entryRow = (entry: CatalogueEntry, badge?: string) => (
    <li key={entry.id}>
      <WalletRow
        id={entry.id}
        name={entry.name}
        badge={badge}
        autoFocus={takesFocus()}
        image={<WalletImage src={walletImageUrl(config, entry.image_id)} />}
        onSelect={() => select(config, { entry })}
        catalogue={{ config, entry }}
      />
    </li>
  )

  // E-mail sign-in (the embedded wallet), its own chunk. Its field takes focus only when no wallet row
  // would (a phone's keyboard should not pop up unasked); it arrives after the first render, so the
  // focus is kept for it meanwhile (see EmailForm's takeFocus).
  const emailOn =
    (options.features.email || options.features.socials || options.features.farcaster) &&
    options.frameUrl &&
    options.projectId
  const EmailSection = useModule(emailOn ? loadEmailSection : undefined)
  const emailTakesFocus = !!emailOn && !recentEntries.length && !browser.length
  if (emailTakesFocus) takesFocus()

  return (
    <div className="sections">
      {EmailSection ? <EmailSection config={config} takeFocus={emailTakesFocus} /> : null}
      {recentEntries.length > 0 ? (
        <section aria-labelledby="recent-title">
          <h3 className="section-title" id="recent-title">
            {t('recent')}
          </h3>
          <ul className="list">{recentEntries.map((entry) => entryRow(entry, t('recent')))}</ul>
        </section>
      ) : null}
      <section aria-labelledby="browser-title">
        <h3 className="section-title" id="browser-title">
          {t('browserWallets')}
        </h3>
        {browser.length === 0 ? (
          <div className="empty" role="status">
            <strong>{t('noBrowserWallets')}</strong>
            {t('noBrowserWalletsHint')}
          </div>
        ) : (
          <ul className="list" part="wallet-list">
            {browser.map((connector) => (
              <li key={connector.id}>
                <WalletRow
                  id={connector.id}
                  name={connector.name}
                  badge={t('installed')}
                  autoFocus={takesFocus()}
                  image={
                    connector.icon ? (
                      <img src={connector.icon} alt="" width={40} height={40} />
                    ) : (
                      <WalletImage src={undefined} />
                    )
                  }
                  onSelect={() => select(config, { connector })}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
      {featured.length + recommended.length > 0 ? (
        <section aria-labelledby="popular-title">
          <h3 className="section-title" id="popular-title">
            {t('popularWallets')}
          </h3>
          <ul className="list">
            {featured.map((entry) => entryRow(entry))}
            {recommended.map((entry) => entryRow(entry))}
          </ul>
        </section>
      ) : null}
      {options.relayUrl || options.projectId || options.walletConnectProjectId ? (
        <button
          type="button"
          className="item"
          part="wallet-item"
          autoFocus={takesFocus()}
          onClick={() => navigate(config, 'ConnectingWalletConnectBasic')}
        >
          <span className="wallet-icon qr-icon" aria-hidden="true" />
          <span className="name">{t('walletConnect')}</span>
          <span className="badge">{t('scanWithPhone')}</span>
        </button>
      ) : null}
      {catalogue.status === 'error' ? (
        <div className="empty" role="alert">
          <strong>{t('catalogueFailed')}</strong>
          <button type="button" className="secondary" onClick={() => loadCatalogueLazily(config, true)}>
            {t('tryAgain')}
          </button>
        </div>
      ) : null}
      {catalogue.status === 'loading' ? (
        <div className="fallback small" role="status">
          <span className="spinner" aria-hidden="true" /> {t('loadingWallets')}
        </div>
      ) : null}
      {catalogue.status === 'ready' ? (
        <button
          type="button"
          className="item"
          part="all-wallets"
          autoFocus={takesFocus()}
          onClick={() => navigate(config, 'AllWallets')}
        >
          <span className="wallet-icon grid" aria-hidden="true" />
          <span className="name">{t('allWallets')}</span>
          <span className="badge">
            <span className="visually-hidden">{t('walletCount', { count: catalogue.count })}</span>
            <span aria-hidden="true">{number(catalogue.count)}</span>
          </span>
        </button>
      ) : null}
    </div>
  )
}
