import { useEffect, useState } from 'react'
import { connectEmail } from '../../core/actions/connectEmail.ts'
import { waitForDevice } from '../../core/actions/waitForDevice.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import type { ErrorSummary } from '../../errors/base.ts'
import { summaryOf } from '../components/EmailForm.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { useStore } from '../hooks/useStore.ts'
import { useStrings } from '../modal/viewContext.ts'
import type { ViewProps } from '../modal/viewProps.ts'

/**
 * EmailVerifyDevice: a known address on a new browser (SPEC 4: VERIFY_DEVICE), after its code was
 * proven. The mailed link's page shows where the request came from and approves this browser only with
 * the code shown here; the view waits for it and continues by itself. Focus goes to its heading: the
 * one control (a new code, which starts again) waits out the cooldown first.
 */
export default function EmailVerifyDeviceView({ config }: ViewProps) {
  const strings = useStrings()
  const { t } = strings
  const state = useStore(embeddedState(config))
  const email = state.email ?? ''
  const [error, setError] = useState<ErrorSummary | undefined>()
  const [clock, setClock] = useState(config.platform.now())
  const waitSeconds = Math.max(0, Math.ceil((state.resendAt - clock) / 1000))

  useEffect(() => {
    const controller = new AbortController()
    void waitForDevice(config, { signal: controller.signal }).catch((thrown: unknown) => {
      if (!controller.signal.aborted) setError(summaryOf(thrown))
    })
    return () => controller.abort()
  }, [config])

  useEffect(() => {
    if (waitSeconds <= 0) return
    const timer = setInterval(() => setClock(config.platform.now()), 1000)
    return () => clearInterval(timer)
  }, [waitSeconds, config])

  // A new code starts the sign-in again (the code view shows); the approval link comes after it.
  const resend = async () => {
    if (waitSeconds > 0) return
    setError(undefined)
    try {
      await connectEmail(config, { email })
    } catch (thrown) {
      setError(summaryOf(thrown))
    }
    setClock(config.platform.now())
  }

  return (
    <div className="form" part="device-approval">
      <p className="hint-text">{t('verifyDeviceHint', { email })}</p>
      {state.compareCode ? (
        <p className="compare-code">
          <span className="hint-text">{t('compareCodeLabel')}</span>{' '}
          <strong translate="no">{state.compareCode}</strong>
        </p>
      ) : null}
      <div role="alert">{error ? <ErrorMessage>{strings.error(error)}</ErrorMessage> : null}</div>
      <div className="status" role="status">
        {error ? null : (
          <>
            <span className="spinner" aria-hidden="true" /> {t('waitingForApproval')}
          </>
        )}
      </div>
      <button
        type="button"
        className="secondary"
        aria-disabled={waitSeconds > 0 || undefined}
        onClick={() => void resend()}
      >
        {waitSeconds > 0 ? t('resendIn', { seconds: waitSeconds }) : t('resendCode')}
      </button>
    </div>
  )
}
