import type { Config } from '../../core/createConfig.ts'
import { chunkFiles } from '../chunkFiles.ts'
import { type Locale, localeOf } from '../i18n/locales.ts'

/** The dialog on its first open: the shell with the Connect view, and the map of language loaders. */
const dialog = [...chunkFiles('./ModalShell.tsx'), ...chunkFiles('../../shared/i18n/loaders.ts')]

/** Each language's catalogue; the modal's language is the one fetched. */
const messages: Record<Locale, readonly string[]> = {
  en: chunkFiles('../../shared/locales/en.ts'),
  es: chunkFiles('../../shared/locales/es.ts'),
  fr: chunkFiles('../../shared/locales/fr.ts'),
  de: chunkFiles('../../shared/locales/de.ts'),
  'pt-BR': chunkFiles('../../shared/locales/pt-BR.ts'),
  it: chunkFiles('../../shared/locales/it.ts'),
  ja: chunkFiles('../../shared/locales/ja.ts'),
  ko: chunkFiles('../../shared/locales/ko.ts'),
  'zh-CN': chunkFiles('../../shared/locales/zh-CN.ts'),
  ru: chunkFiles('../../shared/locales/ru.ts'),
  tr: chunkFiles('../../shared/locales/tr.ts'),
  ar: chunkFiles('../../shared/locales/ar.ts'),
}

/** The Connect view's catalogue part, with a wallet service: the action, its HTTP client, the schemas. */
const catalogue = chunkFiles('../../core/actions/loadCatalogue.ts')

/**
 * Adds a `<link rel="modulepreload">` for every JS file the dialog's first open fetches, all at once
 * (one round; the browser fetches and compiles them, nothing runs): the shell with Connect, the
 * modal's language and, with a wallet service, the catalogue's code. The file lists come from the
 * build (src/ui/chunkFiles.ts). An inline modal has its views already. Returns the URLs asked for.
 *
 * @example
 * whenIdle(() => prefetchFirstOpen(config, document))
 */
export function prefetchFirstOpen(config: Config, doc: Document): string[] {
  const { inline, apiUrl } = config.$options.get()
  if (inline) return []
  const files = [...dialog, ...messages[localeOf(config)], ...(apiUrl ? catalogue : [])]
  const urls = [...new Set(files.map((file) => new URL(file, import.meta.url).href))]
  const present = new Set(
    [...doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.href),
  )
  for (const href of urls) {
    if (present.has(href)) continue
    const link = doc.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    doc.head.append(link)
  }
  return urls
}
