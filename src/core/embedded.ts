import type { EmbeddedConnector } from '../connectors/embedded/connector.ts'
import { EmailLoginDependencyError } from '../errors/embedded.ts'
import type { CaipNetworkId } from '../protocol/caip.ts'
import type { FrameUser } from '../protocol/embedded/frame.ts'
import { StorageKey } from '../protocol/storage.ts'
import { close } from './actions/close.ts'
import { loadNetworks } from './actions/loadNetworks.ts'
import { navigate } from './actions/navigate.ts'
import { open } from './actions/open.ts'
import type { Config } from './config.ts'
import { embeddedState } from './embeddedState.ts'
import { networkFor } from './networkFor.ts'
import { networkRpc } from './rpcUrl.ts'

/** Whether the embedded wallet (e-mail sign-in) is on: the `email` feature and a `frame-url`. */
export function embeddedEnabled(config: Config): boolean {
  const options = config.$options.get()
  return options.features.email && options.frameUrl !== undefined && options.projectId !== undefined
}

/** The namespaces of the site's networks the embedded wallet serves, EVM first. */
export function embeddedNamespaces(config: Config): ('eip155' | 'solana' | 'bip122')[] {
  const { networks } = config.$options.get()
  return (['eip155', 'solana', 'bip122'] as const).filter((namespace) =>
    networks.some((id) => id.startsWith(`${namespace}:`)),
  )
}

/**
 * Shows the frame's approval view in the modal, and takes it away again. Leaving the view while it
 * shows a request (closing the modal, or an inline modal going home) rejects the request (4001).
 */
function followApprovals(config: Config, connector: EmbeddedConnector): void {
  let openedForIt = false
  let showing = false
  config.$modal.listen((modal) => {
    const onView = modal.open && modal.router.view === 'ApproveTransaction'
    if (onView || !showing) {
      showing ||= onView && embeddedState(config).get().approval !== undefined
      return
    }
    showing = false
    void connector.frame.request('CANCEL_APPROVAL', {}).catch(() => {})
  })
  connector.frame.notices((notice) => {
    if (notice.type === 'APPROVAL_SHOW' || notice.type === 'APPROVAL_RESIZE') {
      const shown = embeddedState(config).get().approval?.shown ?? 0
      embeddedState(config).setKey('approval', {
        height: notice.payload.height,
        shown: notice.type === 'APPROVAL_SHOW' ? shown + 1 : shown,
      })
      if (notice.type === 'APPROVAL_RESIZE') return
      const modal = config.$modal.get()
      if (!modal.open) {
        openedForIt = true
        void open(config, { view: 'ApproveTransaction' })
      } else {
        openedForIt = false
        navigate(config, 'ApproveTransaction')
      }
    } else if (notice.type === 'APPROVAL_HIDE') {
      embeddedState(config).setKey('approval', undefined)
      showing = false
      const modal = config.$modal.get()
      if (!modal.open || modal.router.view !== 'ApproveTransaction') return
      if (embeddedState(config).get().securing) return
      if (openedForIt || modal.router.history.length === 0) void close(config, { force: true })
      else navigate(config, 'back')
    }
  })
}

/** Tells the frame the modal's theme, accent and language (SYNC_THEME, SYNC_DAPP_DATA), now and on change. */
function syncFrame(config: Config, connector: EmbeddedConnector): void {
  const { frame } = connector
  const theme = () => {
    const accent = config.$options.get().accent
    void frame
      .request('SYNC_THEME', { themeMode: config.$theme.get(), ...(accent ? { accent } : {}) })
      .catch(() => {})
  }
  const dapp = () => {
    const options = config.$options.get()
    const doc = config.platform.window?.document
    void frame
      .request('SYNC_DAPP_DATA', {
        projectId: options.projectId ?? '',
        metadata: {
          name: (doc?.title || doc?.location.host || '').slice(0, 200),
          description: '',
          url: doc?.location.origin ?? '',
          icons: [],
        },
        ...(options.locale ? { locale: options.locale } : {}),
      })
      .catch(() => {})
  }
  theme()
  dapp()
  config.$theme.listen(theme)
  config.$options.listen((options, before) => {
    if (options.locale !== before?.locale) dapp()
  })
}

/**
 * A restored session whose recovery share the operator still holds after the project left operator
 * custody: once a page load, the frame asks the person to set up their own recovery (its set-up view
 * opens the modal). A sign-in asks through its own SECURE_WALLET (`completeEmbeddedLogin`), so a user
 * told during one is not asked again.
 */
function custodySwitchAsk(config: Config, frame: EmbeddedConnector['frame']): (user: FrameUser) => void {
  let asked = false
  return (user) => {
    const state = embeddedState(config)
    if (asked || state.get().securing) {
      asked = true
      return
    }
    const recovery = user.recovery
    if (recovery?.custody !== 'user' || !recovery.methods.includes('operator')) return
    asked = true
    void frame.request('SECURE_WALLET', { reason: 'visit' }).then(
      (answer) => state.setKey('recovery', answer.recovery),
      () => {},
    )
  }
}

