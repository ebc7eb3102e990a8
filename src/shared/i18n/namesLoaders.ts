import type { Locale } from '../../protocol/locales.ts'
import type { NamesMessages } from '../locales/names/en.ts'

/**
 * The name and on-ramp views' catalogue of each language (`src/shared/locales/names/`), one chunk each,
 * loaded with those views only. Adding a language: its file there and a line here, as in `loaders.ts`.
 */
const namesLoaders = {
  en: () => import('../locales/names/en.ts'),
  es: () => import('../locales/names/es.ts'),
  fr: () => import('../locales/names/fr.ts'),
  de: () => import('../locales/names/de.ts'),
  'pt-BR': () => import('../locales/names/pt-BR.ts'),
  it: () => import('../locales/names/it.ts'),
  ja: () => import('../locales/names/ja.ts'),
  ko: () => import('../locales/names/ko.ts'),
  'zh-CN': () => import('../locales/names/zh-CN.ts'),
  ru: () => import('../locales/names/ru.ts'),
  tr: () => import('../locales/names/tr.ts'),
  ar: () => import('../locales/names/ar.ts'),
} satisfies Record<Locale, () => Promise<{ default: NamesMessages }>>

export default namesLoaders
