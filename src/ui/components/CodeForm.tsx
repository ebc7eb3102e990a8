import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { embeddedLimits } from '../../protocol/embedded/limits.ts'
import { en } from '../locales/en.ts'
import { messageOf } from './EmailForm.tsx'

export interface CodeFormProps {
  /** What the code is for, and where it went. */
  hint: string
  /** Checks the code; a rejection's message shows under the field and the field clears. */
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
 * by itself once 6 digits are in; Resend once the 30 s cooldown is over, counting down until then.
 */
export function CodeForm({ hint, onSubmit, onResend, resendAt, now }: CodeFormProps) {
  const ids = { input: useId(), error: useId(), hint: useId() }
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [status, setStatus] = useState<string>('')
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
    setStatus(en.verifying)
    try {
      await onSubmit(value)
    } catch (thrown) {
      setError(messageOf(thrown))
      setStatus('')
      setCode('')
      input.current?.focus()
    } finally {
      setBusy(false)
    }
  }

  const resend = async () => {
    setError(undefined)
    try {
      await onResend()
      setStatus(en.codeSent)
      setClock(now())
      input.current?.focus()
    } catch (thrown) {
      setError(messageOf(thrown))
      setClock(now())
    }
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
        <label htmlFor={ids.input}>{en.code}</label>
        <input
          ref={input}
          id={ids.input}
          className="code-input"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={16}
          value={code}
          autoFocus
          disabled={busy}
          aria-invalid={error ? true : undefined}
          aria-describedby={[ids.hint, error ? ids.error : ''].filter(Boolean).join(' ')}
          onChange={(event) => {
            const digits = digitsOf(event.target.value)
            setCode(digits)
            if (error) setError(undefined)
            if (digits.length === embeddedLimits.otpLength) void check(digits)
          }}
        />
      </div>
      {error ? (
        <p className="error-text" id={ids.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className="status" role="status" aria-live="polite">
        {busy ? <span className="spinner" aria-hidden="true" /> : null} {status}
      </div>
      <button
        type="button"
        className="secondary"
        disabled={waitSeconds > 0 || busy}
        onClick={() => void resend()}
      >
        {waitSeconds > 0 ? en.resendIn(waitSeconds) : en.resendCode}
      </button>
    </form>
  )
}
