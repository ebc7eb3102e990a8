import type { ErrorSummary } from '../../errors/base.ts'

/** A catalogue wallet a pairing is for: remembered among recent wallets when it connects. */
export interface PairingWallet {
  id: string
  name: string
}

/**
 * A wallet's app opened from a link on a phone (its row, or Open {name}): `opening` right after the tap,
 * `left` once the page went away (hidden, `pagehide` or blur: the app came up), `stayed` when the page
 * was still in front about 2 s later (the app is likely not installed).
 */
export interface AppLaunch {
  walletId: string
  status: 'opening' | 'left' | 'stayed'
}

/**
 * A WalletConnect pairing: shown by the ConnectingWalletConnect views, and on a phone made ahead while
 * Connect or All wallets is open so that a wallet's row can be a link carrying the URI.
 */
export interface PairingState {
  status: 'idle' | 'creating' | 'waiting' | 'rejected' | 'failed'
  uri: string | undefined
  createdAt: number
  error: ErrorSummary | undefined
  /** The wallet chosen for it (recent wallets remember it); none for the generic QR code or a pairing made ahead. */
  wallet?: PairingWallet | undefined
  /** Whether a connection attempt waits for a wallet's answer (a pairing made ahead has none until a tap). */
  connecting?: boolean | undefined
  /** The last app opened from a link carrying this pairing, and whether it seemed to open. */
  launch?: AppLaunch | undefined
}

/** The pairing in progress: one per config (`config.internal.pairing`). */
export interface PairingSession {
  /**
   * Points the pairing at `wallet` (undefined: any wallet) and starts the connection attempt that waits
   * for a wallet's answer, once the first URI exists. A pairing made ahead is used this way by the tap
   * on a wallet; another wallet tapped later takes the attempt over (recent wallets remember that one).
   */
  use(wallet: PairingWallet | undefined): void
  /** Ends it: timers, the pending attempt, the view follower; `$pairing` is reset (SPEC 2: closing resets the link). */
  stop(): void
  /** Settles with the first URI: true when one exists and the pairing goes on, false when it failed or stopped. */
  ready: Promise<boolean>
  /** Set by `watchAppLaunch`: what to undo when the pairing ends. */
  endLaunch: (() => void) | undefined
}

export const IDLE_PAIRING: PairingState = { status: 'idle', uri: undefined, createdAt: 0, error: undefined }
