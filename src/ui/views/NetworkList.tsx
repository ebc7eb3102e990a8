import { useEffect, useState } from 'react'
import { loadNetworks, switchNetwork } from '../../core/index.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/** The configured networks; choosing one switches the wallet (or selects it when disconnected). */
export function NetworkList({ config, onSwitched }: ViewProps & { onSwitched?: () => void }) {
  const networks = useStore(config.$networks)
  const current = useStore(config.$network)
  const [pending, setPending] = useState<CaipNetworkId | undefined>()
  const [error, setError] = useState<string | undefined>()

  useEffect(() => {
    void loadNetworks(config).catch(() => {})
  }, [config])

  const choose = async (id: CaipNetworkId) => {
    setPending(id)
    setError(undefined)
    try {
      await switchNetwork(config, { caipNetworkId: id })
      onSwitched?.()
    } catch (failure) {
      setError((failure as { shortMessage?: string }).shortMessage ?? String(failure))
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
              data-network-id={network.caipNetworkId}
              disabled={pending !== undefined}
              autoFocus={first}
              onClick={() => void choose(network.caipNetworkId)}
            >
              <span className="name">{network.name}</span>
              {pending === network.caipNetworkId ? <span className="spinner" aria-hidden="true" /> : null}
              {isCurrent ? <span className="badge">{en.currentNetwork}</span> : null}
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
                {en.namespaceNetworks(group.namespace)}
              </h3>
              {list(group.networks)}
            </section>
          ))}
        </div>
      ) : (
        list(networks)
      )}
      <div className="status" role="status" aria-live="polite">
        {error ? <span className="error-text">{error}</span> : pending ? en.switching : null}
      </div>
    </>
  )
}
