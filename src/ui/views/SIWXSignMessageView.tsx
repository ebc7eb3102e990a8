import { shortAddress } from '../../core/format.ts'
import { Avatar } from '../components/Avatar.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/**
 * SIWXSignMessage: the site asks the connected account to sign in. Declining keeps the view with
 * `Signature declined`; Cancel disconnects when sign-in is required, otherwise closes.
 */
export default function SIWXSignMessageView({ config }: ViewProps) {
  const account = useStore(config.$account)
  const siwx = useStore(config.$siwx)
  const options = useStore(config.$options)
  const signing = siwx.status === 'signing'
  const host = config.platform.window?.location.host ?? ''

  const signIn = () =>
    void import('../../core/actions/signIn.ts').then(({ signIn }) => signIn(config)).catch(() => {})
  const cancel = async () => {
    if (options.siwx === 'required') {
      const { disconnect } = await import('../../core/actions/disconnect.ts')
      await disconnect(config)
    } else {
      const { close } = await import('../../core/actions/close.ts')
      await close(config, { force: true })
    }
  }

  return (
    <div className="center">
      {account ? <Avatar address={account.address} className="avatar big" /> : null}
      <h3>{en.signInTitle(host)}</h3>
      <p>{en.signInHint(account ? shortAddress(account.address) : '')}</p>
      <div role="status" aria-live="polite">
        {signing ? (
          <p>
            <span className="spinner" aria-hidden="true" /> {en.signInWaiting}
          </p>
        ) : siwx.error ? (
          <p className="error-text">{siwx.error.message}</p>
        ) : null}
      </div>
      <div className="actions" style={{ width: '100%' }}>
        <button type="button" className="primary" autoFocus disabled={signing} onClick={signIn}>
          {en.signIn}
        </button>
        <button type="button" className="secondary" disabled={signing} onClick={() => void cancel()}>
          {options.siwx === 'required' ? en.cancelAndDisconnect : en.cancel}
        </button>
      </div>
    </div>
  )
}
