import { useEffect, useState } from 'react'
import { connectEmail } from '../../core/actions/connectEmail.ts'
import { waitForDevice } from '../../core/actions/waitForDevice.ts'
import { embeddedState } from '../../core/embeddedState.ts'
import { messageOf } from '../components/EmailForm.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import type { ViewProps } from '../modal/ModalShell.tsx'

/**
 * EmailVerifyDevice: a known address on a new browser (SPEC 4: VERIFY_DEVICE). The mailed link
 * approves this browser; the view waits for it and continues by itself.
 */
export default function EmailVerifyDeviceView({ config }: ViewProps) {
  const state = useStore(embeddedState(config))
  const email = state.email ?? ''
  const [error, setError] = useState<string | undefined>()
  const [status, setStatus] = useState<string>(en.waitingForApproval)
  const [attempt, setAttempt] = useState(0)
  const [clock, setClock] = useState(config.platform.now())
  const waitSeconds = Math.max(0, Math.ceil((state.resendAt - clock) / 1000))

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new link (attempt) restarts the wait.
  useEffect(() => {
    const controller = new AbortController()
    void waitForDevice(config, { signal: controller.signal }).catch((thrown: unknown) => {
      if (!controller.signal.aborted) setError(messageOf(thrown))
    })
    return () => controller.abort()
  }, [config, attempt])

  useEffect(() => {
    if (waitSeconds <= 0) return
    const timer = setInterval(() => setClock(config.platform.now()), 1000)
    return () => clearInterval(timer)
  }, [waitSeconds, config])

  const resend = async () => {
    setError(undefined)
    try {
      await connectEmail(config, { email })
      setStatus(en.linkSent)
      setAttempt((count) => count + 1)
    } catch (thrown) {
      setError(messageOf(thrown))
    }
    setClock(config.platform.now())
  }

  return (
    <div className="form" part="device-approval">
      <p className="hint-text" tabIndex={-1} autoFocus>
        {en.verifyDeviceHint(email)}
      </p>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : (
        <div className="status" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" /> {status}
        </div>
      )}
      <button type="button" className="secondary" disabled={waitSeconds > 0} onClick={() => void resend()}>
        {waitSeconds > 0 ? en.resendIn(waitSeconds) : en.resendLink}
      </button>
    </div>
  )
}
