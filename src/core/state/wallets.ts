import type { Connector } from '../../connectors/types.ts'
import type { ErrorSummary } from '../../errors/base.ts'
import type { CatalogueEntry } from '../../protocol/api/catalogue.ts'
import type { ModalOptions } from '../../protocol/config.ts'

/** Wallet Standard wallets found so far, and how to merge them with the browser wallets. */
/** How another ecosystem's wallets are watched (a module loaded only when its networks are configured). */
export interface WalletWatcher {
  watch: (win: Window, onChange: (connectors: readonly Connector[]) => void) => () => void
  merge: WalletStandardFound['merge']
}

/** Wallets found by a {@link WalletWatcher}, with the merge that folds them into the browser wallets. */
export interface WalletStandardFound {
  connectors: readonly Connector[]
  merge: (injected: readonly Connector[], standard: readonly Connector[]) => Connector[]
}

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

/**
 * A catalogue starts `idle` when there is a service to load it from, else `disabled`: the Connect
 * view then loads no catalogue code at all.
 */
export const catalogueStatus = (options: ModalOptions): CatalogueState['status'] =>
  options.apiUrl ? 'idle' : 'disabled'

/** Catalogue wallets for the Connect view. */
export interface CatalogueState {
  status: LoadStatus | 'disabled'
  featured: readonly CatalogueEntry[]
  recommended: readonly CatalogueEntry[]
  /** Wallets in the catalogue (after include/exclude), for "All wallets". */
  count: number
  error: ErrorSummary | undefined
}

/** The AllWallets list: pages loaded so far, or search results. */
export interface WalletListState {
  status: LoadStatus
  entries: readonly CatalogueEntry[]
  count: number
  /** Next page to load (1-based); undefined when everything is loaded. */
  nextPage: number | undefined
  query: string
  error: ErrorSummary | undefined
}

/** The Connect view's catalogue before loading, for these options (also its reset on another service). */
export const initialCatalogue = (options: ModalOptions): CatalogueState => ({
  status: catalogueStatus(options),
  featured: [],
  recommended: [],
  count: 0,
  error: undefined,
})

/** The AllWallets list before its first page (also its reset on another service). */
export const IDLE_WALLET_LIST: WalletListState = {
  status: 'idle',
  entries: [],
  count: 0,
  nextPage: 1,
  query: '',
  error: undefined,
}
