import { type ReactNode, useMemo } from 'react'
import type { Locale } from '../../protocol/locales.ts'
import { createStrings } from '../../shared/i18n/strings.ts'
import { useModule } from '../hooks/useModule.ts'
import { StringsContext, useStrings } from '../modal/viewContext.ts'

/** A catalogue's chunk per language (as `src/shared/i18n/loaders.ts`), keyed by language. */
export type CatalogueLoaders = Readonly<
  Record<Locale, () => Promise<{ default: Readonly<Record<string, string>> }>>
>

/**
 * A part of the modal in its own words and styles: gives its children the strings around it with
 * a catalogue of its own added (the language's chunk of `loaders`, fetched when the part is first
 * shown), and renders `styles` (if any) beside them, inside the same shadow root. Scopes nest. Renders nothing
 * until the catalogue is in. Parts the dialog's first open never shows keep their words and styles
 * out of it this way.
 *
 * @example
 * <CatalogueScope loaders={embeddedLoaders} styles={embeddedStyles}><CodeForm … /></CatalogueScope>
 */
export function CatalogueScope({
  loaders,
  styles,
  children,
}: {
  loaders: CatalogueLoaders
  styles?: string | undefined
  children: ReactNode
}) {
  const outer = useStrings()
  const { locale, dir } = outer
  const extra = useModule(loaders[locale])
  const strings = useMemo(
    () => (extra ? createStrings(locale, { ...outer.messages, ...extra }, dir) : undefined),
    [outer, locale, dir, extra],
  )
  return strings ? (
    <StringsContext.Provider value={strings}>
      {styles ? <style>{styles}</style> : null}
      {children}
    </StringsContext.Provider>
  ) : null
}
