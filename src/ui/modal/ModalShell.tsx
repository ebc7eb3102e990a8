import type { ComponentType, KeyboardEvent } from 'react'
import { useId, useLayoutEffect, useRef } from 'react'
import { close } from '../../core/actions/close.ts'
import { navigate } from '../../core/actions/navigate.ts'
import type { Config } from '../../core/createConfig.ts'
import type { View } from '../../core/modal/router.ts'
import { BackIcon, CloseIcon } from '../components/Icons.tsx'
import { useModule } from '../hooks/useModule.ts'
import { useStore } from '../hooks/useStore.ts'
import { en } from '../locales/en.ts'
import { modalStyles } from '../theme/modalStyles.ts'
import ConnectView from '../views/ConnectView.tsx'
import { focusableIn } from './focus.ts'

export interface ViewProps {
  config: Config
}

type Loader = () => Promise<{ default: ComponentType<ViewProps> }>

/** Connect is the usual first view: bundled with the shell to save a round trip. */
const eagerViews: Partial<Record<View, ComponentType<ViewProps>>> = { Connect: ConnectView }

/** Every other view is its own chunk, loaded when first shown. */
const lazyViews: Partial<Record<View, Loader>> = {
  ConnectingExternal: () => import('../views/ConnectingExternalView.tsx'),
  AllWallets: () => import('../views/AllWalletsView.tsx'),
  SIWXSignMessage: () => import('../views/SIWXSignMessageView.tsx'),
  ConnectingWalletConnect: () => import('../views/ConnectingWalletConnectView.tsx'),
  ConnectingWalletConnectBasic: () => import('../views/ConnectingWalletConnectBasicView.tsx'),
  Account: () => import('../views/AccountView.tsx'),
  Networks: () => import('../views/NetworksView.tsx'),
  UnsupportedChain: () => import('../views/UnsupportedChainView.tsx'),
  WalletSend: () => import('../views/WalletSendView.tsx'),
}

const titles: Partial<Record<View, string>> = {
  Connect: en.connectWallet,
  ConnectingExternal: en.connectWallet,
  AllWallets: en.allWallets,
  SIWXSignMessage: en.signIn,
  ConnectingWalletConnect: en.connectWallet,
  ConnectingWalletConnectBasic: en.scanWithPhone,
  Account: en.account,
  Networks: en.selectNetwork,
  UnsupportedChain: en.unsupportedTitle,
  WalletSend: en.send,
}

/** The dialog: overlay, panel, header, focus trap and the current view. */
export default function ModalShell({ config, host }: { config: Config; host: Element }) {
  const modal = useStore(config.$modal)
  const theme = useStore(config.$theme)
  const options = useStore(config.$options)
  const alert = useStore(config.$alert)
  const panel = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const { view } = modal.router
  const Lazy = useModule(eagerViews[view] ? undefined : lazyViews[view])
  const Current = eagerViews[view] ?? Lazy

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
    // When the focused control disappears (a view changed), focus falls to the page's body, out of
    // the panel's keydown handler: keys arriving there still belong to the dialog.
    const strayKeys = (event: globalThis.KeyboardEvent) => {
      const current = panel.current
      if (!current || event.composedPath().includes(current)) return
      if (event.key === 'Escape') {
        event.preventDefault()
        void close(config)
      } else if (event.key === 'Tab') {
        event.preventDefault()
        ;(focusableIn(current)[0] ?? current).focus()
      }
    }
    doc.addEventListener('focusin', keepFocusInside)
    doc.addEventListener('keydown', strayKeys)
    return () => {
      doc.removeEventListener('focusin', keepFocusInside)
      doc.removeEventListener('keydown', strayKeys)
    }
  }, [host, config])

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
            {alert ? (
              <div className="alert" role="alert" part="alert">
                {alert.message}
              </div>
            ) : null}
            {Current ? (
              <Current config={config} />
            ) : (
              <div className="fallback" role="status">
                <span className="spinner" aria-hidden="true" /> {en.loading}
              </div>
            )}
          </div>
        </div>
      </div>
    </>
  )
}
