// Account's nag while the embedded wallet has no recovery method; the frame sets it up.
import { useEffect } from 'react'
import { secureWallet } from '../../core/actions/secureWallet.ts'
import type { Config } from '../../core/config.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { ErrorMessage } from './Message.tsx'

/**
 * In user custody without a recovery method, a warning and "Set up recovery", which opens the frame's
 * set-up view (the password never reaches the page), in a `status` region. Stronger, red and in an
 * `alert` region, once the wallet is known to hold funds. While the operator still holds the recovery
 * share (the project left operator custody), it says the site can still recover the wallet instead.
 * Nothing in operator custody, or once a method is set.
 *
 * @example
 * {account.connectorId === 'embedded' ? <RecoveryNag config={config} funded={held} /> : null}
 */
export function RecoveryNag({ config, funded }: { config: Config; funded: boolean }) {
  const { t } = useStrings()
  const { recovery } = useStore(embeddedState(config))
  // A restored session: what the frame told the connector at connect.
  useEffect(() => {
    if (recovery) return
    void config.internal.embedded
      ?.then((connector) => {
        const known = connector.user()?.recovery
        if (known) embeddedState(config).setKey('recovery', known)
      })
      .catch(() => {})
  }, [config, recovery])
  const missing = recovery?.custody === 'user' && !recovery.methods.some((method) => method !== 'operator')
  // The project left operator custody and the operator still holds this wallet's recovery share: a new
  // browser still recovers (through the site), so it is what the site can do that is said, not a loss.
  const operatorHolds = missing && recovery.methods.includes('operator')
  return (
    // A warning is a status; with funds at stake it is an alert (red, announced at once).
    <div
      role={missing && funded && !operatorHolds ? 'alert' : 'status'}
      className="recovery-nag"
      part="recovery-nag"
    >
      {missing ? (
        <>
          {operatorHolds ? (
            <p className="message" id="recovery-nag">
              {t('recoveryOperatorHolds')}
            </p>
          ) : funded ? (
            <ErrorMessage id="recovery-nag">{t('recoveryMissingFunded')}</ErrorMessage>
          ) : (
            <p className="message" id="recovery-nag">
              {t('recoveryMissing')}
            </p>
          )}
          <button
            type="button"
            className={funded && !operatorHolds ? 'primary' : 'secondary'}
            part="set-up-recovery-button"
            aria-describedby="recovery-nag"
            onClick={() => void secureWallet(config, { reason: 'account' }).catch(() => {})}
          >
            {t('setUpRecovery')}
          </button>
        </>
      ) : null}
    </div>
  )
}
