import type { Connector, ConnectorEvent, ConnectorState } from '../../connectors/types.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import { StorageKey } from '../../protocol/storage.ts'
import { fetchBalance } from '../actions/fetchBalance.ts'
import { navigate } from '../actions/navigate.ts'
import { open } from '../actions/open.ts'
import type { Config, ConnectionRecord } from '../createConfig.ts'
import { needsSignIn } from '../siwx/session.ts'
import type { ConnectionEvent } from './machine.ts'
import { transition } from './machine.ts'

const empty: ConnectionRecord = {
  status: 'disconnected',
  connectorId: undefined,
  accounts: [],
  chainId: undefined,
}

export function recordOf(config: Config, namespace: ChainNamespace): ConnectionRecord {
  return config.$connections.get()[namespace] ?? empty
}

/** Moves one namespace through the state machine, with optional new fields. */
export function step(
  config: Config,
  namespace: ChainNamespace,
  event: ConnectionEvent,
  patch: Partial<Omit<ConnectionRecord, 'status'>> = {},
): ConnectionRecord {
  const current = recordOf(config, namespace)
  const next = { ...current, ...patch, status: transition(current.status, event) }
  config.$connections.setKey(namespace, next)
  return next
}

function persist(config: Config): void {
  const connections = config.$connections.get()
  const namespaces = (Object.keys(connections) as ChainNamespace[]).filter(
    (namespace) => connections[namespace]?.status === 'connected',
  )
  config.storage.set(StorageKey.connectedNamespaces, namespaces)
  config.storage.set(StorageKey.connectionStatus, namespaces.length > 0 ? 'connected' : 'disconnected')
  const ids: Partial<Record<ChainNamespace, string>> = {}
  for (const namespace of namespaces) {
    const id = connections[namespace]?.connectorId
    if (id) ids[namespace] = id
  }
  config.storage.set(StorageKey.connector, ids)
}

/** Keeps the modal on a sensible view when the network changes under it. */
function followNetwork(config: Config): void {
  const modal = config.$modal.get()
  const network = config.$network.get()
  if (!modal.open || !network || !config.$account.get()) return
  if (!network.supported && modal.router.view !== 'UnsupportedChain')
    navigate(config, 'UnsupportedChain', {}, 'replace')
  if (network.supported && modal.router.view === 'UnsupportedChain')
    navigate(config, 'Account', {}, 'replace')
}

/** Forgets a namespace's connection after the wallet or the person ended it. */
export function markDisconnected(
  config: Config,
  namespace: ChainNamespace,
  parameters: { announce?: boolean } = {},
): void {
  const wasConnected = recordOf(config, namespace).status === 'connected' && parameters.announce !== false
  config.internal.unsubscribe.get(namespace)?.()
  config.internal.unsubscribe.delete(namespace)
  step(
    config,
    namespace,
    { type: 'disconnected' },
    { accounts: [], chainId: undefined, connectorId: undefined },
  )
  persist(config)
  if (wasConnected) config.events.emit('disconnect', { namespace })
  const modal = config.$modal.get()
  if (modal.open && (modal.router.view === 'Account' || modal.router.view === 'UnsupportedChain')) {
    navigate(config, 'Connect', {}, 'replace')
  }
}

function onConnectorEvent(config: Config, connector: Connector, event: ConnectorEvent): void {
  const record = recordOf(config, event.namespace)
  if (record.status !== 'connected' || record.connectorId !== connector.id) return
  if (event.type === 'disconnect' || (event.type === 'accountsChanged' && event.accounts.length === 0)) {
    markDisconnected(config, event.namespace)
    return
  }
  if (event.type === 'accountsChanged') {
    if (event.accounts[0] === record.accounts[0]) return
    const next = step(config, event.namespace, { type: 'connected' }, { accounts: event.accounts })
    const address = event.accounts[0]
    // The namespace the wallet changed, shown or not.
    if (address && next.chainId) {
      config.events.emit('account-change', {
        address,
        caipAddress: `${next.chainId}:${address}`,
        namespace: event.namespace,
        ...(event.accountType
          ? { accountType: event.accountType, smartAccountDeployed: event.smartAccountDeployed === true }
          : {}),
      })
    }
  } else {
    if (event.chainId === record.chainId) return
    step(config, event.namespace, { type: 'connected' }, { chainId: event.chainId })
    config.storage.set(StorageKey.lastChain, event.chainId)
    config.events.emit('network-change', {
      chainId: event.chainId,
      namespace: event.namespace,
      supported: config.$options.get().networks.includes(event.chainId),
    })
    followNetwork(config)
  }
  void fetchBalance(config).catch(() => {})
  askToSignIn(config)
}

/** Switching to an account or network with no session asks for sign-in again. */
export function askToSignIn(config: Config): void {
  void needsSignIn(config).then((needed) => {
    if (needed) void open(config, { view: 'SIWXSignMessage' })
  })
}

/**
 * Records a connector's connection, remembers it for the next visit and follows the wallet's
 * own changes from now on.
 */
export function markConnected(config: Config, connector: Connector, state: ConnectorState): void {
  const { namespace } = state
  config.internal.unsubscribe.get(namespace)?.()
  step(
    config,
    namespace,
    { type: 'connected' },
    {
      connectorId: connector.id,
      accounts: state.accounts,
      chainId: state.chainId,
    },
  )
  config.$activeNamespace.set(namespace)
  config.internal.unsubscribe.set(
    namespace,
    connector.subscribe((event) => onConnectorEvent(config, connector, event), namespace),
  )
  config.storage.remove(StorageKey.disconnected)
  config.storage.set(StorageKey.lastChain, state.chainId)
  persist(config)
  // An inline modal shows the account as soon as there is one (a restored session, say).
  const modal = config.$modal.get()
  if (config.$options.get().inline && modal.router.view === 'Connect' && config.$account.get())
    navigate(config, 'Account', {}, 'replace')
  followNetwork(config)
  void fetchBalance(config).catch(() => {})
}
