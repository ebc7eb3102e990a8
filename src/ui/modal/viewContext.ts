import { createContext, useContext } from 'react'
import type { Strings } from '../../shared/i18n/strings.ts'

/** What the shell gives every view: its strings, and whether it may move focus. */

export const StringsContext = createContext<Strings | undefined>(undefined)

/** The modal's strings, inside its views. */
export function useStrings(): Strings {
  const strings = useContext(StringsContext)
  if (!strings) throw new Error('useStrings() outside the modal')
  return strings
}

/**
 * Whether a view may move focus to its main control (`autoFocus`): always in the dialog; in inline
 * mode only once the person works in the views, so a page never loses its focus to them.
 */
export const AutoFocusContext = createContext(true)

export const useAutoFocus = (): boolean => useContext(AutoFocusContext)
