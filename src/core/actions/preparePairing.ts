import type { Config } from '../config.ts'
import { preparesPairing, walletConnectConfigured } from '../pairing/rules.ts'
import { openPairing } from '../pairing/session.ts'

/**
 * Whether this page makes its pairings ahead: a phone (the tap on a wallet must open its app in the
 * same gesture, which only a link that is already there can) where WalletConnect is configured.
 *
 * @example
 * makesPairingsAhead(config) // true on a phone with `relay-url` or a project id
 */
export const makesPairingsAhead = (config: Config) =>
  config.platform.isMobile() && walletConnectConfigured(config.$options.get())

/**
 * Makes the pairing a phone's wallet rows link to, while Connect or All wallets is open: its URI is in
 * `$pairing` before any tap, and whichever wallet is tapped uses it (`openWalletApp`). Nothing when a
 * pairing is already in progress (one at a time), on a computer (QR codes are made when asked for), or
 * on another view. It is refreshed before it expires and stops when the modal closes, like any pairing.
 *
 * @example
 * preparePairing(config) // from Connect, when the page is idle
 */
export function preparePairing(config: Config): void {
  const modal = config.$modal.get()
  if (!modal.open || config.internal.pairing) return
  const context = {
    view: modal.router.view,
    isMobile: config.platform.isMobile(),
    walletConnect: walletConnectConfigured(config.$options.get()),
  }
  if (!preparesPairing(context)) return
  openPairing(config, { preparing: true })
}
