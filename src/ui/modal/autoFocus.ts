import { createContext, useContext } from 'react'

/**
 * Whether a view may move focus to its main control (`autoFocus`): always in the dialog; in inline
 * mode only once the person works in the views, so a page never loses its focus to them.
 */
export const AutoFocusContext = createContext(true)

export const useAutoFocus = (): boolean => useContext(AutoFocusContext)
