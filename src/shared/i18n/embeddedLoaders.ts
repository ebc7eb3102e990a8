import type { Locale } from '../../protocol/locales.ts'
import type { EmbeddedMessages } from '../locales/embedded/en.ts'

/**
 * The embedded wallet's catalogue of each language (`src/shared/locales/embedded/`), one chunk each,
 * loaded with its views (and by the wallet frame), never by a page that does not use the e-mail
 * sign-in. Adding a language: its file there and a line here, as in `loaders.ts`.
 */
const embeddedLoaders = {
  en: () => import('../locales/embedded/en.ts'),
  es: () => import('../locales/embedded/es.ts'),
  fr: () => import('../locales/embedded/fr.ts'),
  de: () => import('../locales/embedded/de.ts'),
  'pt-BR': () => import('../locales/embedded/pt-BR.ts'),
  it: () => import('../locales/embedded/it.ts'),
  ja: () => import('../locales/embedded/ja.ts'),
  ko: () => import('../locales/embedded/ko.ts'),
  'zh-CN': () => import('../locales/embedded/zh-CN.ts'),
  ru: () => import('../locales/embedded/ru.ts'),
  tr: () => import('../locales/embedded/tr.ts'),
  ar: () => import('../locales/embedded/ar.ts'),
} satisfies Record<Locale, () => Promise<{ default: EmbeddedMessages }>>

export default embeddedLoaders
