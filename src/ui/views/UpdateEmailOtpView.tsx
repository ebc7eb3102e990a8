import { confirmEmailUpdate } from '../../core/actions/confirmEmailUpdate.ts'
import { navigate } from '../../core/actions/navigate.ts'
import { updateEmail } from '../../core/actions/updateEmail.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { CodeForm } from '../components/CodeForm.tsx'
import { useStore } from '../hooks/useStore.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'
import { useStrings } from '../modal/viewContext.ts'

/**
 * UpdateEmailPrimaryOtp and UpdateEmailSecondaryOtp (SPEC 4): the code sent to the current address,
 * then the one sent to the new address; after that the new address is stored and Account shows it.
 */
export default function UpdateEmailOtpView({ config }: ViewProps) {
  const { t } = useStrings()
  const modal = useStore(config.$modal)
  const state = useStore(embeddedState(config))
  const primary = modal.router.view === 'UpdateEmailPrimaryOtp'
  const newEmail = String(modal.router.data?.email ?? '')
  return (
    <CodeForm
      key={modal.router.view}
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
        if ('action' in answer) navigate(config, 'UpdateEmailSecondaryOtp', { email: newEmail }, 'replace')
        // Back to Account, with the update announced there.
        else navigate(config, 'Account', { notice: 'emailUpdated' }, 'reset')
      }}
    />
  )
}
