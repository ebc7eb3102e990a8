import { atom, computed, map, onMount } from 'nanostores'
import type { Connector } from '../connectors/types.ts'
import type { ErrorSummary } from '../errors/base.ts'
import type { CaipAddress, CaipNetworkId, ChainNamespace } from '../protocol/caip.ts'
import type { ModalOptions, OptionIssue, UncheckedOptions } from '../protocol/config.ts'
import { DEFAULT_OPTIONS, parseOptions } from '../protocol/config.ts'
import type { Network } from '../protocol/entities.ts'
import { createStorage } from '../services/storage.ts'
import { createClientLog } from './clientLog.ts'
import type { Config, CreateConfigParameters } from './config.ts'
import { createEmitter } from './events/emitter.ts'
import { startFollowers } from './follow/index.ts'
import type { Platform } from './platform.ts'
import { browserPlatform } from './platform.ts'
import type { BalanceState } from './state/balances.ts'
import type {
  AccountState,
  ConnectingState,
  ConnectionOutcome,
  ConnectionRecord,
  NetworkState,
} from './state/connection.ts'
import type { ModalState } from './state/modal.ts'
import { initialModal } from './state/modal.ts'
import { IDLE_PAIRING, type PairingState } from './state/pairing.ts'
import { IDLE_SEND, type SendState } from './state/send.ts'
import type { SessionState, SiwxState } from './state/siwx.ts'
import { IDLE_SIWX } from './state/siwx.ts'
import type { SwapState } from './state/swap.ts'
import { IDLE_SWAP } from './state/swap.ts'
import type { CatalogueState, WalletListState, WalletStandardFound, WalletWatcher } from './state/wallets.ts'
import { IDLE_WALLET_LIST, initialCatalogue } from './state/wallets.ts'

export type * from './config.ts'
export { IDLE_PAIRING, IDLE_SEND } from './config.ts'

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
  const { connectors = [], ...options } = parameters
  const parsed = parseOptions(options as UncheckedOptions, DEFAULT_OPTIONS)
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
  // Other ecosystems' wallets: watched only when a network of theirs is configured, so an EVM-only
  // page never loads that code. Solana: the Wallet Standard; Bitcoin: the Wallet Standard and WBIP004.
  const watchedWhen = (prefix: string, load: () => Promise<WalletWatcher>) => {
    const $found = atom<WalletStandardFound | undefined>(undefined)
    onMount($found, () => {
      let stop: (() => void) | undefined
      let stopped = false
      const unlisten = $options.subscribe((options) => {
        const win = platform.window
        if (stop || stopped || !win || !options.networks.some((id) => id.startsWith(prefix))) return
        stop = () => {}
        void load().then(({ watch, merge }) => {
          if (!stopped) stop = watch(win, (connectors) => $found.set({ connectors, merge }))
        })
      })
      return () => {
        stopped = true
        unlisten()
        stop?.()
      }
    })
    return $found
  }
  const $walletStandard = watchedWhen('solana:', () =>
    import('../connectors/walletStandard/index.ts').then((module) => ({
      watch: (_win, onChange) => module.watchWalletStandardConnectors(onChange),
      merge: module.mergeConnectors,
    })),
  )
  const $bitcoinWallets = watchedWhen('bip122:', () =>
    import('../connectors/bitcoin/index.ts').then((module) => ({
      watch: module.watchBitcoinConnectors,
      merge: module.mergeConnectors,
    })),
  )
  const connectorsExtra = atom<readonly Connector[]>(connectors)
  const $connectors = computed(
    [$injected, $walletStandard, $bitcoinWallets, connectorsExtra],
    (injected, standard, bitcoin, extra) => {
      const merge = standard?.merge ?? bitcoin?.merge
      const others = [...(standard?.connectors ?? []), ...(bitcoin?.connectors ?? [])]
      return [...(merge ? merge(injected, others) : injected), ...extra]
    },
  )

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
    $modal: map<ModalState>(initialModal(parsed.options.inline)),
    $connections,
    $activeNamespace,
    $selectedNetworkId,
    $connectors,
    $connecting: atom<ConnectingState | undefined>(undefined),
    $outcome: atom<ConnectionOutcome | undefined>(undefined),
    $balances,
    $account,
    $network,
    $status,
    $theme,
    $catalogue: map<CatalogueState>(initialCatalogue(parsed.options)),
    $walletList: map<WalletListState>(IDLE_WALLET_LIST),
    $alert: atom<ErrorSummary | undefined>(undefined),
    $pairing: map<PairingState>(IDLE_PAIRING),
    $siwx: map<SiwxState>(IDLE_SIWX),
    $session: atom<SessionState>(undefined),
    $send: map<SendState>(IDLE_SEND),
    $swap: map<SwapState>(IDLE_SWAP),
    $profiles: map({}),
    internal: {
      unsubscribe: new Map(),
      networksLoad: undefined,
      balanceBlockedUntil: new Map(),
      connectorsExtra,
      http: undefined,
      walletListSeq: 0,
      swapSeq: 0,
      pairing: undefined,
      walletConnect: undefined,
      pendingConnect: undefined,
      connectAttempts: new Map(),
      rpc: new Map(),
      balanceLoads: new Map(),
      providers: new Map(),
      tokenLists: new Map(),
      resolvedNames: new Map(),
      pendingTransactions: new Map(),
      callBatches: new Map(),
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
        config.$catalogue.set(initialCatalogue(next))
        config.$walletList.set(IDLE_WALLET_LIST)
        config.$alert.set(undefined)
      }
      $options.set(next)
      // Inline views are always shown; leaving inline mode closes them.
      if (next.inline !== before.inline) config.$modal.setKey('open', next.inline)
      return result.issues
    },
  }
  // What follows a change (the modal's view, balances, sign-in, the profile) subscribes to the stores.
  startFollowers(config)
  return config
}
