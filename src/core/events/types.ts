import type { ConnectorType } from '../../connectors/types.ts'
import type { AuthSession } from '../../protocol/api/auth.ts'
import type { CaipAddress, CaipNetworkId, ChainNamespace } from '../../protocol/caip.ts'
import type { AccountType } from '../../protocol/entities.ts'

export interface ConnectDetail {
  address: string
  caipAddress: CaipAddress
  chainId: CaipNetworkId
  namespace: ChainNamespace
  connector: { id: string; name: string; type: ConnectorType }
  /** The embedded wallet only: the account's type (SPEC 3), and whether a smart account has code yet. */
  accountType?: AccountType
  smartAccountDeployed?: boolean
}

export interface AccountChangeDetail {
  address: string
  caipAddress: CaipAddress
  namespace: ChainNamespace
  /** The embedded wallet only: the account's type (SPEC 3), and whether a smart account has code yet. */
  accountType?: AccountType
  smartAccountDeployed?: boolean
}

export interface NetworkChangeDetail {
  chainId: CaipNetworkId
  namespace: ChainNamespace
  /** Whether the network is one the site lists in `networks`. */
  supported: boolean
}

export interface ErrorDetail {
  code: number
  message: string
}

/** Every event `<wallet-modal>` dispatches, without the `wallet-` prefix, with its detail. */
export interface WalletEventMap {
  connect: ConnectDetail
  disconnect: { namespace: ChainNamespace }
  'account-change': AccountChangeDetail
  'network-change': NetworkChangeDetail
  open: { view: string }
  close: Record<string, never>
  'request-close': { view: string }
  error: ErrorDetail
  'sign-in': AuthSession
  'sign-out': { address: string }
}

export type WalletEventName = keyof WalletEventMap
