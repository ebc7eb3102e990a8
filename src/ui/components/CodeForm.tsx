import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { ErrorSummary } from '../../errors/base.ts'
import { embeddedLimits } from '../../protocol/embedded/limits.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import { summaryOf } from './EmailForm.tsx'
import { ErrorMessage } from './Message.tsx'

export interface CodeFormProps {
  /** What the code is for, and where it went. */
  hint: string
  /** Checks the code; a rejection shows under the field and the field clears. */
  onSubmit: (code: string) => Promise<unknown>
  /** Mails a new code; resolves once sent. */
  onResend: () => Promise<unknown>
  /** When a new code may be asked for (ms since the epoch). */
  resendAt: number
  now: () => number
}

const digitsOf = (text: string) => text.replace(/\D/g, '').slice(0, embeddedLimits.otpLength)

/**
 * The one-time code: one field that takes typing or a pasted code (spaces and dashes dropped), sent
 * by itself once 6 digits are in; a wrong code's error sits under the field (red, announced) and the
 * field takes focus again; Resend once the 30 s cooldown is over, counting down until then.
 */
export function CodeForm({ hint, onSubmit, onResend, resendAt, now }: CodeFormProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const id = useId()
  const ids = { input: `${id}code`, error: `${id}code-error`, hint: `${id}hint` }
  const [code, setCode] = useState('')
  const [error, setError] = useState<ErrorSummary | undefined>()
  const [status, setStatus] = useState('')
  const [busy, setBusy] = useState(false)
  const [clock, setClock] = useState(now())
  const input = useRef<HTMLInputElement>(null)

  const waitSeconds = Math.max(0, Math.ceil((resendAt - clock) / 1000))
  useEffect(() => {
    if (waitSeconds <= 0) return
    const timer = setInterval(() => setClock(now()), 1000)
    return () => clearInterval(timer)
  }, [waitSeconds, now])

  const check = async (value: string) => {
    if (busy || value.length !== embeddedLimits.otpLength) return
    setBusy(true)
    setError(undefined)
    setStatus(t('verifying'))
    try {
      await onSubmit(value)
    } catch (thrown) {
      setError(summaryOf(thrown))
      setStatus('')
      setCode('')
      input.current?.focus()
    } finally {
      setBusy(false)
    }
  }

  const resend = async () => {
    if (waitSeconds > 0 || busy) return
    setError(undefined)
    try {
      await onResend()
      setStatus(t('codeSent'))
      input.current?.focus()
    } catch (thrown) {
      setError(summaryOf(thrown))
    }
    setClock(now())
  }

  return (
    <form
      className="form code-form"
      part="code-form"
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault()
        void check(code)
      }}
    >
      <p className="hint-text" id={ids.hint}>
        {hint}
      </p>
      <div className="field">
        <label htmlFor={ids.input}>{t('code')}</label>
        <input
          ref={input}
          id={ids.input}
          className="code-input"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={16}
          value={code}
          autoFocus={autoFocus}
          readOnly={busy}
          aria-disabled={busy || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={[ids.hint, error ? ids.error : ''].filter(Boolean).join(' ')}
          onChange={(event) => {
            const digits = digitsOf(event.target.value)
            setCode(digits)
            if (error) setError(undefined)
            if (digits.length === embeddedLimits.otpLength) void check(digits)
          }}
        />
        <div role="alert">
          {error ? <ErrorMessage id={ids.error}>{strings.error(error)}</ErrorMessage> : null}
        </div>
      </div>
      <div className="status" role="status">
        {busy ? <span className="spinner" aria-hidden="true" /> : null} {status}
      </div>
      <button
        type="button"
        className="secondary"
        aria-disabled={waitSeconds > 0 || busy || undefined}
        onClick={() => void resend()}
      >
        {waitSeconds > 0 ? t('resendIn', { seconds: waitSeconds }) : t('resendCode')}
      </button>
    </form>
  )
}
