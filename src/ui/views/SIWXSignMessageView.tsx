import { shortAddress } from '../../shared/format.ts'
import { Avatar } from '../components/Avatar.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/**
 * SIWXSignMessage: the site asks the connected account to sign in. Declining keeps the view with
 * `Signature declined`; Cancel disconnects when sign-in is required, otherwise closes.
 */
export default function SIWXSignMessageView({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const account = useStore(config.$account)
  const siwx = useStore(config.$siwx)
  const options = useStore(config.$options)
  const signing = siwx.status === 'signing'
  const host = config.platform.window?.location.host ?? ''

  const signIn = () => {
    if (signing) return
    void import('../../core/actions/signIn.ts').then(({ signIn }) => signIn(config)).catch(() => {})
  }
  const cancel = async () => {
    if (signing) return
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
      {account ? <Avatar address={account.address} /> : null}
      <h3>{t('signInTitle', { host })}</h3>
      <p>{t('signInHint', { address: account ? shortAddress(account.address) : '' })}</p>
      <div className="live" role="status">
        {signing ? (
          <p>
            <span className="spinner" aria-hidden="true" /> {t('signInWaiting')}
          </p>
        ) : null}
      </div>
      <div className="live" role="alert">
        {!signing && siwx.error ? <ErrorMessage>{strings.error(siwx.error)}</ErrorMessage> : null}
      </div>
      <div className="actions">
        <button
          type="button"
          className="primary"
          autoFocus={autoFocus}
          aria-disabled={signing}
          onClick={signIn}
        >
          {t('signIn')}
        </button>
        <button type="button" className="secondary" aria-disabled={signing} onClick={() => void cancel()}>
          {options.siwx === 'required' ? t('cancelAndDisconnect') : t('cancel')}
        </button>
      </div>
    </div>
  )
}
