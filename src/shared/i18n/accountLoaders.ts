import type { Locale } from '../../protocol/locales.ts'
import type { AccountMessages } from '../locales/account/en.ts'

/**
 * The catalogue of the views after connecting (`src/shared/locales/account/`: Account, Send, Swap,
 * Networks, UnsupportedChain), one chunk per language, loaded with those views (`AccountScope`).
 * Adding a language: its file there and a line here, as in `loaders.ts`.
 */
const accountLoaders = {
  en: () => import('../locales/account/en.ts'),
  es: () => import('../locales/account/es.ts'),
  fr: () => import('../locales/account/fr.ts'),
  de: () => import('../locales/account/de.ts'),
  'pt-BR': () => import('../locales/account/pt-BR.ts'),
  it: () => import('../locales/account/it.ts'),
  ja: () => import('../locales/account/ja.ts'),
  ko: () => import('../locales/account/ko.ts'),
  'zh-CN': () => import('../locales/account/zh-CN.ts'),
  ru: () => import('../locales/account/ru.ts'),
  tr: () => import('../locales/account/tr.ts'),
  ar: () => import('../locales/account/ar.ts'),
} satisfies Record<Locale, () => Promise<{ default: AccountMessages }>>

export default accountLoaders
