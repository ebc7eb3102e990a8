import type { MapStore, ReadableAtom, WritableAtom } from 'nanostores'
import type { EmbeddedConnector } from '../connectors/embedded/connector.ts'
import type { Connector, Eip1193Provider } from '../connectors/types.ts'
import type { WalletConnectConnector } from '../connectors/walletconnect/connector.ts'
import type { ErrorSummary } from '../errors/base.ts'
import type { TokensResponse } from '../protocol/api/blockchain.ts'
import type { CaipNetworkId, ChainNamespace } from '../protocol/caip.ts'
import type { ModalOptions, ModalOptionsInput, OptionIssue, UncheckedOptions } from '../protocol/config.ts'
import type { Network } from '../protocol/entities.ts'
import type { HttpClient } from '../services/http.ts'
import type { Storage } from '../services/storage.ts'
import type { RpcTransport } from '../services/transport.ts'
import type { ClientLog } from './clientLog.ts'
import type { ConnectionStatus } from './connection/machine.ts'
import type { Emitter } from './events/emitter.ts'
import type { WalletEventMap } from './events/types.ts'
import type { Platform } from './platform.ts'
import type { ActivityState } from './state/activity.ts'
import type { BalanceState } from './state/balances.ts'
import type {
  AccountState,
  ConnectingState,
  ConnectionOutcome,
  ConnectionRecord,
  NetworkState,
  TabSync,
} from './state/connection.ts'
import type { EmbeddedState } from './state/embedded.ts'
import type { ModalState } from './state/modal.ts'
import type { OnrampState } from './state/onramp.ts'
import type { PairingSession, PairingState } from './state/pairing.ts'
import type { PermissionsState } from './state/permissions.ts'
import type { ProfileEntry } from './state/profiles.ts'
import type { SendState } from './state/send.ts'
import type { SessionState, SiwxState } from './state/siwx.ts'
import type { SwapState } from './state/swap.ts'
import type { CatalogueState, WalletListState } from './state/wallets.ts'

/**
 * The type of a modal instance made by `createConfig`: its platform, storage, events and the stores
 * of each concept (one file per concept under `state/`, which owns the types and initial values).
 * Here, apart from `createConfig`, so that actions and the connection records can name it without
 * importing what `createConfig` starts.
 * @module
 */

export type { BalanceState, TokenHolding } from './state/balances.ts'
export type {
  AccountState,
  ConnectingState,
  ConnectionOutcome,
  ConnectionRecord,
  NetworkState,
} from './state/connection.ts'
export type { ModalState } from './state/modal.ts'
export type { AppLaunch, PairingState, PairingWallet } from './state/pairing.ts'
export { IDLE_PAIRING } from './state/pairing.ts'
export type { ProfileEntry } from './state/profiles.ts'
export type { SendForm, SendState } from './state/send.ts'
export { IDLE_SEND } from './state/send.ts'
export type { SessionState, SiwxState } from './state/siwx.ts'
export type { SwapForm, SwapState, SwapToken } from './state/swap.ts'
export type { CatalogueState, LoadStatus, WalletListState } from './state/wallets.ts'
export type { Connector }

/** A batch of EIP-5792 calls the page's fallback sent (core/evm/callsFallback.ts): its chain and hashes, in order. */
export interface SentCallBatch {
  chainId: string
  hashes: string[]
}

