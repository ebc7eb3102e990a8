import type { MapStore, ReadableAtom, WritableAtom } from 'nanostores'
import { atom, computed, map, onMount } from 'nanostores'
import type { Connector } from '../connectors/types.ts'

export type { Connector }

import type { EmbeddedConnector } from '../connectors/embedded/connector.ts'
import type { WalletConnectConnector } from '../connectors/walletconnect/connector.ts'
import type { ErrorSummary } from '../errors/base.ts'
import type { SwapQuote } from '../protocol/api/blockchain.ts'
import type { CatalogueEntry } from '../protocol/api/catalogue.ts'
import type { CaipAddress, CaipNetworkId, ChainNamespace } from '../protocol/caip.ts'
import type {
  ModalOptions,
  ModalOptionsInput,
  OptionIssue,
  SiwxSession,
  UncheckedOptions,
} from '../protocol/config.ts'
import { DEFAULT_OPTIONS, parseOptions } from '../protocol/config.ts'
import type { Network } from '../protocol/entities.ts'
import type { HttpClient } from '../services/http.ts'
import type { Storage } from '../services/storage.ts'
import { createStorage } from '../services/storage.ts'
import type { RpcTransport } from '../services/transport.ts'
import type { ClientLog } from './clientLog.ts'
import { createClientLog } from './clientLog.ts'
import type { ConnectionStatus } from './connection/machine.ts'
import type { Emitter } from './events/emitter.ts'
import { createEmitter } from './events/emitter.ts'
import type { WalletEventMap } from './events/types.ts'
import type { RouterState } from './modal/router.ts'
import { startAt } from './modal/router.ts'
import type { Platform } from './platform.ts'
import { browserPlatform } from './platform.ts'

/** Wallet Standard wallets found so far, and how to merge them with the browser wallets. */
interface WalletStandardFound {
  connectors: readonly Connector[]
  merge: (injected: readonly Connector[], standard: readonly Connector[]) => Connector[]
}

export interface ConnectionRecord {
  status: ConnectionStatus
  connectorId: string | undefined
  accounts: readonly string[]
  chainId: CaipNetworkId | undefined
}

