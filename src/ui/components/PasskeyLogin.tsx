// Connect's "Continue with a passkey": opens the frame's passkey view, where the ceremony runs.
import type { Config } from '../../core/createConfig.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import { ErrorMessage } from './Message.tsx'

// The action (and the frame behind it) loads on the click, never before.
const passkeyLogin = () => import('../../core/actions/connectPasskey.ts')

/**
 * The button beside the e-mail field and the social buttons (inside `EmbeddedScope`). A passkey of the
 * wallet's own host is used in the wallet frame, with a click there: this button shows the frame's
 * view (laid over the modal as an approval is); what kept it from opening is shown red and announced.
 *
 * @example
 * {features.email ? <PasskeyLogin config={config} /> : null}
 */
export function PasskeyLogin({ config }: { config: Config }) {
  const strings = useStrings()
  const { passkeyError } = useStore(embeddedState(config))
  return (
    <div className="passkey-login">
      <button
        type="button"
        className="secondary"
        part="passkey-login"
        onClick={() =>
          void passkeyLogin().then(({ connectPasskey }) => connectPasskey(config).catch(() => {}))
        }
      >
        {strings.t('continueWithPasskey')}
      </button>
      <div role="alert">
        {passkeyError ? <ErrorMessage id="passkey-error">{strings.error(passkeyError)}</ErrorMessage> : null}
      </div>
    </div>
  )
}
