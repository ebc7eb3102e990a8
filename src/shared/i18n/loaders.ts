import type { Locale } from '../../protocol/locales.ts'
import type { Messages } from '../locales/en.ts'

/**
 * One chunk per language: a page fetches only the catalogue of the language it shows. This map is
 * its own small chunk too, so the first paint carries none of it. Adding a language: its catalogue
 * in `src/shared/locales/`, a line here and its tag in `LOCALES` (locales.ts).
 */
const loaders = {
  en: () => import('../locales/en.ts'),
  es: () => import('../locales/es.ts'),
  fr: () => import('../locales/fr.ts'),
  de: () => import('../locales/de.ts'),
  'pt-BR': () => import('../locales/pt-BR.ts'),
  it: () => import('../locales/it.ts'),
  ja: () => import('../locales/ja.ts'),
  ko: () => import('../locales/ko.ts'),
  'zh-CN': () => import('../locales/zh-CN.ts'),
  ru: () => import('../locales/ru.ts'),
  tr: () => import('../locales/tr.ts'),
  ar: () => import('../locales/ar.ts'),
} satisfies Record<Locale, () => Promise<{ default: Messages }>>

export default loaders
