/**
 * The frame's words come from the modal's locale catalogues (`src/ui/locales/`, the `frame*` and
 * `device*` keys): the same languages, the same formatter, the catalogue of one language loaded on
 * demand. The app tells the frame the modal's language (SYNC_DAPP_DATA); the approval page of a mailed
 * link follows the browser's languages.
 */
import { type Locale, resolveLocale } from '../protocol/locales.ts'
import loaders from '../ui/i18n/loaders.ts'
import { createStrings, localeDirection, type Strings } from '../ui/i18n/strings.ts'

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
  const { default: messages } = await loaders[locale]()
  return createStrings(locale, messages, localeDirection(locale))
}
