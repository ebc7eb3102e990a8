import { connect } from '../../core/index.ts'
import { WalletIcon } from '../components/Icons.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/** ConnectingExternal: waiting for the wallet, then retry on rejection or the wallet's error. */
export default function ConnectingExternalView({ config }: ViewProps) {
  const modal = useStore(config.$modal)
  const connectors = useStore(config.$connectors)
  const connecting = useStore(config.$connecting)
  const connectorId = modal.router.data?.connectorId
  const connector = connectors.find((candidate) => candidate.id === connectorId)
  const state = connecting?.connectorId === connectorId ? connecting : undefined
  const retry = () => {
    if (connector) connect(config, { connector }).catch(() => {})
  }

  return (
    <div className="center">
      {connector?.icon ? (
        <img className="wallet-icon" src={connector.icon} alt="" width={72} height={72} />
      ) : (
        <span className="wallet-icon">
          <WalletIcon />
        </span>
      )}
      <h3>{en.continueIn(connector?.name ?? 'your wallet')}</h3>
      <div role="status" aria-live="polite" className="center" style={{ padding: 0 }}>
        {state?.status === 'rejected' ? (
          <>
            <p className="error-text">{en.connectionDeclined}</p>
            <p>{en.declinedHint}</p>
          </>
        ) : state?.status === 'failed' ? (
          <>
            <p className="error-text">{en.connectionFailed}</p>
            <p data-error-code={state.error?.code}>{state.error?.message}</p>
          </>
        ) : (
          <p>
            <span className="spinner" aria-hidden="true" /> {en.acceptInWallet}
          </p>
        )}
      </div>
      {state && state.status !== 'waiting' ? (
        <button type="button" className="primary" autoFocus onClick={retry}>
          {en.tryAgain}
        </button>
      ) : null}
    </div>
  )
}
