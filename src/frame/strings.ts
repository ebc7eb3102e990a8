/**
 * The frame's words come from the modal's locale catalogues (the embedded wallet's, in
 * `src/shared/locales/embedded/`: the `frame*` and `device*` keys; and the modal's own for the rest): the
 * same languages, the same formatter, the catalogues of one language loaded on demand. The app tells the frame the modal's language (SYNC_DAPP_DATA); the approval page of a mailed
 * link follows the browser's languages.
 */
import { type Locale, resolveLocale } from '../protocol/locales.ts'
import embeddedLoaders from '../shared/i18n/embeddedLoaders.ts'
import loaders from '../shared/i18n/loaders.ts'
import { createStrings, localeDirection, type Strings } from '../shared/i18n/strings.ts'

export type { Strings }

/**
 * The strings of the language closest to `requested` (else the browser's languages).
 *
 * @example
 * const { t } = await loadStrings('de')
 * t('frameApprove') // 'Bestätigen'
 */
export async function loadStrings(requested: string | undefined): Promise<Strings> {
  const locale: Locale = resolveLocale(requested, navigator.languages)
  const [{ default: messages }, { default: embedded }] = await Promise.all([
    loaders[locale](),
    embeddedLoaders[locale](),
  ])
  return createStrings(locale, { ...messages, ...embedded }, localeDirection(locale))
}
