import { createContext, useContext } from 'react'
import { BaseError } from '../../errors/base.ts'
import type { Strings } from '../../shared/i18n/strings.ts'

/** What the shell gives every view: its strings, and whether it may move focus. */

export const StringsContext = createContext<Strings | undefined>(undefined)

/** The modal's strings, inside its views. */
export function useStrings(): Strings {
  const strings = useContext(StringsContext)
  // A developer's mistake, in their words: the catalogue's base error rather than a class of its own,
  // which would add to the dialog's first open (its size budget is full).
  if (!strings) throw new BaseError('useStrings() outside the modal', { messageId: null })
  return strings
}

/**
 * Whether a view may move focus to its main control (`autoFocus`): always in the dialog; in inline
 * mode only once the person works in the views, so a page never loses its focus to them.
 */
export const AutoFocusContext = createContext(true)

export const useAutoFocus = (): boolean => useContext(AutoFocusContext)
