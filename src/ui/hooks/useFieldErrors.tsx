import { type RefObject, useEffect } from 'react'
import type { ErrorSummary } from '../../errors/index.ts'
import { ErrorMessage } from '../components/Message.tsx'
import { useStrings } from '../modal/viewContext.ts'

/** A form field the error may name: its element's id and a ref to focus it. */
export interface FormField {
  id: string
  ref: RefObject<HTMLElement | null>
}

/**
 * A form's field errors, the way every form view shows them: the fields the error names are
 * `aria-invalid` and described by the message, which sits under the first of them; that field takes
 * focus once per error, so the person lands on what to fix. An error that names no field of the form
 * is the view's to show above its button (`firstInvalid` is then undefined).
 *
 * @example
 * const { firstInvalid, described, fieldError } = useFieldErrors(error, { amount: { id, ref } })
 * <input id={id} ref={ref} {...described('amount')} />
 * <div role="alert">{fieldError('amount')}</div>
 */
export function useFieldErrors<Field extends string>(
  error: ErrorSummary | undefined,
  fields: Record<Field, FormField>,
) {
  const strings = useStrings()
  const invalid = (error?.fields ?? []).filter((field): field is Field => Object.hasOwn(fields, field))
  const firstInvalid = invalid[0]

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per error.
  useEffect(() => {
    if (firstInvalid) fields[firstInvalid].ref.current?.focus()
  }, [error])

  const errorId = firstInvalid ? `${fields[firstInvalid].id}-error` : undefined
  return {
    firstInvalid,
    /** A field's ARIA: invalid and described by the error, then by `extra` ids. */
    described: (field: Field, ...extra: (string | undefined)[]) => {
      const isInvalid = invalid.includes(field)
      const by = [isInvalid ? errorId : undefined, ...extra].filter(Boolean).join(' ')
      return { 'aria-invalid': isInvalid || undefined, 'aria-describedby': by || undefined }
    },
    /** The error's message under `field` when it is the first invalid one. */
    fieldError: (field: Field) =>
      field === firstInvalid && error ? (
        <ErrorMessage id={errorId}>{strings.error(error)}</ErrorMessage>
      ) : null,
  }
}
