/**
 * The languages the modal (and the wallet frame) speak; each has a catalogue in `src/shared/locales/` and
 * a loader in `src/shared/i18n/loaders.ts`. Here so the core can tell the frame the modal's language.
 */
export const LOCALES = ['en', 'es', 'fr', 'de', 'pt-BR', 'it', 'ja', 'ko', 'zh-CN', 'ru', 'tr', 'ar'] as const

export type Locale = (typeof LOCALES)[number]

const language = (tag: string) => tag.split('-')[0]?.toLowerCase()

/**
 * The supported language closest to what was asked: the `locale` attribute when set, else the
 * browser's languages in order, matched by language (`de-AT` reads `de`, `pt-PT` reads `pt-BR`: we
 * have one variant of each); English when nothing matches.
 *
 * @example
 * resolveLocale(undefined, ['de-AT', 'en']) // 'de'
 */
export function resolveLocale(requested: string | undefined, languages: readonly string[]): Locale {
  for (const tag of requested ? [requested] : languages) {
    const found = LOCALES.find((locale) => language(locale) === language(tag))
    if (found) return found
  }
  return 'en'
}