export interface Config {
  readonly platform: Platform
  readonly storage: Storage
  readonly events: Emitter
  /** The client log (kept only with `enableLogger`, the `debug` attribute), read by `getLogs()`. */
  readonly logger: ClientLog
  readonly $options: WritableAtom<ModalOptions>
  /** Definitions of the networks in `options.networks`, filled by `loadNetworks`. */
  readonly $networks: WritableAtom<readonly Network[]>
  readonly $modal: MapStore<ModalState>
  readonly $connections: MapStore<Partial<Record<ChainNamespace, ConnectionRecord>>>
  readonly $activeNamespace: WritableAtom<ChainNamespace>
  /** The network chosen while disconnected (or the connected network's id). */
  readonly $selectedNetworkId: WritableAtom<CaipNetworkId | undefined>
  readonly $connectors: ReadableAtom<readonly Connector[]>
  readonly $connecting: WritableAtom<ConnectingState | undefined>
  /** What the person's last connect, disconnect or sign-in came to; the modal follows it (core/follow). */
  readonly $outcome: WritableAtom<ConnectionOutcome | undefined>
  readonly $balances: MapStore<Record<string, BalanceState>>
  readonly $account: ReadableAtom<AccountState | undefined>
  readonly $network: ReadableAtom<NetworkState | undefined>
  readonly $status: ReadableAtom<ConnectionStatus>
  readonly $theme: ReadableAtom<'light' | 'dark'>
  readonly $catalogue: MapStore<CatalogueState>
  readonly $walletList: MapStore<WalletListState>
  /** A configuration problem to show at the top of the modal (`Invalid App Configuration`). */
  readonly $alert: WritableAtom<ErrorSummary | undefined>
  readonly $pairing: MapStore<PairingState>
  /** Sign-in progress shown by SIWXSignMessage. */
  readonly $siwx: MapStore<SiwxState>
  /** The send in progress or just finished (SPEC section 4: loading, then reset). */
  readonly $send: MapStore<SendState>
  /** The Swap view's tokens, quote and progress. */
  readonly $swap: MapStore<SwapState>
  /** Profiles (name, avatar) by address as the wallet gives it, kept 5 minutes (SPEC 9: identity cache; core/names.ts). */
  readonly $profiles: MapStore<Record<string, ProfileEntry | undefined>>
  /** The connected account's sign-in session, once known (SPEC section 3: data, message, signature, cacao). */
  readonly $session: WritableAtom<SessionState>
  /** Private bookkeeping of actions (wallet subscriptions, in-flight loads). */
  readonly internal: {
    unsubscribe: Map<ChainNamespace, () => void>
    /**
     * Above 0 while this tab applies what another tab of the page did (`connection/sync.ts`): the
     * connection records then write nothing to storage, which that tab wrote already (a stale value
     * written back from here would move the other tabs again).
     */
    fromOtherTab?: number | undefined
    /** This tab's part in keeping the page's tabs in step (`connection/sync.ts`), once started. */
    tabSync?: TabSync | undefined
    networksLoad: Promise<readonly Network[]> | undefined
    balanceBlockedUntil: Map<string, number>
    connectorsExtra: WritableAtom<readonly Connector[]>
    /** The companion-service client, created on first use. */
    http: HttpClient | undefined
    /** Sequence of AllWallets requests; answers to older ones are ignored. */
    walletListSeq: number
    /** Sequence of swap quotes; answers to older ones are ignored. */
    swapSeq: number
    /** The WalletConnect pairing in progress (core/pairing/session.ts): at most one. */
    pairing: PairingSession | undefined
    /** In required sign-in mode, `wallet-connect` waits for the session (SPEC: nothing counts before). */
    pendingConnect: WalletEventMap['connect'] | undefined
    /** The WalletConnect connector, once created. */
    walletConnect: Promise<WalletConnectConnector> | undefined
    /** The latest connection attempt per namespace; an older one that settles late changes nothing. */
    connectAttempts: Map<ChainNamespace, object>
    /** The embedded wallet's connector (and its frame), once created. */
    embedded?: Promise<EmbeddedConnector> | undefined
    /** Where the embedded wallet's frame lives: set by the modal (its shadow root's frame slot). */
    frameSlot?: Element | undefined
    /** Hashes (EVM) or signatures (Solana) sent and not confirmed yet, per CAIP-10 account. */
    pendingTransactions: Map<string, string[]>
    /** EIP-5792 batches the page's fallback sent (core/evm/callsFallback.ts), by id: chain and hashes. */
    callBatches: Map<string, SentCallBatch>
    /** Balance reads in flight, by balance key: a second caller shares the first read. */
    balanceLoads: Map<string, Promise<BalanceState>>
    /**
     * Set when the site's wallet is announced to the page (core/announce.ts): `eth_requestAccounts` on
     * `getProvider` with nothing connected opens the modal's sign-in and answers the accounts.
     */
    requestAccounts?: ((namespace: ChainNamespace) => Promise<readonly string[]>) | undefined
    /** `getProvider`'s EIP-1193 providers, one per namespace, kept across reconnects. */
    providers: Map<ChainNamespace, Eip1193Provider>
    /** Token lists by service, project and network (SPEC 9: portfolio cache). */
    tokenLists: Map<string, { fetchedAt: number; list: Promise<TokensResponse> }>
    /** Forward name lookups (name -> address), kept 5 minutes (SPEC 9: name cache). */
    resolvedNames: Map<string, { fetchedAt: number; address: Promise<string | null> }>
    /** Stores made on first use by the module that owns them: a page that never uses one never makes it. */
    embeddedState?: MapStore<EmbeddedState> | undefined
    /** The Activity list (`activityState`). */
    activity?: MapStore<ActivityState> | undefined
    /** Account's list of the site's permissions (`permissionsState`). */
    permissions?: MapStore<PermissionsState> | undefined
    /** The on-ramp view's state (`onrampState`). */
    onramp?: MapStore<OnrampState> | undefined
    /** Whether the page runs in a Farcaster mini app, once asked (`inFarcasterMiniApp`). */
    farcasterMiniApp?: Promise<boolean> | undefined
    /** The on-ramp quote asked last; an answer to an older one changes nothing. */
    onrampQuote?: object | undefined
    /** The latest block or slot while a view listens (`freshBalances`). */
    freshBalances?: ReadableAtom<number | undefined> | undefined
    /** Each network's RPC transport, for the URLs it was made for (`key`). */
    rpc: Map<
      CaipNetworkId,
      {
        key: string
        transport: RpcTransport
        close(): void
      }
    >
  }
  /**
   * Applies option values over `base` (the current options unless given; values are checked, so
   * attributes and untyped input may come in); returns what was rejected, each kept at its `base` value.
   */
  update(input: UncheckedOptions, base?: ModalOptions, from?: 'attributes' | 'property'): OptionIssue[]
}

export type CreateConfigParameters = ModalOptionsInput & {
  /**
   * Connectors of the page's own (a wallet the modal cannot discover, or a test's wallet), listed
   * after the browser wallets it finds.
   */
  connectors?: readonly Connector[] | undefined
}
