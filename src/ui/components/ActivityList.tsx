import { useEffect, useRef } from 'react'
import { activityState, fetchTransactions } from '../../core/actions/fetchTransactions.ts'
import { parseAmount } from '../../core/amount.ts'
import type { Config } from '../../core/createConfig.ts'
import type { HistoryTransaction } from '../../protocol/api/history.ts'
import { shortAddress } from '../../shared/format.ts'
import activityLoaders from '../../shared/i18n/activityLoaders.ts'
import type { Strings } from '../../shared/i18n/strings.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { activityStyles } from '../theme/activityStyles.ts'
import { CatalogueScope } from './CatalogueScope.tsx'
import { ErrorMessage } from './Message.tsx'

const operationKeys = {
  send: 'activitySend',
  receive: 'activityReceive',
  self: 'activitySelf',
  trade: 'activityTrade',
  onramp: 'activityOnramp',
} as const

/** `−1.500 ETH`, `+298.123 USDC`: each transfer of the transaction, signed as seen from the account. */
function amounts(strings: Strings, transaction: HistoryTransaction): string {
  return transaction.transfers
    .map((transfer) => {
      const { numeric, decimals } = transfer.quantity
      const value = parseAmount(numeric, decimals) ?? 0n
      const sign = transfer.direction === 'in' ? '+' : transfer.direction === 'out' ? '−' : ''
      return `${sign}${strings.balance(value, decimals)} ${transfer.fungible_info.symbol}`
    })
    .join(', ')
}

/** The other side of a send or receipt (shortened; names come with the name service), else nothing. */
function counterparty(strings: Strings, transaction: HistoryTransaction): string {
  const { operationType } = transaction.metadata
  const first = transaction.transfers[0]
  if (!first || (operationType !== 'send' && operationType !== 'receive' && operationType !== 'onramp'))
    return ''
  const address = shortAddress(first.counterparty)
  return strings.t(first.direction === 'in' ? 'activityFrom' : 'activityTo', { address })
}

function Rows({ config }: { config: Config }) {
  const strings = useStrings()
  const { t } = strings
  const state = useStore(activityState(config))
  const account = useStore(config.$account)
  const network = useStore(config.$network)
  const more = useRef<HTMLButtonElement>(null)

  // The first page for this account on this network, again when either changes.
  const address = account?.address
  const chainId = network?.caipNetworkId
  useEffect(() => {
    if (address && chainId) void fetchTransactions(config)
  }, [config, address, chainId])

  // The next page when the end of the list scrolls into view (the modal's body scrolls).
  const hasMore = state.status === 'ready' && state.next !== null
  useEffect(() => {
    const target = more.current
    if (!hasMore || !target || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => {
      // Reached by keyboard, "Show more" waits for Enter: reading the next page as the focus scrolls it
      // into view would take the button, and the focus, away from under the person.
      if ((target.getRootNode() as Document | ShadowRoot).activeElement === target) return
      if (entries.some((entry) => entry.isIntersecting)) void fetchTransactions(config, { more: true })
    })
    observer.observe(target)
    return () => observer.disconnect()
  }, [config, hasMore])

  const { transactions } = state
  const loadingFirst = state.status === 'loading' && transactions.length === 0
  return (
    <section
      aria-labelledby="activity-title"
      aria-busy={state.status === 'loading' || state.status === 'more'}
    >
      <h3 className="section-title" id="activity-title">
        {t('activity')}
      </h3>
      {transactions.length > 0 ? (
        <ul className="activity" part="activity-list">
          {transactions.map((transaction) => {
            const minedAt = new Date(transaction.metadata.minedAt)
            const other = counterparty(strings, transaction)
            return (
              <li
                key={transaction.id}
                data-transaction={transaction.metadata.hash}
                data-operation={transaction.metadata.operationType}
              >
                <span className="activity-main">
                  <span className="activity-kind">
                    {t(operationKeys[transaction.metadata.operationType])}
                  </span>
                  <bdi className="activity-amount">{amounts(strings, transaction)}</bdi>
                </span>
                <span className="activity-detail">
                  {other ? <bdi title={transaction.transfers[0]?.counterparty}>{other}</bdi> : <span />}
                  <time dateTime={transaction.metadata.minedAt}>{strings.date(minedAt)}</time>
                </span>
              </li>
            )
          })}
        </ul>
      ) : null}
      <div role="status" className="activity-status">
        {loadingFirst ? t('activityLoading') : state.status === 'more' ? t('activityLoadingMore') : ''}
        {state.status === 'ready' && transactions.length === 0 ? t('activityEmpty') : ''}
      </div>
      <div role="alert">
        {state.status === 'error' && state.error ? (
          <ErrorMessage>{strings.error(state.error)}</ErrorMessage>
        ) : null}
      </div>
      {state.status === 'error' ? (
        <button
          type="button"
          className="secondary"
          onClick={() => void fetchTransactions(config, { more: transactions.length > 0 })}
        >
          {t('activityRetry')}
        </button>
      ) : null}
      {hasMore || state.status === 'more' ? (
        // Scrolling it into view reads the next page; keyboard users reach it with Tab. It stays while
        // that page loads (busy), so focus on it is not lost.
        <button
          type="button"
          ref={more}
          className="secondary"
          part="activity-more"
          aria-disabled={hasMore ? undefined : true}
          onClick={() => {
            if (hasMore) void fetchTransactions(config, { more: true })
          }}
        >
          {t('activityMore')}
        </button>
      ) : null}
    </section>
  )
}

/**
 * Account's Activity list (SPEC 2 and 4): the connected account's transactions on the connected
 * network from the companion service, newest first; loading, empty, the next page by cursor as the
 * visitor scrolls to its end, `Failed to fetch transactions` as its empty state on error (SPEC 8).
 * Each row: what happened (sent, received, swapped, bought), the amounts and tokens, the other side
 * (shortened address), and when. Its own chunk and catalogue, loaded when Account shows.
 *
 * @example
 * const ActivityList = useModule(() => import('../components/ActivityList.tsx'))
 * {ActivityList ? <ActivityList config={config} /> : null}
 */
export default function ActivityList({ config }: { config: Config }) {
  return (
    <CatalogueScope loaders={activityLoaders} styles={activityStyles}>
      <Rows config={config} />
    </CatalogueScope>
  )
}
