import { summarizeError } from '../../errors/index.ts'
import { FEATURED_WALLETS_DEFAULT, RECOMMENDED_WALLETS, WALLETS_PAGE_SIZE } from '../../protocol/constants.ts'
import { getWallets } from '../../services/catalogue.ts'
import type { Config } from '../config.ts'
import { serviceClient } from '../service.ts'
import { reportServiceError } from './reportServiceError.ts'

/**
 * Loads what the Connect view shows from the catalogue: featured wallets (`featured-wallet-ids` in
 * their order, else the catalogue's first 4), 4 recommended, and the count for "All wallets".
 * `include-wallet-ids` and `exclude-wallet-ids` apply to all of it. Without `api-url` the
 * catalogue is `disabled`; a failure leaves the browser wallets usable and shows a retry.
 *
 * @example
 * await loadCatalogue(config)
 */
export async function loadCatalogue(config: Config, parameters: { force?: boolean } = {}): Promise<void> {
  const http = serviceClient(config)
  const state = config.$catalogue.get()
  if (!http) {
    config.$catalogue.setKey('status', 'disabled')
    return
  }
  if (!parameters.force && (state.status === 'loading' || state.status === 'ready')) return
  config.$catalogue.set({ ...state, status: 'loading', error: undefined })
  const { featuredWalletIds, includeWalletIds, excludeWalletIds } = config.$options.get()
  const filters = { include: includeWalletIds, exclude: excludeWalletIds }
  try {
    const [first, chosen] = await Promise.all([
      getWallets(http, { page: 1, entries: WALLETS_PAGE_SIZE, ...filters }),
      featuredWalletIds.length > 0
        ? getWallets(http, {
            page: 1,
            entries: Math.min(featuredWalletIds.length, 100),
            include: featuredWalletIds,
            exclude: excludeWalletIds,
          })
        : undefined,
    ])
    const featured = chosen
      ? featuredWalletIds.flatMap((id) => chosen.data.filter((entry) => entry.id === id))
      : first.data.slice(0, FEATURED_WALLETS_DEFAULT)
    const shown = new Set(featured.map((entry) => entry.id))
    const recommended = first.data.filter((entry) => !shown.has(entry.id)).slice(0, RECOMMENDED_WALLETS)
    config.$catalogue.set({ status: 'ready', featured, recommended, count: first.count, error: undefined })
  } catch (error) {
    const base = reportServiceError(config, error)
    config.$catalogue.set({ ...config.$catalogue.get(), status: 'error', error: summarizeError(base) })
  }
}
