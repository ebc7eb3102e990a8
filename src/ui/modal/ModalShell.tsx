import type { ComponentType, KeyboardEvent } from 'react'
import { lazy, Suspense, useId, useLayoutEffect, useRef } from 'react'
import type { Config, View } from '../../core/index.ts'
import { close, navigate } from '../../core/index.ts'
import { BackIcon, CloseIcon } from '../components/Icons.tsx'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import { modalStyles } from '../theme/modalStyles.ts'
import { focusableIn } from './focus.ts'

export interface ViewProps {
  config: Config
}

const views: Partial<Record<View, ComponentType<ViewProps>>> = {
  Connect: lazy(() => import('../views/ConnectView.tsx')),
  ConnectingExternal: lazy(() => import('../views/ConnectingExternalView.tsx')),
  Account: lazy(() => import('../views/AccountView.tsx')),
  Networks: lazy(() => import('../views/NetworksView.tsx')),
  UnsupportedChain: lazy(() => import('../views/UnsupportedChainView.tsx')),
}

const titles: Partial<Record<View, string>> = {
  Connect: en.connectWallet,
  ConnectingExternal: en.connectWallet,
  Account: en.account,
  Networks: en.selectNetwork,
  UnsupportedChain: en.unsupportedTitle,
}

/** The dialog: overlay, panel, header, focus trap and the current view. */
export default function ModalShell({ config, host }: { config: Config; host: Element }) {
  const modal = useStore(config.$modal)
  const theme = useStore(config.$theme)
  const options = useStore(config.$options)
  const panel = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const { view } = modal.router
  const Current = views[view]

  // Focus starts in the panel and cannot leave it while open (ModalHost returns it on close).
  useLayoutEffect(() => {
    const doc = host.ownerDocument
    // The panel takes focus first; each view moves it to its main control with autoFocus once loaded.
    panel.current?.focus()
    const keepFocusInside = (event: FocusEvent) => {
      if (!panel.current) return
      const target = event.composedPath()[0]
      if (target instanceof Node && !panel.current.contains(target) && target !== host) panel.current.focus()
    }
    doc.addEventListener('focusin', keepFocusInside)
    return () => {
      doc.removeEventListener('focusin', keepFocusInside)
    }
  }, [host])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      void close(config)
      return
    }
    if (event.key !== 'Tab' || !panel.current) return
    const items = focusableIn(panel.current)
    if (items.length === 0) return
    const root = panel.current.getRootNode() as ShadowRoot
    const index = items.indexOf(root.activeElement as HTMLElement)
    const next = event.shiftKey
      ? index <= 0
        ? items.length - 1
        : index - 1
      : index === items.length - 1
        ? 0
        : index + 1
    event.preventDefault()
    items[next]?.focus()
  }

  return (
    <>
      <style>{modalStyles}</style>
      <div
        className="root"
        data-theme={theme}
        style={
          options.accent ? { ['--_accent' as string]: `var(--wallet-accent, ${options.accent})` } : undefined
        }
      >
        {/* biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is a pointer convenience; keyboard users have Escape and the close button. */}
        <div
          className="overlay"
          part="overlay"
          onMouseDown={(event) => {
            if (event.target === event.currentTarget) void close(config)
          }}
        >
          <div
            ref={panel}
            className="panel"
            part="panel"
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            tabIndex={-1}
            data-shake={modal.shake ? '' : undefined}
            data-view={view}
            onKeyDown={onKeyDown}
          >
            <div className="header" part="header">
              {modal.router.history.length > 0 ? (
                <button
                  type="button"
                  className="icon-button"
                  part="back-button"
                  aria-label={en.back}
                  onClick={() => navigate(config, 'back')}
                >
                  <BackIcon />
                </button>
              ) : (
                <span />
              )}
              <h2 id={titleId}>{titles[view] ?? en.walletDialog}</h2>
              <button
                type="button"
                className="icon-button"
                part="close-button"
                aria-label={en.close}
                onClick={() => void close(config)}
              >
                <CloseIcon />
              </button>
            </div>
            <Suspense
              fallback={
                <div className="fallback" role="status">
                  <span className="spinner" aria-hidden="true" /> {en.loading}
                </div>
              }
            >
              {Current ? <Current config={config} /> : null}
            </Suspense>
          </div>
        </div>
      </div>
    </>
  )
}
