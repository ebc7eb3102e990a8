import { useEffect, useState } from 'react'
import { balanceKey } from '../../core/balanceKey.ts'
import type { Config } from '../../core/createConfig.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { CloseIcon } from './Icons.tsx'
import { ErrorMessage } from './Message.tsx'

/** How long a toast stays. */
const TOAST_MS = 6_000

/**
 * The `Token Balance Unavailable` toast (SPEC section 8): shown over the bottom of the panel for 6 s
 * when the connected account's balances cannot be read, and again when the modal opens while they are
 * still unavailable. It sits in a live region that is always there, so it is announced; a button
 * dismisses it.
 */
export function BalanceToast({ config }: { config: Config }) {
  const { t } = useStrings()
  const account = useStore(config.$account)
  const network = useStore(config.$network)
  const balances = useStore(config.$balances)
  const balance =
    account && network ? balances[balanceKey(network.caipNetworkId, account.address)] : undefined
  // A failure is known by when it was stamped; each new one shows the toast again.
  const failedAt = balance?.status === 'error' ? balance.fetchedAt : undefined
  const [shown, setShown] = useState<number | undefined>()

  useEffect(() => {
    if (failedAt === undefined) return
    setShown(failedAt)
    const timer = setTimeout(() => setShown(undefined), TOAST_MS)
    return () => clearTimeout(timer)
  }, [failedAt])

  return (
    <div className="toast-region" role="alert">
      {shown !== undefined ? (
        <div className="toast" part="toast">
          <ErrorMessage>{t('error.TokenBalanceUnavailableError')}</ErrorMessage>
          <button
            type="button"
            className="icon-button"
            aria-label={t('dismiss')}
            onClick={() => setShown(undefined)}
          >
            <CloseIcon />
          </button>
        </div>
      ) : null}
    </div>
  )
}
