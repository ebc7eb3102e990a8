/**
 * Keeps a page's tabs (same origin) in step: a connection made, ended or moved to another network in
 * one tab, or a sign-in or sign-out there, shows in the others within a moment, and a tab that comes
 * back from the background (a phone's suspension, the back-forward cache) checks its connection again.
 *
 * What the tabs share is what they store (`protocol/storage`: the connector per namespace, the last
 * network, the sign-in token): another tab's write arrives as a `storage` event, and this tab applies it
 * to its own stores, the way a reload would restore it, never by asking the wallet to connect (a
 * connection is restored with the connector's `reconnect`, which shows no prompt). A `BroadcastChannel`
 * named after the storage prefix (`TAB_CHANNEL`: the tabs that share the storage) carries what storage
 * does not: a change of account, or a sign-in the site's own verifier keeps. Its message says only
 * "look again"; each tab reads the truth (storage, its wallet, the verifier) itself.
 *
 * No echo: while it applies another tab's change this tab writes nothing to storage (`fromOtherTab`,
 * see `records.ts`) and posts nothing; what it applies is idempotent (applied twice, the second time
 * changes nothing), so a message that comes back finds nothing to do.
 *
 * Loaded by `./tabs.ts` at the first sign that this tab may be behind, a chunk of its own.
 * @module
 */
import * as z from 'zod/mini'
import type { ChainNamespace } from '../../protocol/caip.ts'
import { CaipNetworkIdSchema } from '../../protocol/caip.ts'
import {
  ConnectionStatusSchema,
  ConnectorIdsSchema,
  STORAGE_PREFIX,
  StorageKey,
} from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import type { WalletEventMap } from '../events/types.ts'
import type { TabSync } from '../state/connection.ts'
import type { SessionState } from '../state/siwx.ts'
import { connectDetail, markDisconnected, onConnectorEvent, recordOf } from './records.ts'

/** The channel of the tabs that share this storage (one per storage prefix, so per site and modal kind). */
export const TAB_CHANNEL = `${STORAGE_PREFIX}tabs`

const LOOK_AGAIN = 'wallet-elements:tabs'

/** The one message on {@link TAB_CHANNEL}: something this tab shares changed; look again. */
export const tabMessage = z.object({ type: z.literal(LOOK_AGAIN) })

/** The stored keys another tab's write to which this tab follows. */
const SHARED_KEYS: readonly string[] = [
  StorageKey.connector,
  StorageKey.connectionStatus,
  StorageKey.disconnected,
  StorageKey.lastChain,
  StorageKey.siwxAuthToken,
].map((key) => STORAGE_PREFIX + key)

/** What a tab tells the others about: its connections, the namespace shown, the session's account. */
function sharedState(config: Config): string {
  const connections = Object.entries(config.$connections.get()).flatMap(([namespace, record]) =>
    record?.status === 'connected'
      ? [[namespace, record.connectorId, record.chainId, record.accounts[0]]]
      : [],
  )
  return JSON.stringify([connections, config.$activeNamespace.get(), config.$session.get()?.caipAddress])
}

const connectedNamespaces = (config: Config): ChainNamespace[] =>
  (Object.keys(config.$connections.get()) as ChainNamespace[]).filter(
    (namespace) => recordOf(config, namespace).status === 'connected',
  )

const connectorOf = (config: Config, id: string | undefined) =>
  config.$connectors.get().find((connector) => connector.id === id)

/** Runs `apply` as another tab's change: nothing written to storage meanwhile (see `records.ts`). */
async function fromOtherTab<T>(config: Config, apply: () => Promise<T>): Promise<T> {
  config.internal.fromOtherTab = (config.internal.fromOtherTab ?? 0) + 1
  try {
    return await apply()
  } finally {
    config.internal.fromOtherTab -= 1
  }
}

/**
 * Storage's connections, applied: one connected here that storage no longer names (disconnected in
 * another tab, or another wallet there) ends; one storage names that is not connected here is restored
 * without a prompt (`reconnect`), and `wallet-connect` says so (held until the session with sign-in
 * required, as a connection made here is).
 */
