import { connect } from '../../core/index.ts'
import { WalletIcon } from '../components/Icons.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** ConnectingExternal: waiting for the wallet, then retry on rejection or the wallet's error. */
export default function ConnectingExternalView({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
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
      <h3>{connector ? t('continueIn', { name: connector.name }) : t('continueInWallet')}</h3>
      <div className="live" role="status">
        {!state || state.status === 'waiting' ? (
          <p>
            <span className="spinner" aria-hidden="true" /> {t('acceptInWallet')}
          </p>
        ) : null}
      </div>
      <div className="live" role="alert">
        {state?.status === 'rejected' ? (
          <>
            <ErrorMessage>{t('connectionDeclined')}</ErrorMessage>
            <p>{t('declinedHint')}</p>
          </>
        ) : state?.status === 'failed' && state.error ? (
          <>
            <ErrorMessage>{t('connectionFailed')}</ErrorMessage>
            <p data-error-code={state.error.code}>{strings.error(state.error)}</p>
          </>
        ) : null}
      </div>
      {state && state.status !== 'waiting' ? (
        <button type="button" className="primary" autoFocus={autoFocus} onClick={retry}>
          {t('tryAgain')}
        </button>
      ) : null}
    </div>
  )
}
