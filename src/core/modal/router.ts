/** The modal's views (SPEC section 2). */
export type View =
  | 'Connect'
  | 'Account'
  | 'AllWallets'
  | 'ConnectingWalletConnectBasic'
  | 'ConnectingWalletConnect'
  | 'ConnectingExternal'
  | 'ConnectingFarcaster'
  | 'SIWXSignMessage'
  | 'ApproveTransaction'
  | 'Swap'
  | 'UnsupportedChain'
  | 'RegisterAccountName'
  | 'RegisterAccountNameSuccess'
  | 'OnRamp'
  | 'Networks'
  | 'WalletSend'
  | 'EmailVerifyOtp'
  | 'EmailVerifyDevice'
  | 'UpdateEmailWallet'
  | 'UpdateEmailOtp'

export interface RouterState {
  view: View
  /** Views behind the current one, oldest first; `back()` pops from here. */
  history: readonly View[]
  data: Readonly<Record<string, unknown>> | undefined
}

export interface OpeningContext {
  connected: boolean
  isMobile: boolean
  /**
   * Chain adapters the site configured: the chain namespaces of its networks (EVM, Solana, Bitcoin).
   * Not the browser wallets found, which announce themselves when they like: the first view must not
   * change with how soon they do.
   */
  adapterCount: number
  unsupportedChain: boolean
}

/**
 * The view the modal opens on: Account when an address is connected, otherwise Connect, which offers
 * every way in the site turned on (e-mail, socials, Farcaster, browser wallets, WalletConnect wallets),
 * on a phone as on a computer. Only a phone page with no chain adapter configured opens AllWallets. A
 * connected wallet on a network the site does not list opens UnsupportedChain. A caller may force a
 * view and its data.
 *
 * @example
 * initialView({ connected: false, isMobile: true, adapterCount: 1, unsupportedChain: false }) // 'Connect'
 */
export function initialView(context: OpeningContext, forced?: View): View {
  if (forced) return forced
  if (context.connected) return context.unsupportedChain ? 'UnsupportedChain' : 'Account'
  if (context.isMobile && context.adapterCount === 0) return 'AllWallets'
  return 'Connect'
}

export const startAt = (view: View, data?: Record<string, unknown>): RouterState => ({
  view,
  history: [],
  data,
})

export const push = (state: RouterState, view: View, data?: Record<string, unknown>): RouterState =>
  view === state.view ? { ...state, data } : { view, history: [...state.history, state.view], data }

export const replace = (state: RouterState, view: View, data?: Record<string, unknown>): RouterState => ({
  ...state,
  view,
  data,
})

export function back(state: RouterState): RouterState {
  const previous = state.history.at(-1)
  return previous ? { view: previous, history: state.history.slice(0, -1), data: undefined } : state
}

export const canGoBack = (state: RouterState) => state.history.length > 0

export interface CloseContext {
  view: View
  siwxRequired: boolean
  hasSession: boolean
}

/** The sign-in view cannot be closed while sign-in is required and no session exists. */
export const canClose = ({ view, siwxRequired, hasSession }: CloseContext) =>
  !(view === 'SIWXSignMessage' && siwxRequired && !hasSession)

/** Where an embedded modal returns when "closed": Account when connected, otherwise Connect. */
export const embeddedHome = (connected: boolean): View => (connected ? 'Account' : 'Connect')
