import type { Locale } from '../../protocol/locales.ts'
import type { ActivityMessages } from '../locales/activity/en.ts'

/**
 * The Activity list's catalogue of each language (`src/shared/locales/activity/`), one chunk each, loaded
 * with the list on Account. Adding a language: its file there and a line here, as in `loaders.ts`.
 */
const activityLoaders = {
  en: () => import('../locales/activity/en.ts'),
  es: () => import('../locales/activity/es.ts'),
  fr: () => import('../locales/activity/fr.ts'),
  de: () => import('../locales/activity/de.ts'),
  'pt-BR': () => import('../locales/activity/pt-BR.ts'),
  it: () => import('../locales/activity/it.ts'),
  ja: () => import('../locales/activity/ja.ts'),
  ko: () => import('../locales/activity/ko.ts'),
  'zh-CN': () => import('../locales/activity/zh-CN.ts'),
  ru: () => import('../locales/activity/ru.ts'),
  tr: () => import('../locales/activity/tr.ts'),
  ar: () => import('../locales/activity/ar.ts'),
} satisfies Record<Locale, () => Promise<{ default: ActivityMessages }>>

export default activityLoaders
