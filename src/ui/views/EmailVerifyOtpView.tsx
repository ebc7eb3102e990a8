import { connectEmail } from '../../core/actions/connectEmail.ts'
import { verifyEmailCode } from '../../core/actions/verifyEmailCode.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { CodeForm } from '../components/CodeForm.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/** EmailVerifyOtp: the code mailed for an e-mail sign-in (SPEC 4: VERIFY_OTP). */
export default function EmailVerifyOtpView({ config }: ViewProps) {
  const { t } = useStrings()
  const state = useStore(embeddedState(config))
  const email = state.email ?? ''
  return (
    <CodeForm
      hint={t('verifyOtpHint', { email })}
      resendAt={state.resendAt}
      now={config.platform.now}
      onSubmit={(otp) => verifyEmailCode(config, { otp })}
      onResend={() => connectEmail(config, { email })}
    />
  )
}
