import { summarizeError, ValidationError } from '../../errors/index.ts'
import { WALLET_SEARCH_MAX, WALLETS_PAGE_SIZE } from '../../protocol/constants.ts'
import { getWallets } from '../../services/catalogue.ts'
import type { Config } from '../config.ts'
import { serviceClient } from '../service.ts'
import { reportServiceError } from './reportServiceError.ts'

/**
 * Loads the next page of AllWallets (40 per page), or, with a query, the search results (up to
 * 100). A new query replaces the list; an answer to an older query is ignored.
 *
 * @example
 * await loadWallets(config)                     // next page
 * await loadWallets(config, { query: 'rain' })  // search
 */
export async function loadWallets(
  config: Config,
  parameters: { query?: string; retry?: boolean } = {},
): Promise<void> {
  const http = serviceClient(config)
  const current = config.$walletList.get()
  const query = (parameters.query ?? current.query).trim()
  const fresh = query !== current.query
  if (!http) {
    const error = new ValidationError('No wallet service configured', { messageId: 'noWalletService' })
    config.$walletList.set({ ...current, status: 'error', error: summarizeError(error), query })
    return
  }
  if (!fresh && !parameters.retry && (current.status === 'loading' || current.nextPage === undefined)) return
  const page = fresh ? 1 : (current.nextPage ?? 1)
  config.internal.walletListSeq += 1
  const seq = config.internal.walletListSeq
  config.$walletList.set({
    ...current,
    ...(fresh ? { entries: [], count: 0 } : {}),
    query,
    nextPage: page,
    status: 'loading',
    error: undefined,
  })
  const { includeWalletIds, excludeWalletIds } = config.$options.get()
  try {
    const result = await getWallets(http, {
      page: query ? 1 : page,
      entries: query ? WALLET_SEARCH_MAX : WALLETS_PAGE_SIZE,
      include: includeWalletIds,
      exclude: excludeWalletIds,
      search: query || undefined,
    })
    if (seq !== config.internal.walletListSeq) return
    const entries = query ? result.data : [...config.$walletList.get().entries, ...result.data]
    const more = !query && entries.length < result.count && result.data.length > 0
    config.$walletList.set({
      status: 'ready',
      entries,
      count: result.count,
      nextPage: more ? page + 1 : undefined,
      query,
      error: undefined,
    })
  } catch (error) {
    if (seq !== config.internal.walletListSeq) return
    const base = reportServiceError(config, error)
    config.$walletList.set({ ...config.$walletList.get(), status: 'error', error: summarizeError(base) })
  }
}
