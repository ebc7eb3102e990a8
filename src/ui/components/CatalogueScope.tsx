import { type ReactNode, useMemo } from 'react'
import { useModule } from '../hooks/useModule.ts'
import type { Locale } from '../i18n/locales.ts'
import { messageLoaders } from '../i18n/locales.ts'
import { createStrings } from '../i18n/strings.ts'
import { StringsContext, useStrings } from '../modal/viewContext.ts'

/** A catalogue kept apart from the modal's (src/ui/locales/<part>/), one chunk per language. */
export type CatalogueLoaders = Readonly<
  Record<Locale, () => Promise<{ default: Readonly<Record<string, string>> }>>
>

/**
 * A part of the modal in its own words and styles: gives its children the modal's strings with the
 * part's catalogue of this language added (fetched when the part first shows), and the part's styles.
 * Renders nothing until the catalogue is in. The embedded wallet (`EmbeddedScope`) and Account's
 * Activity list use it, so a page that never shows them never fetches their words.
 *
 * @example
 * <CatalogueScope loaders={activityLoaders} styles={activityStyles}>…</CatalogueScope>
 */
export function CatalogueScope({
  loaders,
  styles,
  children,
}: {
  loaders: CatalogueLoaders
  styles: string
  children: ReactNode
}) {
  const { locale, dir } = useStrings()
  // The modal's catalogue of this language is in already (the shell renders with it).
  const base = useModule(messageLoaders[locale])
  const extra = useModule(loaders[locale])
  const extended = useMemo(
    () => (base && extra ? createStrings(locale, { ...base, ...extra }, dir) : undefined),
    [locale, dir, base, extra],
  )
  return extended ? (
    <StringsContext.Provider value={extended}>
      <style>{styles}</style>
      {children}
    </StringsContext.Provider>
  ) : null
}
