// Account's "Export wallet" and, after an export, "Delete wallet"; the frame does the rest.
import { deleteWallet } from '../../core/actions/deleteWallet.ts'
import { exportWallet } from '../../core/actions/exportWallet.ts'
import type { Config } from '../../core/config.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { ErrorMessage } from './Message.tsx'

/**
 * The embedded wallet's way out, in Account's words (inside `AccountScope`): the keys are shown by
 * the frame on its own origin, never here; a refusal (a cooldown, deleting before an export) is shown
 * red and announced.
 *
 * @example
 * {account.connectorId === 'embedded' ? <LeaveWallet config={config} /> : null}
 */
export function LeaveWallet({ config }: { config: Config }) {
  const strings = useStrings()
  const { exported, leaveError } = useStore(embeddedState(config))
  return (
    <>
      <button
        type="button"
        className="secondary"
        part="export-wallet-button"
        onClick={() => void exportWallet(config).catch(() => {})}
      >
        {strings.t('exportWallet')}
      </button>
      {exported ? (
        <button
          type="button"
          className="secondary danger"
          part="delete-wallet-button"
          onClick={() => void deleteWallet(config).catch(() => {})}
        >
          {strings.t('deleteWallet')}
        </button>
      ) : null}
      <div role="alert" className="leave-error">
        {leaveError ? <ErrorMessage id="leave-error">{strings.error(leaveError)}</ErrorMessage> : null}
      </div>
    </>
  )
}
