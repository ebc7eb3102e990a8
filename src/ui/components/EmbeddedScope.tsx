import { type ReactNode, useMemo } from 'react'
import { useModule } from '../hooks/useModule.ts'
import embeddedLoaders from '../i18n/embeddedLoaders.ts'
import { messageLoaders } from '../i18n/locales.ts'
import { createStrings } from '../i18n/strings.ts'
import { StringsContext, useStrings } from '../modal/viewContext.ts'
import { embeddedStyles } from '../theme/embeddedStyles.ts'

/**
 * The embedded wallet's parts of the modal in their own words and styles: gives its children the
 * modal's strings with the embedded wallet's catalogue added (the language's
 * `src/ui/locales/embedded/` chunk, fetched with the e-mail section and views, or before, by the idle
 * prefetch of a page that offers the e-mail sign-in), and their styles. Renders nothing until the
 * catalogue is in.
 *
 * @example
 * <EmbeddedScope><CodeForm … /></EmbeddedScope>
 */
export function EmbeddedScope({ children }: { children: ReactNode }) {
  const { locale, dir } = useStrings()
  // The modal's catalogue of this language is in already (the shell renders with it).
  const base = useModule(messageLoaders[locale])
  const extra = useModule(embeddedLoaders[locale])
  const extended = useMemo(
    () => (base && extra ? createStrings(locale, { ...base, ...extra }, dir) : undefined),
    [locale, dir, base, extra],
  )
  return extended ? (
    <StringsContext.Provider value={extended}>
      <style>{embeddedStyles}</style>
      {children}
    </StringsContext.Provider>
  ) : null
}
