// AmountField: the amount input of the Send and Swap forms, with its error and the hints a form adds.
import type { ReactNode } from 'react'
import type { AmountForm } from '../hooks/useAmountForm.ts'

/** What the field needs of its form (see `useAmountForm`). */
type AmountFieldForm = Pick<AmountForm, 'strings' | 'toTyped'> & {
  ids: { amount: string; hint: string }
  refs: Pick<AmountForm['refs'], 'amount'>
  described: (field: 'amount', ...extra: (string | undefined)[]) => ReturnType<AmountForm['described']>
  fieldError: (field: 'amount') => ReactNode
}

export interface AmountFieldProps {
  form: AmountFieldForm
  /** What was typed, in the language's digits and separator. */
  value: string
  onChange: (value: string) => void
  /** While the form sends: the field keeps focus but takes no typing. */
  busy: boolean
  autoFocus?: boolean | undefined
  /** Whether the form shows what is available (its element has `form.ids.hint`), describing the field. */
  hint: boolean
  /** Hints under the field: what is available, what the amount is worth, Max. */
  children?: ReactNode
}

/**
 * The amount of a token to spend: typed with the language's decimal separator, read-only while the
 * form sends, its error under it (the field `aria-invalid` and described by it, then by the hint).
 *
 * @example
 * <AmountField form={form} value={amount} onChange={setAmount} busy={sending} hint={held !== undefined}>
 *   <span className="hint" id={form.ids.hint}>…</span>
 * </AmountField>
 */
export function AmountField({ form, value, onChange, busy, autoFocus, hint, children }: AmountFieldProps) {
  return (
    <div className="field">
      <label htmlFor={form.ids.amount}>{form.strings.t('amount')}</label>
      <input
        id={form.ids.amount}
        ref={form.refs.amount}
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        placeholder={form.toTyped('0.0')}
        value={value}
        readOnly={busy}
        aria-disabled={busy}
        autoFocus={autoFocus}
        {...form.described('amount', hint ? form.ids.hint : undefined)}
        onChange={(event) => onChange(event.target.value)}
      />
      <div role="alert">{form.fieldError('amount')}</div>
      {children}
    </div>
  )
}
