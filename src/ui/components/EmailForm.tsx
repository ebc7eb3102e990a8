import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { type BaseError, type ErrorSummary, summarizeError } from '../../errors/base.ts'
import { ValidationError } from '../../errors/validation.ts'
import { embeddedEmail } from '../../protocol/embedded/email.ts'
import { validate } from '../../protocol/validation.ts'
import { useAutoFocus, useStrings } from '../modal/viewContext.ts'
import { ErrorMessage } from './Message.tsx'

export interface EmailFormProps {
  label: string
  submitLabel: string
  /** Sends the address; a rejection (a catalogue error) shows under the field. */
  onSubmit: (email: string) => Promise<unknown>
  /** The person is about to use the form (focus): load what the e-mail path needs early. */
  onIntent?: () => void
  /**
   * Takes focus when it appears (and the view may move focus): at once, or, arriving after its view
   * opened, if the dialog's heading still has it (the person has not moved on).
   */
  takeFocus?: boolean
  part?: string
}

/** What the views keep of anything thrown by an action: its summary (the action throws catalogue errors). */
export const summaryOf = (thrown: unknown): ErrorSummary =>
  summarizeError(
    thrown && typeof thrown === 'object' && 'shortMessage' in thrown
      ? (thrown as BaseError)
      : new ValidationError(thrown instanceof Error ? thrown.message : String(thrown)),
  )

/**
 * An e-mail field with its submit button: checked with the protocol's e-mail rule (SPEC 5) before
 * anything is sent; an error sits under the field (red, with an icon, announced), the field is
 * `aria-invalid`, described by it, and takes focus back.
 */
export function EmailForm({ label, submitLabel, onSubmit, onIntent, takeFocus, part }: EmailFormProps) {
  const strings = useStrings()
  const { t } = strings
  const autoFocus = useAutoFocus()
  const id = useId()
  const ids = { input: `${id}email`, error: `${id}email-error` }
  const input = useRef<HTMLInputElement>(null)
  const [value, setValue] = useState('')
  const [error, setError] = useState<ErrorSummary | undefined>()
  const [busy, setBusy] = useState(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: on appearing only.
  useEffect(() => {
    const field = input.current
    const active = (field?.getRootNode() as ShadowRoot | Document | undefined)?.activeElement
    if (autoFocus && takeFocus && (!active || active.tagName === 'H2')) field?.focus()
  }, [])

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    const checked = validate(embeddedEmail, value.trim())
    if (!checked.ok) {
      setError(
        summaryOf(new ValidationError(checked.message, { messageId: 'invalidEmail', fields: ['email'] })),
      )
      input.current?.focus()
      return
    }
    setError(undefined)
    setBusy(true)
    try {
      await onSubmit(checked.value)
    } catch (thrown) {
      setError(summaryOf(thrown))
      input.current?.focus()
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="form email-form" part={part} noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={ids.input}>{label}</label>
        <input
          ref={input}
          id={ids.input}
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          placeholder={t('emailPlaceholder')}
          value={value}
          readOnly={busy}
          aria-disabled={busy || undefined}
          autoFocus={autoFocus && takeFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onFocus={onIntent}
          onChange={(event) => {
            setValue(event.target.value)
            if (error) setError(undefined)
          }}
        />
        <div role="alert">
          {error ? <ErrorMessage id={ids.error}>{strings.error(error)}</ErrorMessage> : null}
        </div>
      </div>
      <button type="submit" className="primary" aria-disabled={busy || undefined}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? t('emailSending') : submitLabel}
      </button>
    </form>
  )
}
