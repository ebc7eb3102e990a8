import type { FrameStatus } from '../../connectors/embedded/frame.ts'
import type { ErrorSummary } from '../../errors/base.ts'
import type { WalletRecovery } from '../../protocol/embedded/frame.ts'

/** The embedded wallet as the views see it (its frame, the e-mail in use, the approval view). */
export interface EmbeddedState {
  frame: FrameStatus
  /** The address being signed in with, or the signed-in user's. */
  email: string | undefined
  /** The social username of a social sign-in (SPEC 3), shown on Account when there is no e-mail. */
  userName: string | undefined
  /** The profile picture of a Farcaster sign-in, shown on Account beside the username. */
  userImage: string | undefined
  /** The social provider whose sign-in window is open. */
  social: string | undefined
  /** When another code or link may be mailed (ms since the epoch; SPEC 5: 30 s). */
  resendAt: number
  /**
   * While the frame shows a view (a request for approval, the recovery views): the height it needs, and
   * how many views it has shown since (each new one opens at its top).
   */
  approval: { height: number; shown: number } | undefined
  /**
   * A new browser for a known address (VERIFY_DEVICE, after its code was proven): the code this
   * browser shows, which the person types on the mailed link's page to approve it.
   */
  compareCode: string | undefined
  /** The person exported their keys: Account offers "Delete wallet". */
  exported: boolean
  /** Why the last export or deletion was refused (shown on Account). */
  leaveError: ErrorSummary | undefined
  /** How the wallet can be recovered on a new browser, as the frame says (Account nags without a method). */
  recovery: WalletRecovery | undefined
  /**
   * A sign-in is finishing with the frame's recovery view (SECURE_WALLET): when the view hides, the
   * modal stays where it is until the connection closes it (going back would restart the sign-in view).
   */
  securing: boolean
  /** Why the passkey view could not open (shown under Connect's and Account's passkey buttons). */
  passkeyError: ErrorSummary | undefined
}
