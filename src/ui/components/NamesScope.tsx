import { type ReactNode, useMemo } from 'react'
import { useModule } from '../hooks/useModule.ts'
import { messageLoaders } from '../i18n/locales.ts'
import type { MessageValues } from '../i18n/message.ts'
import namesLoaders from '../i18n/namesLoaders.ts'
import { createStrings, type Strings } from '../i18n/strings.ts'
import type { MessageKey, Messages } from '../locales/en.ts'
import type { NamesMessageKey } from '../locales/names/en.ts'
import { StringsContext, useStrings } from '../modal/viewContext.ts'

const styles = `.suggestions{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0 0;padding:0;list-style:none}.suggestions button{min-height:44px}.profile-name{font-weight:600;overflow-wrap:anywhere}`

/**
 * The name and on-ramp parts of the modal in their own words: gives its children the modal's strings
 * with the language's `src/ui/locales/names/` catalogue added (its own chunk, fetched when Account or
 * one of those views first shows, never on the first open). Renders nothing until it is in.
 *
 * @example
 * <NamesScope><RegisterButton /></NamesScope>
 */
export function NamesScope({ children }: { children: ReactNode }) {
  const { locale, dir } = useStrings()
  const base = useModule(messageLoaders[locale])
  const extra = useModule(namesLoaders[locale])
  const extended = useMemo(
    () => (base && extra ? createStrings(locale, { ...base, ...extra } as Messages, dir) : undefined),
    [locale, dir, base, extra],
  )
  return extended ? (
    <StringsContext.Provider value={extended}>
      <style>{styles}</style>
      {children}
    </StringsContext.Provider>
  ) : null
}

/** The strings inside {@link NamesScope}, with `n` for its own keys. */
export function useNames(): Strings & { n: (key: NamesMessageKey, values?: MessageValues) => string } {
  const strings = useStrings()
  return { ...strings, n: (key, values) => strings.t(key as unknown as MessageKey, values) }
}
