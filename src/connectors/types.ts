import type { CaipNetworkId, ChainNamespace } from '../protocol/caip.ts'
import type { AccountType } from '../protocol/entities.ts'

/** A minimal EIP-1193 provider: what every EVM wallet and our own providers expose. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on?(event: string, listener: (...args: never[]) => void): unknown
  removeListener?(event: string, listener: (...args: never[]) => void): unknown
}

/** EIP-6963 provider info, as announced by a browser wallet. */
export interface WalletInfo {
  uuid: string
  name: string
  icon: string
  rdns: string
}

export type ConnectorType = 'injected' | 'walletStandard' | 'walletConnect' | 'embedded' | 'farcaster'

/** What a connector reports once connected, and on every wallet-side change. */
/** The embedded wallet's account type (SPEC 3), and for a smart account whether it has code yet. */
export interface AccountKind {
  accountType?: AccountType | undefined
  smartAccountDeployed?: boolean | undefined
}

export interface ConnectorState extends AccountKind {
  namespace: ChainNamespace
  accounts: readonly string[]
  chainId: CaipNetworkId
  /** Other namespaces the same approval connected (a WalletConnect session's), recorded beside this one. */
  alsoConnected?: readonly ConnectorState[] | undefined
}

export type ConnectorEvent =
  | ({ type: 'accountsChanged'; namespace: ChainNamespace; accounts: readonly string[] } & AccountKind)
  | { type: 'chainChanged'; namespace: ChainNamespace; chainId: CaipNetworkId }
  | { type: 'disconnect'; namespace: ChainNamespace }

/** Network details a wallet needs to add a chain it does not know (`wallet_addEthereumChain`). */
export interface AddNetworkParameters {
  caipNetworkId: CaipNetworkId
  name: string
  nativeCurrency: { name: string; symbol: string; decimals: number }
  rpcUrls: readonly string[]
  blockExplorerUrls?: readonly string[]
}

/**
 * One contract for every way in: browser wallets (EIP-6963), Wallet Standard, WalletConnect,
 * the embedded wallet and farcaster. Connectors are plain objects so two bundles on one page agree.
 */
export interface Connector {
  readonly id: string
  readonly name: string
  readonly type: ConnectorType
  readonly icon?: string | undefined
  readonly rdns?: string | undefined
  readonly namespaces: readonly ChainNamespace[]
  /** Asks the wallet for accounts; may show the wallet's prompt. */
  connect(parameters: {
    namespace: ChainNamespace
    chainId?: CaipNetworkId | undefined
  }): Promise<ConnectorState>
  /** Restores a connection without a prompt; resolves undefined when the wallet no longer authorises the site. */
  reconnect(parameters: {
    namespace: ChainNamespace
    /** The network used last, for connectors whose network is the site's choice (Solana). */
    chainId?: CaipNetworkId | undefined
  }): Promise<ConnectorState | undefined>
  disconnect(parameters: { namespace: ChainNamespace }): Promise<void>
  switchNetwork(parameters: { namespace: ChainNamespace; network: AddNetworkParameters }): Promise<void>
  /**
   * JSON-RPC requests for a namespace: EIP-1193 for eip155; for solana, WalletConnect's Solana
   * methods (`solana_signMessage`, `solana_signTransaction`, `solana_signAndSendTransaction`).
   */
  getProvider(namespace: ChainNamespace): Eip1193Provider
  /**
   * Subscribes to wallet-side changes (of one namespace when given; a connector may still report
   * others); returns the unsubscribe function.
   */
  subscribe(listener: (event: ConnectorEvent) => void, namespace?: ChainNamespace): () => void
}
