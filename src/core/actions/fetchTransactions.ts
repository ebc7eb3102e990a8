import type { MapStore } from 'nanostores'
import { map } from 'nanostores'
import { summarizeError, TransactionsFetchError } from '../../errors/index.ts'
import type { Config } from '../config.ts'
import type { ActivityState } from '../state/activity.ts'
import { IDLE_ACTIVITY } from '../state/activity.ts'

export type { ActivityState }

import { WalletServiceNotConfiguredError } from '../../errors/service.ts'
import { dataApi } from '../tokenList.ts'

/**
 * The Activity list's store of a config, created on first use (a page whose visitors never open
 * Account never makes it).
 *
 * @example
 * const { status, transactions } = activityState(config).get()
 */
export function activityState(config: Config): MapStore<ActivityState> {
  config.internal.activity ??= map<ActivityState>(IDLE_ACTIVITY)
  return config.internal.activity
}

export type FetchTransactionsParameters = {
  /** Read the page after those already in the list (on scroll), instead of the first one. */
  more?: boolean
}

export type FetchTransactionsReturnType = ActivityState

export type FetchTransactionsErrorType = TransactionsFetchError

/**
 * Reads the connected account's transactions on the connected network from the companion service
 * (`GET /blockchain/v1/transactions`), newest first: the first page, or with `more` the next one by
 * its cursor, appended. A failure (no service, the service down, an answer that does not check)
 * leaves `Failed to fetch transactions` in the store, which the list shows as its empty state
 * (SPEC 8). An answer for an account or network that is no longer the connected one is dropped.
 *
 * @example
 * await fetchTransactions(config)                 // the first page
 * await fetchTransactions(config, { more: true }) // the next one, as the visitor scrolls
 */
export async function fetchTransactions(
  config: Config,
  parameters: FetchTransactionsParameters = {},
): Promise<FetchTransactionsReturnType> {
  const state = activityState(config)
  const account = config.$account.get()
  const network = config.$network.get()
  if (!account || !network) return state.get()
  const key = `${network.caipNetworkId} ${account.address}`
  const current = state.get()
  const more = parameters.more === true && current.key === key
  if (more && (current.next === null || current.status === 'more' || current.status === 'loading'))
    return current
  state.set(
    more
      ? { ...current, status: 'more' }
      : { status: 'loading', key, transactions: current.key === key ? current.transactions : [], next: null },
  )
  try {
    const api = await dataApi(config)
    if (!api)
      throw new WalletServiceNotConfiguredError({
        details: 'No companion service (api-url and project-id) to read transactions from',
      })
    const page = await api.transactions({
      chainId: network.caipNetworkId,
      account: account.address,
      ...(more && current.next !== null ? { cursor: current.next } : {}),
    })
    if (state.get().key !== key) return state.get()
    state.set({
      status: 'ready',
      key,
      transactions: more ? [...current.transactions, ...page.data] : page.data,
      next: page.next,
    })
  } catch (cause) {
    if (state.get().key !== key) return state.get()
    // A failed first page is the list's empty state (SPEC 8); a failed next page keeps what is shown.
    state.set({
      ...(more ? state.get() : { key, transactions: [], next: null }),
      status: 'error',
      error: summarizeError(new TransactionsFetchError({ cause })),
    })
  }
  return state.get()
}
