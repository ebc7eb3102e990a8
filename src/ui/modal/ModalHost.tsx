import { useEffect, useRef } from 'react'
import type { Config } from '../../core/createConfig.ts'
import type { Messages } from '../../shared/locales/en.ts'
import { chunkFiles } from '../chunkFiles.ts'
import { preloadModule, useModule } from '../hooks/useModule.ts'
import { useStore } from '../hooks/useStore.ts'
import { configOf } from '../host.ts'
import type { Locale } from '../i18n/locales.ts'
import { localeOf, messageLoaders, useLocale } from '../i18n/locales.ts'
import { loadCatalogueLazily } from './catalogue.ts'
import { deepActiveElement } from './focus.ts'

const loadShell = () => import('./ModalShell.tsx')

/** The idle prefetch's own chunk, in the script-tag build (src/ui/chunkFiles.ts); none elsewhere. */
const prefetchChunk = chunkFiles('./prefetch.ts')

/**
 * After the page is idle: fetches every JS file of the dialog's first open in one round
 * (`modulepreload`), then runs the dialog's modules and its language's catalogue (defining them
 * costs about a millisecond), so a click renders the dialog in its own event, fetching nothing.
 * Only the script-tag build knows its chunks; in an app, its bundler loads a lazy chunk's imports
 * together when it is asked for, on hover or focus ({@link preloadModal}).
 *
 * @example
 * whenIdle(() => prefetchDialog(config, document))
 */
export function prefetchDialog(config: Config, doc: Document): void {
  if (prefetchChunk.length === 0) return
  void import('./prefetch.ts')
    .then(({ prefetchFirstOpen }) => {
      if (prefetchFirstOpen(config, doc).length === 0) return
      void preloadModule(loadShell).catch(() => {})
      void preloadModule(messageLoaders[localeOf(config)]).catch(() => {})
    })
    .catch(() => {})
}

/**
 * When the person shows intent (the pointer or focus reaches the button), before the click: runs
 * the dialog's code and its language's catalogue (already fetched after idle, or fetched now, in
 * parallel), and asks the wallet catalogue for its first page, so the open asks for nothing.
 */
export function preloadModal(config: Config): void {
  void preloadModule(loadShell).catch(() => {})
  void preloadModule(messageLoaders[localeOf(config)]).catch(() => {})
  loadCatalogueLazily(config)
}

export interface ModalHostProps {
  container?: HTMLElement
}

/** The `<wallet-modal>` root: renders nothing until opened; the shell and its strings load on first open. */
export function ModalHost({ container }: ModalHostProps) {
  const host = (container as unknown as ShadowRoot | undefined)?.host
  const config = host ? configOf(host) : undefined
  if (!config || !host) return null
  return <Root config={config} host={host} />
}

function Root({ config, host }: { config: Config; host: Element }) {
  const modal = useStore(config.$modal)
  // What had focus when the modal opened (often the <wallet-button> inside another shadow root).
  // Read during render, before the views' autoFocus moves it, and given back on close.
  const trigger = useRef<Element | null>(null)
  const wasOpen = useRef(false)
  if (modal.open && !wasOpen.current) trigger.current = deepActiveElement(host.ownerDocument)
  wasOpen.current = modal.open
  useEffect(() => {
    if (modal.open) return
    const element = trigger.current
    trigger.current = null
    if (element instanceof HTMLElement && element.isConnected) element.focus()
  }, [modal.open])
  const locale = useLocale(config)
  const ModalShell = useModule(modal.open ? loadShell : undefined)
  const loaded = useModule(modal.open ? messageLoaders[locale] : undefined)
  // After a change of language the old strings stay until the new catalogue is in.
  const strings = useRef<{ locale: Locale; messages: Messages }>(undefined)
  if (loaded) strings.current = { locale, messages: loaded }
  return modal.open && ModalShell && strings.current ? (
    <ModalShell
      config={config}
      host={host}
      locale={strings.current.locale}
      messages={strings.current.messages}
    />
  ) : null
}
