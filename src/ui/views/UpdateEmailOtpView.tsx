import { confirmEmailUpdate } from '../../core/actions/confirmEmailUpdate.ts'
import { navigate } from '../../core/actions/navigate.ts'
import { open } from '../../core/actions/open.ts'
import { updateEmail } from '../../core/actions/updateEmail.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { CodeForm } from '../components/CodeForm.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/**
 * UpdateEmailOtp (SPEC 4: VERIFY_PRIMARY_OTP, then VERIFY_SECONDARY_OTP): the code sent to the current
 * address (`step: 'primary'`), then the one sent to the new address (`step: 'secondary'`); after that the new address is stored and Account shows it.
 */
export default function UpdateEmailOtpView({ config }: ViewProps) {
  const { t } = useStrings()
  const modal = useStore(config.$modal)
  const state = useStore(embeddedState(config))
  const primary = modal.router.data?.step !== 'secondary'
  const newEmail = String(modal.router.data?.email ?? '')
  return (
    <CodeForm
      key={primary ? 'primary' : 'secondary'}
      hint={
        primary
          ? t('updateEmailPrimaryHint', { email: state.email ?? '' })
          : t('updateEmailSecondaryHint', { email: newEmail })
      }
      resendAt={state.resendAt}
      now={config.platform.now}
      onResend={() => updateEmail(config, { email: newEmail })}
      onSubmit={async (otp) => {
        const answer = await confirmEmailUpdate(config, { step: primary ? 'primary' : 'secondary', otp })
        if ('action' in answer)
          navigate(config, 'UpdateEmailOtp', { email: newEmail, step: 'secondary' }, 'replace')
        // Account, with the update announced there, and no way Back into the codes.
        else void open(config, { view: 'Account', data: { notice: 'emailUpdated' } })
      }}
    />
  )
}
