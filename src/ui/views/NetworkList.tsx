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

  return (
    <>
      <ul className="list" part="network-list">
        {networks.map((network, index) => {
          const isCurrent = network.caipNetworkId === current?.caipNetworkId
          return (
            <li key={network.caipNetworkId}>
              <button
                type="button"
                className="item"
                part="network-item"
                aria-current={isCurrent}
                data-network-id={network.caipNetworkId}
                disabled={pending !== undefined}
                autoFocus={index === 0}
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
      <div className="status" role="status" aria-live="polite">
        {error ? <span className="error-text">{error}</span> : pending ? en.switching : null}
      </div>
    </>
  )
}
