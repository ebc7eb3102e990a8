import type { Config } from '../../core/createConfig.ts'
import { useStore } from '../hooks/useStore.ts'
import type { Messages } from '../locales/en.ts'
import type loaders from './loaders.ts'

export type Locale = keyof typeof loaders

/** The languages the views speak (each has a catalogue in `src/ui/locales/` and a loader). */
export const LOCALES = [
  'en',
  'es',
  'fr',
  'de',
  'pt-BR',
  'it',
  'ja',
  'ko',
  'zh-CN',
  'ru',
  'tr',
  'ar',
] as const satisfies readonly Locale[]

/** Loads a language's catalogue (one stable function per language, as `useModule` keys by it). */
export const messageLoaders = Object.fromEntries(
  LOCALES.map((locale) => [locale, () => import('./loaders.ts').then((module) => module.default[locale]())]),
) as Record<Locale, () => Promise<{ default: Messages }>>

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

/** The language a modal speaks, from its `locale` option or the browser's languages. */
export const localeOf = (config: Config, locale = config.$options.get().locale): Locale =>
  resolveLocale(locale, config.platform.window?.navigator.languages ?? [])

/** {@link localeOf}, following the option. */
export const useLocale = (config: Config): Locale => localeOf(config, useStore(config.$options).locale)
