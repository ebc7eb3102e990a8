import r2wc from '@r2wc/react-to-web-component'
import type { Eip1193Provider } from '../src/connectors/types.ts'
import { close } from '../src/core/actions/close.ts'
import type { SolanaProvider } from '../src/core/actions/getProvider.ts'
import { getProvider } from '../src/core/actions/getProvider.ts'
import type { OpenParameters } from '../src/core/actions/open.ts'
import { open } from '../src/core/actions/open.ts'
import { watchAnalytics } from '../src/core/analytics/watch.ts'
import type { Config } from '../src/core/createConfig.ts'
import { createConfig } from '../src/core/createConfig.ts'
import type { WalletEventMap, WalletEventName } from '../src/core/events/types.ts'
import type { LogEntry } from '../src/core/logger.ts'
import type { Bip122Provider } from '../src/protocol/bip122.ts'
import type { CaipNetworkId, ChainNamespace } from '../src/protocol/caip.ts'
import type {
  ModalOptions,
  ModalOptionsInput,
  OptionIssue,
  UncheckedOptions,
} from '../src/protocol/config.ts'
import { OPTION_ATTRIBUTES, parseOptions, unknownOptions } from '../src/protocol/config.ts'
import { ConnectionStatusSchema, StorageKey } from '../src/protocol/storageKeys.ts'
import { bindConfig } from '../src/ui/host.ts'
import { ModalHost, prefetchDialog } from '../src/ui/modal/ModalHost.tsx'
import { elementBase, upgradeProperties, whenIdle } from './base.ts'

const attributeToOption = new Map<string, keyof ModalOptions>(
  Object.entries(OPTION_ATTRIBUTES)
    .filter(([, attribute]) => !attribute.startsWith('config.'))
    .map(([option, attribute]) => [attribute, option as keyof ModalOptions]),
)

const EVENTS: WalletEventName[] = [
  'connect',
  'disconnect',
  'account-change',
  'network-change',
  'open',
  'close',
  'error',
  'sign-in',
  'sign-out',
]

const Base = elementBase(() => r2wc(ModalHost, { shadow: 'open' })) as unknown as {
  new (): HTMLElement & { connectedCallback(): void; disconnectedCallback(): void }
}

// No @attr here: the attributes are the rows of WALLET_MODAL_ATTRIBUTES (elements/attribute-table.ts),
// which the manifest takes them from (scripts/manifestPlugin.ts).
/**
 * The wallet modal: connect, account, networks. One per page; a `<wallet-button>` adds one when
 * the page has none.
 *
 * @summary Wallet connection modal.
 * @tag wallet-modal
 *
 * @event wallet-connect - A wallet connected: `{address, caipAddress, chainId, namespace, connector}`, plus `accountType` and `smartAccountDeployed` for the embedded wallet.
 * @event wallet-disconnect - The wallet disconnected: `{namespace}`.
 * @event wallet-account-change - The wallet switched account: `{address, caipAddress, namespace}`.
 * @event wallet-network-change - The network changed: `{chainId, namespace, supported}`.
 * @event wallet-open - The modal opened: `{view}`.
 * @event wallet-close - The modal closed.
 * @event wallet-request-close - The modal is about to close; cancel it with `preventDefault()`.
 * @event wallet-error - Something failed: `{code, message}`.
 * @event wallet-sign-in - The account signed in: the session `{data, message, signature, cacao}`.
 * @event wallet-sign-out - The sign-in session ended: `{address}`.
 *
 * @csspart overlay - The backdrop.
 * @csspart panel - The dialog panel.
 * @csspart header - The dialog header (stays put while the body scrolls).
 * @csspart body - The scrolling area under the header.
 * @csspart error - An error message (red, with an icon).
 * @csspart close-button - The close button.
 * @csspart back-button - The back button.
 * @csspart wallet-list - The list of wallets.
 * @csspart wallet-item - One wallet in a list.
 * @csspart network-list - The list of networks.
 * @csspart network-item - One network in a list.
 * @csspart account - The account summary.
 * @csspart balance - The balance.
 * @csspart copy-button - The copy-address button.
 * @csspart network-button - The current-network button in Account.
 * @csspart disconnect-button - The Disconnect button.
 *
 * @cssproperty --wallet-accent - Accent colour.
 * @cssproperty --wallet-accent-foreground - Text on the accent colour.
 * @cssproperty --wallet-background - Panel background.
 * @cssproperty --wallet-foreground - Text colour.
 * @cssproperty --wallet-muted - Secondary text colour.
 * @cssproperty --wallet-surface - Background of items.
 * @cssproperty --wallet-surface-hover - Background of hovered items.
 * @cssproperty --wallet-border - Border colour.
 * @cssproperty --wallet-control-border - Border colour of inputs and selects.
 * @cssproperty --wallet-danger - Error colour.
 * @cssproperty --wallet-overlay - Backdrop colour.
 * @cssproperty --wallet-radius - Panel corner radius.
 * @cssproperty --wallet-font-family - Font family.
 * @cssproperty --wallet-font-size - Base font size.
 * @cssproperty --wallet-z-index - Stacking order of the overlay.
 */
