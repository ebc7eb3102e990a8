import { type FormEvent, useId, useState } from 'react'
import { isBaseError } from '../../errors/base.ts'
import { EmailSchema } from '../../protocol/rules.ts'
import { validate } from '../../protocol/validation.ts'
import { en } from '../locales/en.ts'

export interface EmailFormProps {
  label: string
  submitLabel: string
  /** Sends the address; a rejection's message shows under the field. */
  onSubmit: (email: string) => Promise<unknown>
  /** The person is about to use the form (focus): load what the e-mail path needs early. */
  onIntent?: () => void
  autoFocus?: boolean
  part?: string
}

/** The message of anything thrown, as the person should read it. */
export const messageOf = (error: unknown) =>
  isBaseError(error) ? error.shortMessage : error instanceof Error ? error.message : String(error)

/**
 * An e-mail field with its submit button: checked with the protocol's e-mail rule (SPEC 5) before
 * anything is sent; errors red, announced, and tied to the field.
 */
export function EmailForm({ label, submitLabel, onSubmit, onIntent, autoFocus, part }: EmailFormProps) {
  const ids = { input: useId(), error: useId() }
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const checked = validate(EmailSchema, value.trim())
    if (!checked.ok) {
      setError(checked.message)
      return
    }
    setError(undefined)
    setBusy(true)
    try {
      await onSubmit(checked.value)
    } catch (thrown) {
      setError(messageOf(thrown))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form email-form" part={part} noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={ids.input}>{label}</label>
        <input
          id={ids.input}
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          placeholder={en.emailPlaceholder}
          value={value}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onFocus={onIntent}
          onChange={(event) => {
            setValue(event.target.value)
            if (error) setError(undefined)
          }}
        />
      </div>
      {error ? (
        <p className="error-text" id={ids.error} role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={busy} aria-busy={busy || undefined}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? en.emailSending : submitLabel}
      </button>
    </form>
  )
}
