import type { Config } from '../../core/createConfig.ts'
import { LOCALES, type Locale, resolveLocale } from '../../protocol/locales.ts'
import type { Messages } from '../../shared/locales/en.ts'
import { useStore } from '../hooks/useStore.ts'

export { LOCALES, type Locale, resolveLocale } from '../../protocol/locales.ts'

/** Loads a language's catalogue (one stable function per language, as `useModule` keys by it). */
export const messageLoaders = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    () => import('../../shared/i18n/loaders.ts').then((module) => module.default[locale]()),
  ]),
) as Record<Locale, () => Promise<{ default: Messages }>>

/** The language a modal speaks, from its `locale` option or the browser's languages. */
export const localeOf = (config: Config, locale = config.$options.get().locale): Locale =>
  resolveLocale(locale, config.platform.window?.navigator.languages ?? [])

/** {@link localeOf}, following the option. */
export const useLocale = (config: Config): Locale => localeOf(config, useStore(config.$options).locale)
