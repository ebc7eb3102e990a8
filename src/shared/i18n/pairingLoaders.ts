import type { Locale } from '../../protocol/locales.ts'
import type { PairingMessages } from '../locales/pairing/en.ts'

/**
 * The ConnectingWalletConnect views' catalogue of each language (`src/shared/locales/pairing/`), one
 * chunk each, loaded with those views. Adding a language: its file there and a line here, as in
 * `loaders.ts`.
 */
const pairingLoaders = {
  en: () => import('../locales/pairing/en.ts'),
  es: () => import('../locales/pairing/es.ts'),
  fr: () => import('../locales/pairing/fr.ts'),
  de: () => import('../locales/pairing/de.ts'),
  'pt-BR': () => import('../locales/pairing/pt-BR.ts'),
  it: () => import('../locales/pairing/it.ts'),
  ja: () => import('../locales/pairing/ja.ts'),
  ko: () => import('../locales/pairing/ko.ts'),
  'zh-CN': () => import('../locales/pairing/zh-CN.ts'),
  ru: () => import('../locales/pairing/ru.ts'),
  tr: () => import('../locales/pairing/tr.ts'),
  ar: () => import('../locales/pairing/ar.ts'),
} satisfies Record<Locale, () => Promise<{ default: PairingMessages }>>

export default pairingLoaders