async function followConnections(config: Config): Promise<void> {
  const { storage } = config
  const ids = storage.get(StorageKey.connector, ConnectorIdsSchema) ?? {}
  for (const namespace of connectedNamespaces(config)) {
    const { connectorId } = recordOf(config, namespace)
    if (ids[namespace] === connectorId) continue
    markDisconnected(config, namespace)
    // The other tab forgot the e-mail sign-in it ended (SPEC 4); this tab's copy of it goes too.
    if (connectorOf(config, connectorId)?.type === 'embedded')
      (await import('../embeddedState.ts')).clearLoginCache(config)
  }
  const missing = (Object.keys(ids) as ChainNamespace[]).filter(
    (namespace) => recordOf(config, namespace).status === 'disconnected',
  )
  if (
    missing.length === 0 ||
    storage.get(StorageKey.disconnected, z.boolean()) === true ||
    storage.get(StorageKey.connectionStatus, ConnectionStatusSchema) !== 'connected'
  )
    return
  const shown = config.$account.get()
  const { reconnect } = await import('../actions/reconnect.ts')
  await reconnect(config)
  const account = config.$account.get()
  const connector = connectorOf(config, account && recordOf(config, account.namespace).connectorId)
  const detail = connector && account?.caipAddress !== shown?.caipAddress && connectDetail(config, connector)
  if (!detail) return
  const { needsSignIn } = await import('../siwx/session.ts')
  if (config.$options.get().siwx === 'required' && (await needsSignIn(config)))
    config.internal.pendingConnect = detail
  else config.events.emit('connect', detail)
}

/**
 * The network another tab moved to (the stored last network): the wallet connected here is asked to
 * switch as well (most browser wallets keep one network per site, so they are there already; the
 * embedded wallet's and Solana's networks are the site's own choice), never to add a network it does
 * not know, which would ask the person. A WalletConnect wallet tells each tab itself, and is not asked.
 */
