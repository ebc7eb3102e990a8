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
 * @csspart back-button - The back button.
 * @csspart close-button - The close button.
 * @csspart alert - The alert above the view when the companion service refuses the site (a configuration error).
 * @csspart error - An error message (red, with an icon).
 * @csspart toast - The passing notice that balances could not be fetched.
 * @csspart wallet-list - The list of wallets.
 * @csspart wallet-item - One wallet in a list.
 * @csspart all-wallets - The All wallets button on Connect.
 * @csspart search - The wallet search field on AllWallets.
 * @csspart qr - The pairing QR code.
 * @csspart email-form - The e-mail sign-in form on Connect.
 * @csspart code-form - The one-time code form.
 * @csspart device-approval - The step that asks to approve a new device from the e-mail.
 * @csspart passkey-login - The passkey sign-in button.
 * @csspart social-logins - The social sign-in buttons.
 * @csspart social-google - The Google sign-in button.
 * @csspart social-github - The GitHub sign-in button.
 * @csspart social-apple - The Apple sign-in button.
 * @csspart social-facebook - The Facebook sign-in button.
 * @csspart social-x - The X sign-in button.
 * @csspart social-discord - The Discord sign-in button.
 * @csspart social-retry - Try again, after the browser blocked a social sign-in's window.
 * @csspart in-app-notice - The notice in an app's own browser, where social sign-in cannot finish.
 * @csspart open-in-browser - Its way out: open the page in the browser, or copy the link.
 * @csspart farcaster-login - The Farcaster sign-in button.
 * @csspart farcaster - The Farcaster sign-in view.
 * @csspart farcaster-site - The line naming the site that asks and the Farcaster domain.
 * @csspart farcaster-open - The link that opens the Farcaster app.
 * @csspart approval-frame - The area where the wallet frame shows a request to approve.
 * @csspart account - The account summary.
 * @csspart profile-name - The account's registered name.
 * @csspart email - Who is signed in to the embedded wallet (the e-mail or a social username).
 * @csspart user-image - The Farcaster profile picture beside the username.
 * @csspart copy-button - The copy-address button.
 * @csspart balance - The balance.
 * @csspart total - The total value of the account in US dollars.
 * @csspart token-list - The list of held tokens.
 * @csspart other-accounts - The accounts of the other namespaces.
 * @csspart network-button - The current-network button in Account.
 * @csspart send-button - The Send button.
 * @csspart swap-button - The Swap button.
 * @csspart onramp-button - The Buy crypto button.
 * @csspart name-actions - The name actions in Account.
 * @csspart register-name-button - The Register name button (an account without a name).
 * @csspart change-name-button - The Change name button (an account with a name).
 * @csspart account-type - The account type of an embedded wallet and its switch.
 * @csspart account-type-button - The button that switches the account type.
 * @csspart smart-account-deployed - Whether the smart account is deployed yet.
 * @csspart update-email-button - The Update e-mail button.
 * @csspart update-email-form - The Update e-mail form.
 * @csspart passkeys-button - The Passkeys button (the embedded wallet's passkeys).
 * @csspart recovery-nag - The reminder to set up recovery for the embedded wallet.
 * @csspart set-up-recovery-button - The reminder's Set up recovery button.
 * @csspart export-wallet-button - The button that exports the embedded wallet.
 * @csspart delete-wallet-button - The button that deletes the embedded wallet.
 * @csspart permissions - The permissions the account granted.
 * @csspart permission-list - The list of those permissions.
 * @csspart activity-list - The list of transactions.
 * @csspart activity-more - The button that loads more transactions.
 * @csspart sign-out-everywhere-button - The Sign out everywhere button.
 * @csspart disconnect-button - The Disconnect button.
 * @csspart network-list - The list of networks.
 * @csspart network-item - One network in a list.
 * @csspart send-form - The Send form.
 * @csspart amount-value - The amount's value in US dollars, on Send.
 * @csspart send-submit - The Send form's submit button.
 * @csspart send-result - What Send shows once the transaction is sent.
 * @csspart swap-form - The Swap form.
 * @csspart switch-button - The button that swaps the two tokens on Swap.
 * @csspart quote - The swap quote.
 * @csspart swap-submit - The Swap form's submit button.
 * @csspart swap-result - What Swap shows once the swap is done.
 * @csspart onramp - The Buy crypto view.
 * @csspart onramp-quote - The on-ramp quote.
 * @csspart onramp-submit - The Buy crypto form's submit button.
 * @csspart onramp-purchase - The purchase's status.
 * @csspart onramp-open-checkout - The link to the provider's checkout when the browser blocked its window.
 * @csspart onramp-done - The Done button once the purchase has started.
 * @csspart register-name - The name registration form.
 * @csspart name-suggestions - Names to take instead of a taken one.
 * @csspart register-submit - The name registration's submit button.
 * @csspart release-name-button - The button that releases the registered name.
 * @csspart register-name-success - What shows once the name is registered.
 * @csspart profile-image - The profile image form that follows a registration.
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
 * @cssproperty --wallet-success - Success colour.
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
