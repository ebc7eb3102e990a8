import { navigate } from '../../core/actions/navigate.ts'
import { updateEmail } from '../../core/actions/updateEmail.ts'
import { EmailForm } from '../components/EmailForm.tsx'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/** UpdateEmailWallet: the new address; codes follow, to the current address then to the new one. */
export default function UpdateEmailWalletView({ config }: ViewProps) {
  return (
    <div className="form">
      <p className="hint-text">{en.updateEmailHint}</p>
      <EmailForm
        label={en.newEmail}
        submitLabel={en.continueWithEmail}
        autoFocus
        part="update-email-form"
        onSubmit={async (email) => {
          const { action } = await updateEmail(config, { email })
          navigate(
            config,
            action === 'VERIFY_PRIMARY_OTP' ? 'UpdateEmailPrimaryOtp' : 'UpdateEmailSecondaryOtp',
            {
              email,
            },
          )
        }}
      />
    </div>
  )
}
