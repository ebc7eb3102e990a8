/**
 * The marks of the site's own wallet as the modal announces it to the page (core/announce.ts), so
 * that the modal's own discovery (EIP-6963 and the Wallet Standard) never lists it as a second,
 * browser wallet beside the e-mail sign-in it already offers.
 */

/**
 * The EIP-6963 `rdns` of the announcement: the embedded connector's id (`embedded`) under the
 * package's name, the same on every site (a page has one site's wallet).
 */
export const SITE_WALLET_RDNS = 'org.wallet-elements.embedded'

/**
 * A property the site's Wallet Standard wallet carries (`Symbol.for`, so two bundles on one page
 * agree), read by the Wallet Standard watcher to leave it out.
 */
export const SITE_WALLET_MARK: unique symbol = Symbol.for('wallet-elements.siteWallet') as never

/**
 * Whether a Wallet Standard wallet is the site's own wallet, registered by this package.
 *
 * @example
 * getWallets().get().filter((wallet) => !isSiteWallet(wallet))
 */
export function isSiteWallet(wallet: object): boolean {
  return (wallet as { [SITE_WALLET_MARK]?: unknown })[SITE_WALLET_MARK] === true
}
