import type { ErrorSummary } from '../../errors/base.ts'
import type { CaipAddress, CaipNetworkId, ChainNamespace } from '../../protocol/caip.ts'
import type { Network } from '../../protocol/entities.ts'
import type { ConnectionStatus } from '../connection/machine.ts'

export interface ConnectionRecord {
  status: ConnectionStatus
  connectorId: string | undefined
  accounts: readonly string[]
  chainId: CaipNetworkId | undefined
}

export interface AccountState {
  namespace: ChainNamespace
  address: string
  caipAddress: CaipAddress
  type: 'eoa' | 'smartAccount'
  connectorId: string | undefined
}

export interface NetworkState {
  caipNetworkId: CaipNetworkId
  /** The definition, once networks are loaded; undefined for a network the site does not list. */
  network: Network | undefined
  supported: boolean
}

/** The state of a connection attempt, shown by ConnectingExternal. */
export interface ConnectingState {
  connectorId: string
  status: 'waiting' | 'rejected' | 'failed'
  error: ErrorSummary | undefined
}

/**
 * What the person's last connect, disconnect or sign-in came to, for the subscribers that move the
 * modal after it (`core/follow/outcome.ts`): actions record it here and never move the modal.
 */
export type ConnectionOutcome =
  | {
      type: 'connected'
      namespace: ChainNamespace
      /** The account has no session and sign-in is on: the sign-in view follows. */
      signIn: boolean
      /** Stay on the current view (a network switch that connects another namespace). */
      keepOpen: boolean
    }
  /** Connected on a network the site does not list: UnsupportedChain shows. */
  | { type: 'unsupported' }
  | { type: 'disconnected' }
  | { type: 'signed-in' }

/** A tab's part in keeping the page's tabs in step (`connection/sync.ts`): give it the page's events. */
export interface TabSync {
  /** A `storage`, `pageshow` or `visibilitychange` event of the page. */
  handle(event: Event): void
  /** Resolves once every look asked for so far is done. */
  settled(): Promise<void>
  /** Stops listening and closes its channel. */
  stop(): void
}