/**
 * The config's embedded-wallet connector, created on first use: its code and the frame load only
 * when someone uses the e-mail sign-in (or a stored embedded connection is restored). A chunk that
 * cannot be loaded fails with `Unable to load email login dependency`.
 *
 * @example
 * const connector = await embeddedConnector(config)
 * await connector.frame.request('CONNECT_EMAIL', { email })
 */
export function embeddedConnector(config: Config): Promise<EmbeddedConnector> {
  config.internal.embedded ??= (async () => {
    const options = config.$options.get()
    const win = config.platform.window
    if (!options.frameUrl || !options.projectId || !win)
      throw new EmailLoginDependencyError({ details: 'No frame-url or project-id' })
    const module = await import('../connectors/embedded/index.ts').catch((cause: unknown) => {
      throw new EmailLoginDependencyError({ cause })
    })
    await loadNetworks(config).catch(() => {})
    const namespaces = embeddedNamespaces(config)
    const frame = module.createFrameClient({
      frameUrl: options.frameUrl,
      integrity: options.frameIntegrity,
      fetch: config.platform.fetch,
      projectId: options.projectId,
      chainId: (networkFor(config, namespaces[0] ?? 'eip155') ?? 'eip155:1') as CaipNetworkId,
      container: () => {
        const host = config.internal.frameSlot
        return host?.shadowRoot ?? host
      },
      document: win.document,
      onStatus: (status) => embeddedState(config).setKey('frame', status),
      onFailure: (reason, cause) => {
        const error =
          cause ??
          (reason === 'iframe_load_failed'
            ? new module.EmbeddedWalletLoadError()
            : new module.EmbeddedRequestTimeoutError())
        config.events.emit('error', { code: error.code, message: error.shortMessage })
      },
    })
    const askAfterSwitch = custodySwitchAsk(config, frame)
    const connector = module.createEmbeddedConnector({
      frame,
      namespaces,
      preferredAccountType: options.defaultAccountType,
      onUser: (user) => {
        // Whether this person exported their keys, as the service remembers it (a reload keeps "Delete wallet").
        embeddedState(config).setKey('exported', user.exported === true)
        askAfterSwitch(user)
      },
      read: (chainId, method, params) => networkRpc(config, chainId)(method, params as readonly unknown[]),
    })
    followApprovals(config, connector)
    syncFrame(config, connector)
    config.internal.connectorsExtra.set([...config.internal.connectorsExtra.get(), connector])
    return connector
  })().catch((error: unknown) => {
    config.internal.embedded = undefined
    throw error
  })
  return config.internal.embedded
}

/**
 * Finishes an e-mail sign-in: connects every namespace of the site the wallet serves (the one shown
 * last, so its connection closes the modal or asks for sign-in as any wallet's would) and remembers
 * that an e-mail login was used, and `email`, the address the person typed here (the frame never
 * tells the page, since any script of the site could ask it; none for a social or Farcaster sign-in).
 *
 * @example
 * await completeEmbeddedLogin(config, connector, 'ada@example.com')
 */
export async function completeEmbeddedLogin(
  config: Config,
  connector: EmbeddedConnector,
  email?: string,
): Promise<void> {
  const { connect } = await import('./actions/connect.ts')
  const namespaces = embeddedNamespaces(config)
  const shown = config.$network.get()?.caipNetworkId.split(':')[0]
  const last = namespaces.find((namespace) => namespace === shown) ?? namespaces[0] ?? 'eip155'
  // Before connecting: the frame recovers the wallet on a new browser, or offers to set recovery up
  // for keys made at this sign-in (Later, or a refusal, still connects).
  const state = embeddedState(config)
  state.setKey('securing', true)
  try {
    await connector.frame.request('SECURE_WALLET', { reason: 'sign-in' }).then(
      (answer) => state.setKey('recovery', answer.recovery),
      () => {},
    )
    for (const namespace of namespaces.filter((candidate) => candidate !== last))
      await connect(config, { connector, namespace, keepOpen: true })
    await connect(config, { connector, namespace: last })
  } catch (error) {
    // Not connected: off the frame's (now empty) view, back to the sign-in that failed.
    if (config.$modal.get().router.view === 'ApproveTransaction' && !state.get().approval)
      navigate(config, 'back')
    throw error
  } finally {
    state.setKey('securing', false)
  }
  config.storage.set(StorageKey.loginEmailUsed, true)
  if (email) config.storage.set(StorageKey.email, email)
  embeddedState(config).setKey('email', email)
}

/**
 * Keeps the time another mail may be asked for (the frame says 30 s; a cooldown error says how long).
 *
 * @example
 * noteResend(config, 30)
 */
export function noteResend(config: Config, seconds: number): void {
  embeddedState(config).setKey('resendAt', config.platform.now() + seconds * 1000)
}