async function followNetwork(config: Config): Promise<void> {
  const chainId = config.storage.get(StorageKey.lastChain, CaipNetworkIdSchema)
  if (!chainId || !config.$options.get().networks.includes(chainId)) return
  const namespace = chainId.slice(0, chainId.indexOf(':')) as ChainNamespace
  const record = recordOf(config, namespace)
  if (record.status !== 'connected') return
  if (record.chainId === chainId && config.$activeNamespace.get() === namespace) return
  const connector = connectorOf(config, record.connectorId)
  if (!connector || connector.type === 'walletConnect') return
  if (connector.type === 'injected') {
    // A switch only: the switch below adds a network the wallet does not know, with a prompt.
    const reference = Number(chainId.slice(namespace.length + 1))
    const known = await connector
      .getProvider(namespace)
      .request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${reference.toString(16)}` }] })
      .then(
        () => true,
        () => false,
      )
    if (!known) return
  }
  const { switchNetwork } = await import('../actions/switchNetwork.ts')
  await switchNetwork(config, { caipNetworkId: chainId }).catch(() => {})
}

/**
 * Asks each wallet connected here what it has now, without a prompt (`reconnect`): a wallet that no
 * longer knows the site ends its connection; another account or network is followed as the wallet's own
 * change would be. A check that fails (the wallet did not answer) changes nothing.
 */
async function readWallets(config: Config, namespaces: readonly ChainNamespace[]): Promise<void> {
  await Promise.all(
    namespaces.map(async (namespace) => {
      const record = recordOf(config, namespace)
      const connector = connectorOf(config, record.connectorId)
      if (record.status !== 'connected' || !connector) return
      const state = await connector.reconnect({ namespace, chainId: record.chainId }).catch(() => null)
      if (state === null || recordOf(config, namespace).connectorId !== connector.id) return
      if (!state) return markDisconnected(config, namespace)
      onConnectorEvent(config, connector, { type: 'chainChanged', namespace, chainId: state.chainId })
      onConnectorEvent(config, connector, {
        type: 'accountsChanged',
        namespace,
        accounts: state.accounts,
        accountType: state.accountType,
        smartAccountDeployed: state.smartAccountDeployed,
      })
    }),
  )
}

/**
 * The session another tab signed in or out with (the stored token, or the site's verifier): this tab's
 * `$session` follows, with `wallet-sign-in` or `wallet-sign-out`, and its sign-in view closes once the
 * account has its session.
 */
async function followSession(config: Config, before: SessionState): Promise<void> {
  if (config.$options.get().siwx === 'off') return
  const { currentSession } = await import('../siwx/session.ts')
  const session = await currentSession(config)
  const after = config.$session.get()
  if (before && !after) {
    config.events.emit('sign-out', {
      address: before.caipAddress.slice(before.caipAddress.lastIndexOf(':') + 1),
    })
    return
  }
  if (!session || !after || before?.caipAddress === after.caipAddress) return
  const pending = config.internal.pendingConnect
  config.internal.pendingConnect = undefined
  if (pending?.caipAddress === after.caipAddress) config.events.emit('connect', pending)
  config.events.emit('sign-in', session as WalletEventMap['sign-in'])
  const modal = config.$modal.get()
  if (modal.open && modal.router.view === 'SIWXSignMessage') config.$outcome.set({ type: 'signed-in' })
}

/**
 * One look at what the other tabs did, `live`: also at what this tab's wallets say (shown again after
 * the background, or told by another tab, whose change of account storage does not hold). Ends with the
 * views refreshed: a modal showing a connection that ended closes as after a disconnect here, and a
 * live look reads the balances shown again once their 30 s cache (SPEC 9) has lapsed.
 */
async function lookAgain(config: Config, live: boolean): Promise<void> {
  const hadConnection = connectedNamespaces(config).length > 0
  const before = config.$session.get()
  const shown = connectedNamespaces(config)
  await fromOtherTab(config, () => followConnections(config))
  // This tab's own reading of its wallets: what it finds is remembered (the others follow it).
  if (live) await readWallets(config, shown)
  await fromOtherTab(config, () => followNetwork(config))
  await fromOtherTab(config, () => followSession(config, before))
  if (hadConnection && connectedNamespaces(config).length === 0) config.$outcome.set({ type: 'disconnected' })
  if (live && config.$account.get()) {
    const { fetchBalance } = await import('../actions/fetchBalance.ts')
    await fetchBalance(config).catch(() => {})
  }
}

/**
 * Hands one of the page's events to `config`'s tab sync, started at the first (`./tabs.ts`).
 *
 * @example
 * window.addEventListener('storage', (event) => followOtherTabs(config, event))
 */
export function followOtherTabs(config: Config, event: Event): void {
  config.internal.tabSync ??= startTabSync(config)
  config.internal.tabSync.handle(event)
}

/**
 * Starts keeping `config` in step with the page's other tabs (see the module's comment).
 *
 * @example
 * const sync = startTabSync(config)
 * window.addEventListener('storage', (event) => sync.handle(event))
 */
export function startTabSync(config: Config): TabSync {
  const win = config.platform.window
  let channel: BroadcastChannel | undefined
  let running: Promise<void> = Promise.resolve()
  let busy = false
  let queued: { live: boolean } | undefined
  let told = sharedState(config)

  const look = (live: boolean) => {
    if (queued) {
      queued.live ||= live
      return
    }
    queued = { live }
    running = running.then(async () => {
      const next = queued ?? { live }
      queued = undefined
      busy = true
      try {
        await lookAgain(config, next.live)
      } catch {
        // A look that failed (a wallet, the verifier) leaves things as they were; the next one tries again.
      } finally {
        busy = false
        // What this tab shows now came from the others: nothing to tell them.
        told = sharedState(config)
      }
    })
  }

  const open = () => {
    const Channel = (win as (Window & typeof globalThis) | undefined)?.BroadcastChannel
    if (channel || !Channel) return
    channel = new Channel(TAB_CHANNEL)
    channel.onmessage = (event: MessageEvent) => {
      if (tabMessage.safeParse(event.data).success) look(true)
    }
  }
  // The back-forward cache keeps a page only without open channels in some browsers: closed while
  // the page is hidden in it, opened again when it is shown.
  const onPageHide = (event: Event) => {
    if (!(event as PageTransitionEvent).persisted) return
    channel?.close()
    channel = undefined
  }
  open()
  win?.addEventListener('pagehide', onPageHide)

  // Tells the others when what this tab shares changes by this tab's own doing.
  const tell = () => {
    const now = sharedState(config)
    if (busy || now === told) return
    told = now
    channel?.postMessage({ type: LOOK_AGAIN } satisfies z.infer<typeof tabMessage>)
  }
  const stops = [
    config.$connections.listen(tell),
    config.$activeNamespace.listen(tell),
    config.$session.listen(tell),
  ]

  return {
    handle(event) {
      if (event.type === 'storage') {
        const { key } = event as StorageEvent
        // `null`: the whole storage was cleared.
        if (key === null || SHARED_KEYS.includes(key)) look(false)
        return
      }
      if (event.type === 'pageshow') {
        if (!(event as PageTransitionEvent).persisted) return
        open()
        look(true)
        return
      }
      // Shown again: the tab may have slept through the others' changes and its wallet's.
      if (event.type === 'visibilitychange' && win?.document.visibilityState === 'visible') look(true)
    },
    settled: () => running,
    stop() {
      for (const stop of stops) stop()
      win?.removeEventListener('pagehide', onPageHide)
      channel?.close()
      channel = undefined
    },
  }
}
