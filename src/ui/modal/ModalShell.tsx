import type { ComponentType, KeyboardEvent, ReactNode } from 'react'
import { useEffect, useId, useLayoutEffect, useMemo, useRef } from 'react'
import { close } from '../../core/actions/close.ts'
import { navigate } from '../../core/actions/navigate.ts'
import type { Config } from '../../core/createConfig.ts'
import type { View } from '../../core/modal/router.ts'
import { embeddedHome } from '../../core/modal/router.ts'
import { createStrings, localeDirection } from '../../shared/i18n/strings.ts'
import type { MessageKey, Messages } from '../../shared/locales/en.ts'
import { BackIcon, CloseIcon } from '../components/Icons.tsx'
import { ErrorMessage } from '../components/Message.tsx'
import { BalanceToast } from '../components/Toast.tsx'
import { useModule } from '../hooks/useModule.ts'
import { useStore } from '../hooks/useStore.ts'
import type { Locale } from '../i18n/locales.ts'
import { modalStyles } from '../theme/modalStyles.ts'
import ConnectView from '../views/ConnectView.tsx'
import { focusableIn } from './focusable.ts'
import { AutoFocusContext, StringsContext } from './viewContext.ts'
import type { ViewProps } from './viewProps.ts'

export type { ViewProps }

type Loader = () => Promise<{ default: ComponentType<ViewProps> }>

/** The embedded wallet's frame, laid over the ApproveTransaction view: part of the dialog for focus. */
const WALLET_FRAME = '[data-wallet-frame]'
const isWalletFrame = (node: unknown) => node instanceof Element && node.matches(WALLET_FRAME)

/** The embedded wallet's views: one chunk for all of them (src/ui/views/EmbeddedViews.tsx). */
const embeddedViews: Loader = () => import('../views/EmbeddedViews.tsx')

/** The name and on-ramp views: one chunk (src/ui/views/NameViews.tsx). */
const nameViews: Loader = () => import('../views/NameViews.tsx')

/**
 * What a phone or touch screen adds (touch-size targets, the sheet's swipe, the back gesture): its own
 * chunk (src/ui/modal/PhoneSheet.tsx), asked for only on a phone, a touch screen, or in a window narrow
 * enough for the bottom sheet (modalStyles' breakpoint).
 */
const phoneSheet = () => import('./PhoneSheet.tsx')
const PHONE_MEDIA = '(max-width: 480px), (pointer: coarse)'

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
  EmailVerifyOtp: embeddedViews,
  EmailVerifyDevice: embeddedViews,
  ApproveTransaction: embeddedViews,
  UpdateEmailWallet: embeddedViews,
  UpdateEmailOtp: embeddedViews,
  ConnectingFarcaster: () => import('../views/ConnectingFarcasterView.tsx'),
  Swap: () => import('../views/SwapView.tsx'),
  RegisterAccountName: nameViews,
  RegisterAccountNameSuccess: nameViews,
  OnRamp: nameViews,
}

/** Each view's heading. A new view adds its key here and its strings to every catalogue. */
const titles: Partial<Record<View, MessageKey>> = {
  Connect: 'connectWallet',
  ConnectingExternal: 'connectWallet',
  AllWallets: 'allWallets',
  SIWXSignMessage: 'signIn',
  ConnectingWalletConnect: 'connectWallet',
  ConnectingWalletConnectBasic: 'scanWithPhone',
  Account: 'account',
  Networks: 'selectNetwork',
  UnsupportedChain: 'unsupportedChain',
  WalletSend: 'send',
  EmailVerifyOtp: 'enterCode',
  EmailVerifyDevice: 'approveBrowser',
  ApproveTransaction: 'approveRequest',
  UpdateEmailWallet: 'updateEmail',
  UpdateEmailOtp: 'enterCode',
  ConnectingFarcaster: 'signInWithFarcaster',
  Swap: 'swap',
  RegisterAccountName: 'registerName',
  RegisterAccountNameSuccess: 'registerName',
  OnRamp: 'buyCrypto',
}

export interface ModalShellProps {
  config: Config
  host: Element
  locale: Locale
  messages: Messages
}