export class WalletModalElement extends Base {
  static get observedAttributes(): string[] {
    return [...attributeToOption.keys()]
  }

  #config: Config | undefined
  #property: ModalOptionsInput = {}
  #warned = new Set<string>()
  /** The problems of the options in use (`source:message`). */
  #problems = new Set<string>()
  #stop: (() => void)[] = []

  constructor() {
    super()
    // A framework may have set `config` before this class was defined (before the script ran).
    upgradeProperties(this, ['config'])
  }

  /** The instance behind this element (stores and actions of `wallet-elements/core`). */
  get walletConfig(): Config {
    if (!this.#config) {
      this.#config = createConfig({})
      this.#apply()
    }
    return this.#config
  }

  /**
   * Options beyond the attributes, checked like them (reading it gives what it was last set to; the
   * options in use are `walletConfig.$options`). Setting it replaces what it was set to before:
   * options the new object leaves out come from the attributes, or their defaults, and an option
   * given both ways takes the property's value. A bad or unknown value dispatches `wallet-error`,
   * warns, and is ignored: that option comes from its attribute, or its default.
   */
  get config(): ModalOptionsInput {
    return this.#property
  }

  set config(value: ModalOptionsInput) {
    this.#property = value ?? {}
    if (this.#config) this.#apply()
  }

  override connectedCallback(): void {
    const config = this.walletConfig
    bindConfig(this, config)
    // The embedded wallet's frame lives in this element's shadow root.
    config.internal.frameSlot = this
    this.#stop.push(watchAnalytics(config))
    // Keep wallet discovery running while the element is on the page, from when the page is idle:
    // its code stays off the first paint, and wallets re-announce on request, so none is missed.
    // Then the dialog's first-open code is fetched, so the first click fetches none.
    let stopDiscovery: (() => void) | undefined
    // With the embedded wallet on, the page's dapps find it as a wallet too (EIP-6963, Wallet Standard):
    // that code is its own chunk, fetched only then.
    let stopAnnounce: (() => void) | undefined
    let unlistenOptions: (() => void) | undefined
    let gone = false
    const cancel = whenIdle(() => {
      stopDiscovery = config.$connectors.listen(() => {})
      prefetchDialog(config, this.ownerDocument)
      let started = false
      unlistenOptions = config.$options.subscribe(({ features, frameUrl, projectId, announce }) => {
        if (started || !announce || !features.email || !frameUrl || !projectId) return
        started = true
        void import('../src/core/announce.ts').then(({ announceSiteWallet }) => {
          if (!gone) stopAnnounce = announceSiteWallet(config)
        })
      })
    })
    this.#stop.push(() => {
      gone = true
      cancel()
      stopDiscovery?.()
      unlistenOptions?.()
      stopAnnounce?.()
      // Stop ranking RPC upstreams; that code is loaded already when there is anything to stop.
      if (config.internal.rpc.size > 0)
        void import('../src/core/rpcUrl.ts').then(({ closeRpc }) => closeRpc(config))
    })
    for (const name of EVENTS) {
      this.#stop.push(config.events.on(name, (detail) => this.#dispatch(name, detail)))
    }
    this.#stop.push(
      config.events.on('request-close', (detail) =>
        this.dispatchEvent(
          new CustomEvent('wallet-request-close', {
            detail,
            bubbles: true,
            composed: true,
            cancelable: true,
          }),
        ),
      ),
    )
    // The connection code loads only when there is a connection to restore.
    if (config.storage.get(StorageKey.connectionStatus, ConnectionStatusSchema) === 'connected') {
      void import('../src/core/actions/reconnect.ts').then(({ reconnect }) => reconnect(config))
    }
    super.connectedCallback()
  }

  override disconnectedCallback(): void {
    for (const stop of this.#stop.splice(0)) stop()
    super.disconnectedCallback()
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (!attributeToOption.has(name) || previous === value || !this.#config) return
    this.#apply()
  }

  /** Opens the modal, on the view the rules pick or the one given. */
  open(parameters?: OpenParameters): Promise<void> {
    return open(this.walletConfig, parameters)
  }

  /** Closes the modal; resolves false when the close was blocked. */
  close(): Promise<boolean> {
    return close(this.walletConfig)
  }

  /** Disconnects every namespace and remembers it, so a reload does not reconnect. */
  async disconnect(): Promise<void> {
    const { disconnect } = await import('../src/core/actions/disconnect.ts')
    return disconnect(this.walletConfig)
  }

  /** Switches to a network of the `networks` list (rejects with `Network Not Found` otherwise). */
  async switchNetwork(caipNetworkId: CaipNetworkId): Promise<void> {
    const { switchNetwork } = await import('../src/core/actions/switchNetwork.ts')
    return switchNetwork(this.walletConfig, { caipNetworkId })
  }

  /** The connected account's sign-in session `{data, message, signature, cacao}`, if it has one. */
  async getSession(): Promise<WalletEventMap['sign-in'] | undefined> {
    const { currentSession } = await import('../src/core/siwx/session.ts')
    return (await currentSession(this.walletConfig)) as WalletEventMap['sign-in'] | undefined
  }

  /**
   * A provider that follows the namespace's active connection: EIP-1193 for `eip155`; for
   * `solana`, `signMessage`, `signTransaction`, `signAndSendTransaction` and `sendTransaction`; for
   * `bip122`, WalletConnect's Bitcoin methods (`getAccountAddresses`, `signMessage`, `signPsbt`,
   * `sendTransfer`); for `polkadot` and `cosmos` (over WalletConnect), `request` with the namespace's
   * methods (`polkadot_signMessage`, `cosmos_signDirect`, …), answered by the wallet.
   */
  getProvider(namespace?: 'eip155'): Eip1193Provider
  getProvider(namespace: 'solana'): SolanaProvider
  getProvider(namespace: 'bip122'): Bip122Provider & Eip1193Provider
  getProvider(namespace: 'polkadot' | 'cosmos'): Eip1193Provider
  getProvider(namespace: ChainNamespace = 'eip155'): Eip1193Provider | SolanaProvider {
    return getProvider(this.walletConfig, namespace)
  }

  /**
   * The client log, oldest first, for a site's support page: kept only with the `debug` attribute
   * (`config.enableLogger`), about 1,024,000 bytes at most, without signatures, tokens, codes or keys.
   */
  getLogs(): Promise<LogEntry[]> {
    return this.walletConfig.logger.entries()
  }

  /** The options from scratch: the defaults, then the attributes, then the `config` property. */
  #apply(): void {
    const config = this.#config
    if (!config) return
    const attributes: UncheckedOptions = {}
    for (const [attribute, option] of attributeToOption) {
      const value = this.getAttribute(attribute)
      if (value !== null) attributes[option] = value
    }
    const fromAttributes = parseOptions(attributes)
    const unknown = unknownOptions(this.#property)
    const property = Object.fromEntries(
      Object.entries(this.#property).filter(([key]) => !unknown.includes(key)),
    ) as UncheckedOptions
    const issues = config.update(property, fromAttributes.options, 'property')
    const fellBack = (option: keyof ModalOptions) =>
      attributes[option] !== undefined && !fromAttributes.issues.some((issue) => issue.option === option)
        ? `the ${OPTION_ATTRIBUTES[option]} attribute`
        : 'the default'
    const problems = [
      ...fromAttributes.issues.map((issue) => ({ ...issue, outcome: 'Using the default instead' })),
      ...issues.map((issue) => ({ ...issue, outcome: `Using ${fellBack(issue.option)} instead` })),
      ...unknown.map((key) => ({
        source: `config.${key}`,
        message: 'Unknown option',
        outcome: 'Ignoring it',
      })),
    ]
    // Each problem is reported when it appears, not again while it stays; after the current task,
    // so a listener added right after the element is created hears it.
    const previous = this.#problems
    this.#problems = new Set(problems.map((problem) => `${problem.source}:${problem.message}`))
    const fresh = problems.filter((problem) => !previous.has(`${problem.source}:${problem.message}`))
    if (fresh.length > 0)
      queueMicrotask(() => {
        for (const problem of fresh) this.#report(problem)
      })
  }

  #dispatch<K extends WalletEventName>(name: K, detail: WalletEventMap[K]): undefined {
    this.dispatchEvent(new CustomEvent(`wallet-${name}`, { detail, bubbles: true, composed: true }))
    return undefined
  }

  /** Reports a rejected option as `wallet-error`, and warns once per problem in the console. */
  #report(problem: Pick<OptionIssue, 'source' | 'message'> & { outcome: string }): void {
    const key = `${problem.source}:${problem.message}`
    if (!this.#warned.has(key)) {
      this.#warned.add(key)
      console.warn(`<wallet-modal> ${problem.source}: ${problem.message}. ${problem.outcome}.`)
    }
    this.#dispatch('error', { code: 5000, message: problem.message })
  }
}

/** Registers `<wallet-modal>` unless a tag of that name already exists. */
export function defineWalletModal(registry: CustomElementRegistry = customElements): void {
  if (!registry.get('wallet-modal')) registry.define('wallet-modal', WalletModalElement)
}

declare global {
  interface HTMLElementTagNameMap {
    'wallet-modal': WalletModalElement
  }
  interface GlobalEventHandlersEventMap {
    'wallet-connect': CustomEvent<WalletEventMap['connect']>
    'wallet-disconnect': CustomEvent<WalletEventMap['disconnect']>
    'wallet-account-change': CustomEvent<WalletEventMap['account-change']>
    'wallet-network-change': CustomEvent<WalletEventMap['network-change']>
    'wallet-open': CustomEvent<WalletEventMap['open']>
    'wallet-close': CustomEvent<WalletEventMap['close']>
    'wallet-request-close': CustomEvent<WalletEventMap['request-close']>
    'wallet-error': CustomEvent<WalletEventMap['error']>
    'wallet-sign-in': CustomEvent<WalletEventMap['sign-in']>
    'wallet-sign-out': CustomEvent<WalletEventMap['sign-out']>
  }
}
