/**
 * The connection records of a config and their transitions: what a connector's connection, its
 * events and its end do to `$connections` and to what the browser remembers. Imports no action:
 * what follows a change (the modal's view, balances, sign-in, the profile) is up to the
 * subscribers in `../follow/`, started by `createConfig`.
 * @module
 */
import type { AccountKind, Connector, ConnectorEvent, ConnectorState } from '../../connectors/types.ts'
import type { CaipNetworkId, ChainNamespace } from '../../protocol/caip.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config, ConnectionRecord } from '../config.ts'
import type { ConnectDetail } from '../events/types.ts'
import type { ConnectionEvent } from './machine.ts'
import { recordOf } from './recordOf.ts'

export { recordOf }

import { transition } from './machine.ts'

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

/** Whether a change is this tab's own, to remember (see `Config.internal.fromOtherTab`). */
export const ownChange = (config: Config): boolean => !config.internal.fromOtherTab

/** Remembers the network used last, for the next visit and the page's other tabs. */
export function rememberChain(config: Config, chainId: CaipNetworkId): void {
  if (ownChange(config)) config.storage.set(StorageKey.lastChain, chainId)
}

function persist(config: Config): void {
  if (!ownChange(config)) return
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
}

/**
 * Follows a connector's own change (accounts, chain, its end) of a connection it holds; also what a
 * tab read again from its wallet (`sync.ts`) goes through.
 */
export function onConnectorEvent(config: Config, connector: Connector, event: ConnectorEvent): void {
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
    rememberChain(config, event.chainId)
    config.events.emit('network-change', {
      chainId: event.chainId,
      namespace: event.namespace,
      supported: config.$options.get().networks.includes(event.chainId),
    })
  }
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
  if (ownChange(config)) config.storage.remove(StorageKey.disconnected)
  rememberChain(config, state.chainId)
  persist(config)
}

/**
 * What `wallet-connect` says of the account shown (connected through `connector`), if there is one.
 *
 * @example
 * const detail = connectDetail(config, connector, state)
 */
export function connectDetail(
  config: Config,
  connector: Connector,
  kind: AccountKind = {},
): ConnectDetail | undefined {
  const account = config.$account.get()
  if (!account) return undefined
  return {
    address: account.address,
    caipAddress: account.caipAddress,
    chainId: account.caipAddress.slice(0, account.caipAddress.lastIndexOf(':')) as CaipNetworkId,
    namespace: account.namespace,
    connector: { id: connector.id, name: connector.name, type: connector.type },
    ...(kind.accountType
      ? { accountType: kind.accountType, smartAccountDeployed: kind.smartAccountDeployed === true }
      : {}),
  }
}
