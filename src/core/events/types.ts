import type { ConnectorType } from '../../connectors/types.ts'
import type { AuthSession } from '../../protocol/api/auth.ts'
import type { CaipAddress, CaipNetworkId, ChainNamespace } from '../../protocol/caip.ts'

export interface ConnectDetail {
  address: string
  caipAddress: CaipAddress
  chainId: CaipNetworkId
  namespace: ChainNamespace
  connector: { id: string; name: string; type: ConnectorType }
}

export interface AccountChangeDetail {
  address: string
  caipAddress: CaipAddress
  namespace: ChainNamespace
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