/**
 * The dialog (or, with `inline`, a region in the page): header, the current view, focus
 * management and the modal's strings.
 *
 * Focus never falls to the page: a view takes it on its main control (`autoFocus`), and when a view
 * has none, or the focused control goes away, the view's heading takes it.
 */
export default function ModalShell({ config, host, locale, messages }: ModalShellProps) {
  const modal = useStore(config.$modal)
  const theme = useStore(config.$theme)
  const options = useStore(config.$options)
  const alert = useStore(config.$alert)
  const account = useStore(config.$account)
  const panel = useRef<HTMLDivElement>(null)
  const header = useRef<HTMLDivElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const body = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const { view } = modal.router
  const inline = options.inline
  const Lazy = useModule(eagerViews[view] ? undefined : lazyViews[view])
  const Current = eagerViews[view] ?? Lazy

  // Right to left for a right-to-left language, or on a right-to-left page (inherited).
  const rtlLocale = localeDirection(locale) === 'rtl'
  const pageDirection = useMemo(() => getComputedStyle(host).direction, [host])
  const dir = rtlLocale || pageDirection === 'rtl' ? 'rtl' : 'ltr'
  const strings = useMemo(() => createStrings(locale, messages, dir), [locale, messages, dir])
  const { t } = strings

  // Whether focus is the modal's to manage: always for the dialog; for an inline modal only while
  // the person is working in it (it must not pull focus from elsewhere in the page).
  const focusOwned = useRef(!inline)
  const focusHeading = () => heading.current?.focus({ preventScroll: inline })

  // On each view change focus goes to the view (its autoFocus control, or the wallet frame it lays over
  // itself, took it already) or its heading.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the view or its chunk changes.
  useLayoutEffect(() => {
    const active = (panel.current?.getRootNode() as ShadowRoot | undefined)?.activeElement
    if (active && (body.current?.contains(active) || isWalletFrame(active))) return
    if (focusOwned.current) focusHeading()
  }, [view, Current])

  // biome-ignore lint/correctness/useExhaustiveDependencies: focusHeading reads refs only.
  useEffect(() => {
    const doc = host.ownerDocument
    const current = panel.current
    if (!current) return
    const root = current.getRootNode() as ShadowRoot
    const inside = (event: Event) => {
      const target = event.composedPath()[0]
      return target instanceof Node && current.contains(target)
    }
    // A control that disappears or becomes disabled while focused drops focus on the page's body.
    const observer = new MutationObserver(() => {
      const active = doc.activeElement
      if (focusOwned.current && !root.activeElement && (!active || active === doc.body || active === host))
        focusHeading()
    })
    observer.observe(current, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['disabled', 'hidden'],
    })
    const onFocusIn = (event: FocusEvent) => {
      const target = event.composedPath()[0]
      // The wallet frame (its own origin), laid over the ApproveTransaction view, is part of the dialog.
      if (inside(event) || target === host || isWalletFrame(target)) focusOwned.current = true
      else if (inline) focusOwned.current = false
      // The dialog keeps focus inside while open (the page behind is inert to the keyboard).
      else focusHeading()
    }
    const onPointerDown = (event: PointerEvent) => {
      if (inline && !inside(event)) focusOwned.current = false
    }
    // When the focused control disappears, focus falls to the page's body, out of the panel's
    // keydown handler: keys arriving there still belong to the dialog.
    const strayKeys = (event: globalThis.KeyboardEvent) => {
      if (inline || inside(event)) return
      if (event.key === 'Escape') {
        event.preventDefault()
        void close(config)
      } else if (event.key === 'Tab') {
        event.preventDefault()
        ;(focusableIn(current)[0] ?? heading.current)?.focus()
      }
    }
    doc.addEventListener('focusin', onFocusIn)
    doc.addEventListener('pointerdown', onPointerDown, true)
    doc.addEventListener('keydown', strayKeys)
    return () => {
      observer.disconnect()
      doc.removeEventListener('focusin', onFocusIn)
      doc.removeEventListener('pointerdown', onPointerDown, true)
      doc.removeEventListener('keydown', strayKeys)
    }
  }, [host, config, inline])

  // The page behind an open dialog does not scroll (its scrollbar's room is kept, so nothing shifts).
  useEffect(() => {
    if (inline) return
    const root = host.ownerDocument.documentElement
    const before = { overflow: root.style.overflow, gutter: root.style.scrollbarGutter }
    const hadScrollbar = (host.ownerDocument.defaultView?.innerWidth ?? 0) > root.clientWidth
    root.style.overflow = 'hidden'
    if (hadScrollbar) root.style.scrollbarGutter = 'stable'
    return () => {
      root.style.overflow = before.overflow
      root.style.scrollbarGutter = before.gutter
    }
  }, [host, inline])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (inline) return
    if (event.key === 'Escape') {
      event.stopPropagation()
      void close(config)
      return
    }
    if (event.key !== 'Tab' || !panel.current) return
    const root = panel.current.getRootNode() as ShadowRoot
    const items = focusableIn(panel.current)
    // The wallet frame shown over ApproveTransaction (the view's only content) comes last in the order.
    items.push(...root.querySelectorAll<HTMLElement>(`${WALLET_FRAME}[tabindex="0"]`))
    if (items.length === 0) return
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

  const PhoneSheet = useModule(
    config.platform.isMobile() || host.ownerDocument.defaultView?.matchMedia(PHONE_MEDIA).matches
      ? phoneSheet
      : undefined,
  )

  const atHome = inline && modal.router.history.length === 0 && view === embeddedHome(account !== undefined)
  const title = titles[view]
  const content = (
    // biome-ignore lint/a11y/noStaticElementInteractions: the role is dialog (region when inline); its keys are handled here.
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-modal is set only with role dialog.
    <div
      ref={panel}
      className="panel"
      part="panel"
      role={inline ? 'region' : 'dialog'}
      aria-modal={inline ? undefined : 'true'}
      aria-labelledby={titleId}
      tabIndex={-1}
      data-shake={modal.shake ? '' : undefined}
      data-view={view}
      onKeyDown={onKeyDown}
    >
      <div className="header" part="header" ref={header}>
        {modal.router.history.length > 0 ? (
          <button
            type="button"
            className="icon-button"
            part="back-button"
            aria-label={t('back')}
            onClick={() => navigate(config, 'back')}
          >
            <BackIcon />
          </button>
        ) : (
          <span />
        )}
        <h2 id={titleId} ref={heading} tabIndex={-1}>
          {t(title ?? 'walletDialog')}
        </h2>
        {atHome ? (
          <span />
        ) : (
          <button
            type="button"
            className="icon-button"
            part="close-button"
            aria-label={t('close')}
            onClick={() => void close(config)}
          >
            <CloseIcon />
          </button>
        )}
      </div>
      <div className="body" ref={body} part="body">
        <div role="alert" className="alerts">
          {alert ? (
            <div className="alert" part="alert">
              {strings.error(alert)}
            </div>
          ) : null}
          {modal.blockedReason === 'signInRequired' ? (
            <ErrorMessage>{t('signInOrDisconnectToClose')}</ErrorMessage>
          ) : null}
        </div>
        {Current ? (
          <Current config={config} />
        ) : (
          <div className="fallback" role="status">
            <span className="spinner" aria-hidden="true" /> {t('loading')}
          </div>
        )}
      </div>
      <BalanceToast config={config} />
    </div>
  )
  return (
    <>
      <style>{modalStyles}</style>
      <StringsContext.Provider value={strings}>
        <div
          className="root"
          data-theme={theme}
          data-inline={inline ? '' : undefined}
          lang={locale}
          dir={rtlLocale ? 'rtl' : undefined}
          style={
            options.accent
              ? { ['--_accent' as string]: `var(--wallet-accent, ${options.accent})` }
              : undefined
          }
        >
          <AutoFocusContext.Provider value={focusOwned.current}>
            {inline ? content : <Overlay config={config}>{content}</Overlay>}
          </AutoFocusContext.Provider>
          {PhoneSheet ? <PhoneSheet config={config} panel={panel} header={header} /> : null}
        </div>
      </StringsContext.Provider>
    </>
  )
}

function Overlay({ config, children }: { config: Config; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is a pointer convenience; keyboard users have Escape and the close button.
    <div
      className="overlay"
      part="overlay"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) void close(config)
      }}
    >
      {children}
    </div>
  )
}
