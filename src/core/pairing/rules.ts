import { PAIRING_EXPIRY_MARGIN_MS, PAIRING_LIFETIME_MS, PAIRING_RETRY_MS } from '../../protocol/constants.ts'

/**
 * A pairing lasts 4 minutes and counts as expired when 10 s or less remain (SPEC section 4), so a
 * URI is never shown that the wallet could not finish with.
 *
 * @example
 * isPairingExpired(createdAt, createdAt + 231_000) // true
 */
export const isPairingExpired = (createdAt: number, now: number) =>
  createdAt + PAIRING_LIFETIME_MS - now <= PAIRING_EXPIRY_MARGIN_MS

/** When a fresh URI must replace the current one. */
export const pairingRefreshAt = (createdAt: number) =>
  createdAt + PAIRING_LIFETIME_MS - PAIRING_EXPIRY_MARGIN_MS

/** A retry is allowed 1 s after the previous attempt. */
export const canRetryPairing = (lastAttemptAt: number, now: number) => now - lastAttemptAt >= PAIRING_RETRY_MS

/**
 * How long after a tap on a wallet's link the page may stay in front before the modal says the app
 * did not open: a phone that opens the app hides the page well within it.
 */
export const APP_OPEN_CHECK_MS = 2_000

/** The views a pairing lives on. A phone makes its pairing ahead on Connect and All wallets too. */
const PAIRING_VIEWS = new Set(['ConnectingWalletConnect', 'ConnectingWalletConnectBasic'])
const PREPARING_VIEWS = new Set(['Connect', 'AllWallets'])

/**
 * Whether a pairing may stay alive on `view`: the ConnectingWalletConnect views always; Connect and
 * All wallets where pairings are made ahead (a phone), so that the tap on a wallet and the way back
 * keep the one pairing.
 *
 * @example
 * keepsPairing('Connect', { preparing: true }) // true on a phone
 * keepsPairing('Account', { preparing: true }) // false
 */
export const keepsPairing = (view: string, context: { preparing: boolean }) =>
  PAIRING_VIEWS.has(view) || (context.preparing && PREPARING_VIEWS.has(view))

/**
 * Whether the modal makes a pairing ahead on `view`: on a phone, where WalletConnect is configured,
 * on Connect and All wallets (where a wallet's row becomes a link carrying the URI).
 *
 * @example
 * preparesPairing({ view: 'Connect', isMobile: true, walletConnect: true }) // true
 * preparesPairing({ view: 'Connect', isMobile: false, walletConnect: true }) // false: a computer shows QR codes
 */
export const preparesPairing = (context: { view: string; isMobile: boolean; walletConnect: boolean }) =>
  context.isMobile && context.walletConnect && PREPARING_VIEWS.has(context.view)

/**
 * The URI a link may carry now: a pairing waiting for a wallet, not expired (a link made with an expired
 * URI would open the app on a pairing it cannot finish).
 *
 * @example
 * linkableUri($pairing.get(), Date.now()) // 'wc:…' or undefined
 */
export function linkableUri(
  pairing: { status: string; uri: string | undefined; createdAt: number },
  now: number,
): string | undefined {
  if (pairing.status !== 'waiting' || !pairing.uri) return undefined
  return isPairingExpired(pairing.createdAt, now) ? undefined : pairing.uri
}

/**
 * Whether the page can pair over WalletConnect: a relay, or a project id to reach one with.
 *
 * @example
 * walletConnectConfigured(config.$options.get()) // true with `relay-url` or a project id
 */
export const walletConnectConfigured = (options: {
  relayUrl?: string | undefined
  projectId?: string | undefined
  walletConnectProjectId?: string | undefined
}) => Boolean(options.relayUrl || options.projectId || options.walletConnectProjectId)