export interface ModalState {
  /** Shown; always true in inline mode, where the views sit in the page. */
  open: boolean
  router: RouterState
  /** True from a blocked close until the 500 ms shake ends. */
  shake: boolean
  /** Why the last close was refused, when the modal can say it; cleared by the next view change. */
  blockedReason: 'signInRequired' | undefined
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

/** A token held besides the native currency (an ERC-20 on EVM, an SPL token on Solana). */
export interface TokenHolding {
  /** The token's mint (Solana) or contract (EVM) address. */
  address: string
  symbol: string
  name: string
  decimals: number
  /** Base units. */
  amount: bigint
  /** US dollars per whole token, from the companion service; null when it has no price. */
  price: number | null
  /** For `/public/getTokenImage/{imageId}` of the companion service. */
  imageId?: string | undefined
}

/** A token the Swap view offers: the native currency (`native`) or one of the network's token list. */
export interface SwapToken {
  address: string
  symbol: string
  name: string
  decimals: number
  price: number | null
  imageId?: string | undefined
}

/** The Swap view's state (SPEC: quotes, allowance, gas price, build approve and transaction). */
export interface SwapState {
  status:
    | 'idle'
    | 'loading'
    | 'unsupported'
    | 'quoting'
    | 'quoted'
    | 'approving'
    | 'swapping'
    | 'swapped'
    | 'error'
  /** The network's swappable tokens, the native currency first. */
  tokens: readonly SwapToken[]
  /** What the quote is for: token addresses (`native` for the native currency) and the amount as typed. */
  request?: { from: string; to: string; amount: string } | undefined
  quote?: SwapQuote | undefined
  /** Gas price × the quote's gas, in wei; undefined while unknown. */
  networkFee?: bigint | undefined
  /** Why the network fee is unknown (`Network not supported for Gas Price`). */
  feeError?: ErrorSummary | undefined
  /** The ERC-20 sold must be approved for the quote's spender before the swap. */
  needsApproval?: boolean | undefined
  /** Base units of the bought token the swap gave, once done. */
  received?: bigint | undefined
  hash?: string | undefined
  error?: ErrorSummary | undefined
  /**
   * What the person chose and typed (tokens, amount as typed): kept here, not in the view, so the
   * form is still there when the wallet's approval view gives the screen back.
   */
  form?: SwapForm | undefined
  /** What the swap in progress (or done) sells, as shown (`0.1 ETH`), for its result. */
  paid?: string | undefined
}

/** The Swap view's form: token addresses (`native` for the native currency) and the amount as typed. */
export interface SwapForm {
  from: string
  to: string
  amount: string
}

/** The Send view's form, as typed: the token (`native` or its address), the amount and the receiver. */
export interface SendForm {
  token: string
  amount: string
  receiver: string
}

export interface SendState {
  status: 'idle' | 'sending' | 'sent' | 'error'
  error: ErrorSummary | undefined
  /** The transaction hash (EVM) or signature (Solana) once sent. */
  hash: string | undefined
  /**
   * What the person typed: kept here, not in the view, so the form (or its result) is still there
   * when the wallet's approval view gives the screen back. Cleared once sent; kept on an error.
   */
  form: SendForm
  /** What was sent (the amount in whole tokens, the symbol, the receiver as typed), once sent. */
  sent: { amount: string; symbol: string; receiver: string } | undefined
}

/** A send not started: the native currency, nothing typed. */
export const IDLE_SEND: SendState = {
  status: 'idle',
  error: undefined,
  hash: undefined,
  form: { token: 'native', amount: '', receiver: '' },
  sent: undefined,
}

export interface BalanceState {
  status: 'loading' | 'ready' | 'error'
  /** The native currency, in base units. */
  value: bigint | undefined
  decimals: number
  symbol: string
  /** US dollars per whole native coin; null when the companion service has no price. */
  nativePrice: number | null
  tokens: readonly TokenHolding[]
  fetchedAt: number
}

/** The state of a connection attempt, shown by ConnectingExternal. */
export interface ConnectingState {
  connectorId: string
  status: 'waiting' | 'rejected' | 'failed'
  error: ErrorSummary | undefined
}

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

/**
 * A catalogue starts `idle` when there is a service to load it from, else `disabled`: the Connect
 * view then loads no catalogue code at all.
 */
const catalogueStatus = (options: ModalOptions): CatalogueState['status'] =>
  options.apiUrl ? 'idle' : 'disabled'

/** Catalogue wallets for the Connect view. */
export interface CatalogueState {
  status: LoadStatus | 'disabled'
  featured: readonly CatalogueEntry[]
  recommended: readonly CatalogueEntry[]
  /** Wallets in the catalogue (after include/exclude), for "All wallets". */
  count: number
  error: ErrorSummary | undefined
}

/** The AllWallets list: pages loaded so far, or search results. */
export interface WalletListState {
  status: LoadStatus
  entries: readonly CatalogueEntry[]
  count: number
  /** Next page to load (1-based); undefined when everything is loaded. */
  nextPage: number | undefined
  query: string
  error: ErrorSummary | undefined
}

/** A WalletConnect pairing shown by the ConnectingWalletConnect views. */
export interface PairingState {
  status: 'idle' | 'creating' | 'waiting' | 'rejected' | 'failed'
  uri: string | undefined
  createdAt: number
  error: ErrorSummary | undefined
}

export const IDLE_PAIRING: PairingState = { status: 'idle', uri: undefined, createdAt: 0, error: undefined }

/** An account's profile from the name registry (SPEC 3: profile name and image), when it was fetched. */
export interface ProfileEntry {
  name: string | null
  avatar: string | null
  fetchedAt: number
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
  readonly $siwx: MapStore<{
    status: 'idle' | 'signing' | 'signed' | 'error'
    error: ErrorSummary | undefined
  }>
  /** The send in progress or just finished (SPEC section 4: loading, then reset). */
  readonly $send: MapStore<SendState>
  /** The Swap view's tokens, quote and progress. */
  readonly $swap: MapStore<SwapState>
  /** Profiles (name, avatar) by address as the wallet gives it, kept 5 minutes (SPEC 9: identity cache; core/names.ts). */
  readonly $profiles: MapStore<Record<string, ProfileEntry | undefined>>
  /** The connected account's sign-in session, once known (SPEC section 3: data, message, signature, cacao). */
  readonly $session: WritableAtom<{ caipAddress: string; session: SiwxSession } | undefined>
  /** Private bookkeeping of actions (wallet subscriptions, in-flight loads). */
  readonly internal: {
    unsubscribe: Map<ChainNamespace, () => void>
    networksLoad: Promise<readonly Network[]> | undefined
    balanceBlockedUntil: Map<string, number>
    connectorsExtra: WritableAtom<readonly Connector[]>
    /** The companion-service client, created on first use. */
    http: HttpClient | undefined
    /** Sequence of AllWallets requests; answers to older ones are ignored. */
    walletListSeq: number
    /** Sequence of swap quotes; answers to older ones are ignored. */
    swapSeq: number
    /** Stops the pairing in progress (timers, the connector's pending approval). */
    stopPairing: (() => void) | undefined
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

export type CreateConfigParameters = ModalOptionsInput

/**
 * Creates one independent modal instance: validated options, its own stores, storage and
 * connectors. Nothing touches the network here; resources start when a store gets a listener.
 *
 * @example
 * const config = createConfig({ networks: 'eip155:1,eip155:8453', theme: 'dark' })
 * config.issues // options that were rejected, with the validation message
 */
export function createConfig(
  parameters: CreateConfigParameters = {},
  platform: Platform = browserPlatform(),
): Config & { issues: OptionIssue[] } {
  const parsed = parseOptions(parameters as UncheckedOptions, DEFAULT_OPTIONS)
  const $options = atom<ModalOptions>(parsed.options)
  const storage = createStorage(platform.storage)

  const $connections = map<Partial<Record<ChainNamespace, ConnectionRecord>>>({})
  const $activeNamespace = atom<ChainNamespace>('eip155')
  const $networks = atom<readonly Network[]>([])
  const $selectedNetworkId = atom<CaipNetworkId | undefined>(undefined)
  const $balances = map<Record<string, BalanceState>>({})

  const $injected = atom<readonly Connector[]>([])
  onMount($injected, () => {
    const win = platform.window
    if (!win) return
    // Discovery code loads off the first paint; wallets re-announce on request, so nothing is missed.
    let stop: (() => void) | undefined
    let stopped = false
    void import('../connectors/injected/index.ts').then(({ watchInjectedConnectors }) => {
      if (!stopped) stop = watchInjectedConnectors(win, (connectors) => $injected.set(connectors))
    })
    return () => {
      stopped = true
      stop?.()
    }
  })
  // Wallet Standard (Solana) wallets: watched only when a Solana network is configured, so an
  // EVM-only page never loads that code.
  const $walletStandard = atom<WalletStandardFound | undefined>(undefined)
  onMount($walletStandard, () => {
    let stop: (() => void) | undefined
    let stopped = false
    const unlisten = $options.subscribe((options) => {
      if (stop || stopped || !platform.window || !options.networks.some((id) => id.startsWith('solana:')))
        return
      stop = () => {}
      void import('../connectors/walletStandard/index.ts').then((module) => {
        if (stopped) return
        stop = module.watchWalletStandardConnectors((connectors) =>
          $walletStandard.set({ connectors, merge: module.mergeConnectors }),
        )
      })
    })
    return () => {
      stopped = true
      unlisten()
      stop?.()
    }
  })
  const connectorsExtra = atom<readonly Connector[]>([])
  const $connectors = computed([$injected, $walletStandard, connectorsExtra], (injected, standard, extra) => [
    ...(standard ? standard.merge(injected, standard.connectors) : injected),
    ...extra,
  ])

  const $status = computed([$connections, $activeNamespace], (connections, namespace) => {
    return connections[namespace]?.status ?? 'disconnected'
  })

  const $account = computed([$connections, $activeNamespace], (connections, namespace) => {
    const record = connections[namespace]
    const address = record?.accounts[0]
    if (record?.status !== 'connected' || !address || !record.chainId) return undefined
    return {
      namespace,
      address,
      caipAddress: `${record.chainId}:${address}` as CaipAddress,
      type: 'eoa',
      connectorId: record.connectorId,
    } satisfies AccountState
  })

  const $network = computed(
    [$connections, $activeNamespace, $networks, $selectedNetworkId, $options],
    (connections, namespace, networks, selected, options) => {
      const record = connections[namespace]
      const connectedId = record?.status === 'connected' ? record.chainId : undefined
      const caipNetworkId = connectedId ?? selected ?? options.defaultNetwork ?? options.networks[0]
      if (!caipNetworkId) return undefined
      return {
        caipNetworkId,
        network: networks.find((network) => network.caipNetworkId === caipNetworkId),
        supported: options.networks.includes(caipNetworkId),
      } satisfies NetworkState
    },
  )

  const $prefersDark = atom(platform.prefersDark())
  onMount($prefersDark, () => {
    const query = platform.window?.matchMedia?.('(prefers-color-scheme: dark)')
    if (!query) return
    const onChange = () => $prefersDark.set(query.matches)
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  })
  const $theme = computed([$options, $prefersDark], (options, dark) =>
    options.theme === 'system' ? (dark ? 'dark' : 'light') : options.theme,
  )

  const logger = createClientLog(() => $options.get().enableLogger, platform.now)
  const config: Config & { issues: OptionIssue[] } = {
    platform,
    storage,
    logger,
    events: createEmitter((name, detail) => logger.log(name === 'error' ? 'error' : 'info', name, detail)),
    issues: parsed.issues,
    $options,
    $networks,
    $modal: map<ModalState>({
      open: parsed.options.inline,
      router: startAt('Connect'),
      shake: false,
      blockedReason: undefined,
    }),
    $connections,
    $activeNamespace,
    $selectedNetworkId,
    $connectors,
    $connecting: atom<ConnectingState | undefined>(undefined),
    $balances,
    $account,
    $network,
    $status,
    $theme,
    $catalogue: map<CatalogueState>({
      status: catalogueStatus(parsed.options),
      featured: [],
      recommended: [],
      count: 0,
      error: undefined,
    }),
    $walletList: map<WalletListState>({
      status: 'idle',
      entries: [],
      count: 0,
      nextPage: 1,
      query: '',
      error: undefined,
    }),
    $alert: atom<ErrorSummary | undefined>(undefined),
    $pairing: map<PairingState>(IDLE_PAIRING),
    $siwx: map({ status: 'idle' as const, error: undefined }),
    $session: atom<{ caipAddress: string; session: SiwxSession } | undefined>(undefined),
    $send: map<SendState>(IDLE_SEND),
    $swap: map<SwapState>({ status: 'idle', tokens: [] }),
    $profiles: map({}),
    internal: {
      unsubscribe: new Map(),
      networksLoad: undefined,
      balanceBlockedUntil: new Map(),
      connectorsExtra,
      http: undefined,
      walletListSeq: 0,
      swapSeq: 0,
      stopPairing: undefined,
      walletConnect: undefined,
      pendingConnect: undefined,
      connectAttempts: new Map(),
      rpc: new Map(),
      pendingTransactions: new Map(),
    },
    update(input, base, from) {
      const before = $options.get()
      const result = parseOptions(input, base ?? before, from)
      const next = result.options
      if (
        next.networks.join() !== before.networks.join() ||
        next.customNetworks !== before.customNetworks ||
        next.rpcUrls !== before.rpcUrls ||
        next.apiUrl !== before.apiUrl ||
        next.projectId !== before.projectId
      ) {
        config.internal.networksLoad = undefined
      }
      if (next.apiUrl !== before.apiUrl || next.projectId !== before.projectId) {
        // Another service or project: what came from the old one no longer applies.
        config.internal.http = undefined
        config.$catalogue.set({
          status: catalogueStatus(next),
          featured: [],
          recommended: [],
          count: 0,
          error: undefined,
        })
        config.$walletList.set({
          status: 'idle',
          entries: [],
          count: 0,
          nextPage: 1,
          query: '',
          error: undefined,
        })
        config.$alert.set(undefined)
      }
      $options.set(next)
      // Inline views are always shown; leaving inline mode closes them.
      if (next.inline !== before.inline) config.$modal.setKey('open', next.inline)
      return result.issues
    },
  }
  return config
}
