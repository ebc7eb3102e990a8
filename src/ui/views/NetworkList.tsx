import { useEffect, useState } from 'react'
import { loadNetworks, switchNetwork } from '../../core/index.ts'
import type { ErrorSummary } from '../../errors/index.ts'
import { summarizeError, toBaseError } from '../../errors/index.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { CheckIcon } from '../components/Icons.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/**
 * The configured networks; choosing one switches the wallet (or selects it when disconnected).
 * While a switch waits for the wallet the rows are `aria-disabled`, so the focused one keeps focus.
 */
export function NetworkList({ config, onSwitched }: ViewProps & { onSwitched?: () => void }) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const networks = useStore(config.$networks)
  const current = useStore(config.$network)
  const [pending, setPending] = useState<CaipNetworkId | undefined>()
  const [error, setError] = useState<ErrorSummary | undefined>()

  useEffect(() => {
    void loadNetworks(config).catch(() => {})
  }, [config])

  const choose = async (id: CaipNetworkId) => {
    if (pending) return
    setPending(id)
    setError(undefined)
    try {
      await switchNetwork(config, { caipNetworkId: id })
      onSwitched?.()
    } catch (failure) {
      setError(summarizeError(toBaseError(failure)))
    } finally {
      setPending(undefined)
    }
  }

  const groups = [...new Set(networks.map((network) => network.chainNamespace))].map((namespace) => ({
    namespace,
    networks: networks.filter((network) => network.chainNamespace === namespace),
  }))
  let index = 0
  const list = (items: typeof networks) => (
    <ul className="list" part="network-list">
      {items.map((network) => {
        const isCurrent = network.caipNetworkId === current?.caipNetworkId
        const first = index++ === 0
        return (
          <li key={network.caipNetworkId}>
            <button
              type="button"
              className="item"
              part="network-item"
              aria-current={isCurrent}
              aria-disabled={pending !== undefined}
              data-network-id={network.caipNetworkId}
              autoFocus={autoFocus && first}
              onClick={() => void choose(network.caipNetworkId)}
            >
              <span className="name">{network.name}</span>
              {pending === network.caipNetworkId ? <span className="spinner" aria-hidden="true" /> : null}
              {isCurrent ? (
                <>
                  <span className="check">
                    <CheckIcon />
                  </span>
                  <span className="badge">{t('currentNetwork')}</span>
                </>
              ) : null}
            </button>
          </li>
        )
      })}
    </ul>
  )

  return (
    <>
      {groups.length > 1 ? (
        <div className="sections">
          {groups.map((group) => (
            <section key={group.namespace} aria-labelledby={`networks-${group.namespace}`}>
              <h3 className="section-title" id={`networks-${group.namespace}`}>
                {t('namespaceNetworks', { namespace: group.namespace })}
              </h3>
              {list(group.networks)}
            </section>
          ))}
        </div>
      ) : (
        list(networks)
      )}
      <div className="status" role="status">
        {pending ? t('switching') : null}
      </div>
      <div className="live" role="alert">
        {error ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}
      </div>
    </>
  )
}
