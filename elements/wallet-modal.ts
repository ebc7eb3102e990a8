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
import type { CaipNetworkId, ChainNamespace } from '../src/protocol/caip.ts'
import type { ModalOptions, OptionIssue } from '../src/protocol/config.ts'
import { OPTION_ATTRIBUTES } from '../src/protocol/config.ts'
import { ConnectionStatusSchema, StorageKey } from '../src/protocol/storage.ts'
import { bindConfig } from '../src/ui/host.ts'
import { ModalHost } from '../src/ui/modal/ModalHost.tsx'

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

const Base = r2wc(ModalHost, { shadow: 'open' }) as unknown as {
  new (): HTMLElement & { connectedCallback(): void; disconnectedCallback(): void }
}

/**
 * The wallet modal: connect, account, networks. One per page; a `<wallet-button>` adds one when
 * the page has none.
 *
 * @summary Wallet connection modal.
 * @tag wallet-modal
 *
 * @attr project-id - Project id at the companion service.
 * @attr api-url - URL of the companion service.
 * @attr relay-url - WalletConnect relay URL.
 * @attr frame-url - URL of the embedded-wallet frame.
 * @attr networks - CAIP-2 network ids, comma separated (default `eip155:1`).
 * @attr default-network - The network selected before a wallet connects.
 * @attr {'light' | 'dark' | 'system'} theme - Colour scheme (default `system`).
 * @attr accent - Accent colour (a CSS colour).
 * @attr features - Features to enable: email, socials, farcaster, swaps, onramp, send, activity, names.
 * @attr socials - Social providers: google, github, apple, facebook, x, discord.
 * @attr {'off' | 'optional' | 'required'} siwx - Sign in with the wallet.
 * @attr locale - Language of the views (en, es, fr, de, pt-BR, it, ja, ko, zh-CN, ru, tr, ar); the browser's language when unset.
 * @attr {boolean} inline - Show the views in the page flow instead of a dialog; closing returns to Account or Connect.
 *
 * @event wallet-connect - A wallet connected: `{address, caipAddress, chainId, namespace, connector}`.
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
  #warned = new Set<string>()
  #stop: (() => void)[] = []

  /** The instance behind this element (stores and actions of `wallet-elements/core`). */
  get walletConfig(): Config {
    this.#config ??= this.#create()
    return this.#config
  }

  /** Options beyond the attributes (zod-checked); unknown or bad values dispatch `wallet-error`. */
  set config(value: Partial<Record<keyof ModalOptions, unknown>>) {
    this.#report(this.walletConfig.update(value ?? {}))
  }

  get config(): Readonly<ModalOptions> {
    return this.walletConfig.$options.get()
  }

  override connectedCallback(): void {
    const config = this.walletConfig
    bindConfig(this, config)
    // The embedded wallet's frame lives in this element's shadow root.
    config.internal.frameSlot = this
    this.#stop.push(watchAnalytics(config))
    // Keep wallet discovery running while the element is on the page.
    this.#stop.push(config.$connectors.listen(() => {}))
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
    const option = attributeToOption.get(name)
    if (!option || previous === value || !this.#config) return
    this.#report(this.#config.update({ [option]: value ?? undefined }))
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
   * `solana`, `signMessage`, `signTransaction`, `signAndSendTransaction` and `sendTransaction`.
   */
  getProvider(namespace?: 'eip155'): Eip1193Provider
  getProvider(namespace: 'solana'): SolanaProvider
  getProvider(namespace: ChainNamespace = 'eip155'): Eip1193Provider | SolanaProvider {
    return getProvider(this.walletConfig, namespace)
  }

  #create(): Config {
    const input: Partial<Record<keyof ModalOptions, unknown>> = {}
    for (const [attribute, option] of attributeToOption) {
      const value = this.getAttribute(attribute)
      if (value !== null) input[option] = value
    }
    const config = createConfig(input)
    this.#config = config
    queueMicrotask(() => this.#report(config.issues))
    return config
  }

  #dispatch<K extends WalletEventName>(name: K, detail: WalletEventMap[K]): undefined {
    this.dispatchEvent(new CustomEvent(`wallet-${name}`, { detail, bubbles: true, composed: true }))
    return undefined
  }

  /** Reports rejected options as `wallet-error`, and warns once per problem in the console. */
  #report(issues: readonly OptionIssue[]): void {
    for (const issue of issues) {
      const key = `${issue.source}:${issue.message}`
      if (!this.#warned.has(key)) {
        this.#warned.add(key)
        console.warn(`<wallet-modal> ${issue.source}: ${issue.message}. Using the default instead.`)
      }
      this.#dispatch('error', { code: 5000, message: issue.message })
    }
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
