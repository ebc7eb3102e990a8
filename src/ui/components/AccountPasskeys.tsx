// Account's "Passkeys": opens the frame's list of the person's passkeys, with Add and Remove.
import type { Config } from '../../core/createConfig.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { ErrorMessage } from './Message.tsx'

// The action loads on the click (the frame is already there for a signed-in embedded wallet).
const passkeyActions = () => import('../../core/actions/managePasskeys.ts')

/**
 * The embedded wallet's passkeys, in Account's words (inside `AccountScope`). The list, Add and
 * Remove are the frame's, on its own origin: adding runs WebAuthn for the frame's host, which needs a
 * click inside the frame, and the passkeys' ids stay there. What kept the view from opening is shown
 * red and announced.
 *
 * @example
 * {account.connectorId === 'embedded' ? <AccountPasskeys config={config} /> : null}
 */
export function AccountPasskeys({ config }: { config: Config }) {
  const strings = useStrings()
  const { passkeyError } = useStore(embeddedState(config))
  return (
    <>
      <button
        type="button"
        className="secondary"
        part="passkeys-button"
        onClick={() =>
          void passkeyActions().then(({ managePasskeys }) => managePasskeys(config).catch(() => {}))
        }
      >
        {strings.t('passkeys')}
      </button>
      <div role="alert" className="passkey-error">
        {passkeyError ? (
          <ErrorMessage id="account-passkey-error">{strings.error(passkeyError)}</ErrorMessage>
        ) : null}
      </div>
    </>
  )
}
