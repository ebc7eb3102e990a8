import { navigate } from '../../core/actions/navigate.ts'
import { updateEmail } from '../../core/actions/updateEmail.ts'
import { EmailForm } from '../components/EmailForm.tsx'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** UpdateEmailWallet: the new address; codes follow, to the current address then to the new one. */
export default function UpdateEmailWalletView({ config }: ViewProps) {
  const { t } = useStrings()
  return (
    <div className="form">
      <p className="hint-text">{t('updateEmailHint')}</p>
      <EmailForm
        label={t('newEmail')}
        submitLabel={t('continueWithEmail')}
        takeFocus
        part="update-email-form"
        onSubmit={async (email) => {
          const { action } = await updateEmail(config, { email })
          navigate(config, 'UpdateEmailOtp', {
            email,
            step: action === 'VERIFY_PRIMARY_OTP' ? 'primary' : 'secondary',
          })
        }}
      />
    </div>
  )
}
