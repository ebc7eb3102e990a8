import { useEffect, useMemo, useRef, useState } from 'react'
import { loadWallets } from '../../core/actions/loadWallets.ts'
import { selectWallet } from '../../core/actions/selectWallet.ts'
import type { Connector } from '../../core/createConfig.ts'
import { walletImageUrl } from '../../core/walletImageUrl.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import { WALLET_SEARCH_DEBOUNCE_MS, WALLETS_PAGE_IMAGES } from '../../protocol/constants.ts'
import { ErrorMessage } from '../components/Message.tsx'
import { VirtualList } from '../components/VirtualList.tsx'
import { preloadImages, WalletImage } from '../components/WalletImage.tsx'
import { WalletRow } from '../components/WalletRow.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

type Row = { kind: 'installed'; connector: Connector } | { kind: 'entry'; entry: CatalogueEntry }

const ROW_HEIGHT = 64
const LIST_HEIGHT = 384

/**
 * AllWallets: the whole catalogue in pages of 40 with infinite scroll, search after a 300 ms pause
 * (up to 100 results), installed wallets first and once, an empty state and a retry on failure. On a
 * phone a wallet's row is a link that opens its app with the pairing made while the view is open.
 */
export default function AllWalletsView({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const list = useStore(config.$walletList)
  const connectors = useStore(config.$connectors).filter(
    (connector) => connector.type === 'injected' || connector.type === 'walletStandard',
  )
  const [text, setText] = useState(list.query)
  const preloaded = useRef(0)

  // First page on the first open; coming back keeps what was loaded. (Not on every empty `ready`
  // or `error`: an empty search result or a failure would then ask again and again.)
  useEffect(() => {
    if (list.status === 'idle') void loadWallets(config, { retry: true })
  }, [config, list.status])

  useEffect(() => {
    if (text.trim() === list.query) return
    const timer = setTimeout(() => void loadWallets(config, { query: text }), WALLET_SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [config, text, list.query])

  // Images for the first 20 of each page are fetched as the page arrives; the rest load when shown.
  useEffect(() => {
    if (list.entries.length < preloaded.current) preloaded.current = 0
    const pageStart = preloaded.current
    const urls = list.entries
      .slice(pageStart, pageStart + WALLETS_PAGE_IMAGES)
      .map((entry) => walletImageUrl(config, entry.image_id))
      .filter((url): url is string => url !== undefined)
    preloaded.current = list.entries.length
    if (urls.length > 0) void preloadImages(urls)
  }, [config, list.entries])

  const rows = useMemo<Row[]>(() => {
    const query = list.query.toLowerCase()
    const installed = connectors.filter((connector) => connector.name.toLowerCase().includes(query))
    const rdns = new Set(connectors.map((connector) => connector.rdns).filter(Boolean))
    return [
      ...installed.map((connector): Row => ({ kind: 'installed', connector })),
      ...list.entries
        .filter((entry) => !entry.rdns || !rdns.has(entry.rdns))
        .map((entry): Row => ({ kind: 'entry', entry })),
    ]
  }, [connectors, list.entries, list.query])

  const searching = list.query !== '' || text.trim() !== ''
  const settled = list.status === 'ready' && text.trim() === list.query

  return (
    <div className="all-wallets">
      <input
        type="search"
        className="search"
        part="search"
        placeholder={t('searchWallets')}
        aria-label={t('searchWallets')}
        value={text}
        autoFocus={autoFocus}
        onChange={(event) => setText(event.target.value)}
      />
      <div className="visually-hidden" role="status" aria-live="polite">
        {settled ? t('walletCount', { count: rows.length }) : ''}
      </div>
      <div role="alert">
        {list.status === 'error' && list.error ? (
          <div className="empty">
            <strong>{t('catalogueFailed')}</strong>
            <ErrorMessage>{strings.error(list.error)}</ErrorMessage>
          </div>
        ) : null}
      </div>
      {list.status === 'error' ? (
        <button type="button" className="secondary" onClick={() => void loadWallets(config, { retry: true })}>
          {t('tryAgain')}
        </button>
      ) : null}
      {settled && rows.length === 0 ? (
        <div className="empty" role="status">
          <strong>{t('noWalletsFound')}</strong>
          {t('noWalletsFoundHint')}
        </div>
      ) : (
        <VirtualList
          // A new search starts at the top, not where the previous list was scrolled to.
          key={list.query}
          items={rows}
          rowHeight={ROW_HEIGHT}
          maxHeight={LIST_HEIGHT}
          label={t('allWallets')}
          rowKey={(row) => (row.kind === 'installed' ? `installed:${row.connector.id}` : row.entry.id)}
          onNearEnd={() => {
            if (!searching && list.status === 'ready' && list.nextPage !== undefined) void loadWallets(config)
          }}
          renderRow={(row) =>
            row.kind === 'installed' ? (
              <WalletRow
                id={row.connector.id}
                name={row.connector.name}
                badge={t('installed')}
                image={
                  row.connector.icon ? (
                    <img src={row.connector.icon} alt="" width={40} height={40} />
                  ) : (
                    <WalletImage src={undefined} />
                  )
                }
                onSelect={() => void selectWallet(config, { connector: row.connector })}
              />
            ) : (
              <WalletRow
                id={row.entry.id}
                name={row.entry.name}
                image={<WalletImage src={walletImageUrl(config, row.entry.image_id)} lazy />}
                onSelect={() => void selectWallet(config, { entry: row.entry })}
                catalogue={{ config, entry: row.entry }}
              />
            )
          }
          footer={
            list.status === 'loading' ? (
              <div className="fallback small" role="status">
                <span className="spinner" aria-hidden="true" />{' '}
                {list.entries.length ? t('loadingMore') : t('loadingWallets')}
              </div>
            ) : null
          }
        />
      )}
    </div>
  )
}
