// What the frame's wallet is made from (its dependencies) and what its handlers answer.
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { AccountTypePreview } from '../protocol/embedded/approvalWindow.ts'
import type {
  AppEvent,
  AppEventType,
  ApprovalPreview,
  CustodyMode,
  EmbeddedUser,
  FrameErrorPayload,
  FrameSuccessPayload,
} from '../protocol/embedded/index.ts'
import type { FrameApi } from './api.ts'
import type { ExportUi } from './exportView.ts'
import type { DeviceShareStore } from './keys/deviceShare.ts'
import type { SessionKeyStore } from './keys/sessionKeys.ts'
import type { PasskeyUi } from './passkeyView.ts'
import type { RecoveryUi } from './recoveryView.ts'
import type { FrameStorage } from './storage.ts'

export type { AccountTypePreview }

/** The frame's approval view: shows a request and settles once the person decided. */
export interface ApprovalUi {
  /**
   * Shows the preview; on Approve calls `sign` and resolves with its result, on Reject (or a
   * cancel from the app) rejects with a 4001 error. Requests are shown one at a time.
   */
  show(preview: ApprovalPreview | AccountTypePreview, sign: () => Promise<unknown>): Promise<unknown>
  /** The app closed its view: reject what is shown. */
  cancel(): void
}

/** WebAuthn's two ceremonies, injected (the frame's `navigator.credentials`). */
export interface WebAuthnCeremonies {
  create(options: Record<string, unknown>): Promise<unknown>
  get(options: Record<string, unknown>): Promise<unknown>
}

/** Appearance and the site's data the app sends (SYNC_THEME, SYNC_DAPP_DATA). */
export interface FrameLook {
  theme(mode: 'light' | 'dark', accent: string | undefined): void
  /** The modal's `locale` option, if it has one (else the browser's languages apply). */
  locale(locale: string | undefined): void
}

export type FrameAnswer<T extends AppEventType = AppEventType> =
  | { type: `${T}_SUCCESS`; payload: FrameSuccessPayload<T> }
  | { type: `${T}_ERROR`; payload: FrameErrorPayload }

export interface FrameWalletDependencies {
  api: FrameApi
  storage: FrameStorage
  approvals: ApprovalUi
  /** The Export and Delete views; without them both answer `Not available`. */
  exportUi?: ExportUi
  /** The recovery views; without them SECURE_WALLET only answers where recovery stands. */
  recoveryUi?: RecoveryUi
  look: FrameLook
  /** The passkey views; without them, or without `webauthn`, both answer `Not available`. */
  passkeyUi?: PasskeyUi
  /** The browser's passkeys: `options` in their JSON form, the credential answered in its JSON form. */
  webauthn?: WebAuthnCeremonies
  /**
   * This browser's device shares (IndexedDB on the frame's origin: one of the three shares of the person's
   * keys). Without it (storage blocked) no wallet is set up or recovered here: a share kept in memory would
   * die with the page.
   */
  deviceShares?: DeviceShareStore
  /** The permissions' session keys (IndexedDB on the frame's origin); without it no permission is granted here. */
  sessionKeys?: SessionKeyStore
  /** The network the frame was loaded on (its URL's `chainId`). */
  chainId: CaipNetworkId
  /** The site the frame answers (the handshake's origin). */
  site: string
  log?: (message: string, details?: Record<string, unknown>) => void
  /** The service ended the session (signed out elsewhere, expired): the app disconnects. */
  onSessionEnded?: () => void
  /**
   * Who is signed in (or nobody), for the frame to draw itself: the e-mail and a social username stay
   * in the frame (any script of the site could ask a frame of its own), so Account shows them through
   * it; with the custody mode (who can use the wallet's keys) once the keys are known.
   */
  identity?: (user: EmbeddedUser | undefined, custody?: CustodyMode) => void
}

/** The handlers of some app events (SPEC section 7), each resolving with its success payload. */
export type FrameHandlers<T extends AppEventType> = {
  [K in T]: (payload: Extract<AppEvent, { type: K }>['payload']) => Promise<FrameSuccessPayload<K>>
}
