import type { Config } from '../config.ts'
import { openPairing } from '../pairing/session.ts'
import { makesPairingsAhead } from './preparePairing.ts'

export interface StartPairingParameters {
  /** The catalogue wallet being paired, remembered among recent wallets. */
  wallet?: { id: string; name: string } | undefined
  /** A new pairing even when one is in progress (the view's retry). */
  fresh?: boolean | undefined
}

/**
 * Pairs for the ConnectingWalletConnect views: a URI in `$pairing`, replaced by a fresh one before it
 * expires (4 minutes, minus the last 10 s), and a connection attempt waiting for the wallet's answer.
 * The pairing in progress is used when there is one (a phone makes it ahead while Connect or All
 * wallets is open, so that the tap on a wallet opens its app at once); otherwise, or with `fresh`, a
 * new one replaces it. Approval connects like any wallet; a rejection or failure is kept for the view's
 * retry. Closing the modal, or moving to a view that does not pair, stops it (the link is reset).
 * Resolves once the first URI exists or the pairing failed.
 *
 * @example
 * await startPairing(config, { wallet: { id: entry.id, name: entry.name } })
 */
export function startPairing(config: Config, parameters: StartPairingParameters = {}): Promise<void> {
  const live = parameters.fresh ? undefined : config.internal.pairing
  const session = live ?? openPairing(config, { preparing: makesPairingsAhead(config) })
  session.use(parameters.wallet)
  return session.ready.then(() => {})
}
