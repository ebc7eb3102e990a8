import * as z from 'zod/mini'
import type { Connector } from '../../connectors/types.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import { CaipNetworkIdSchema } from '../../protocol/caip.ts'
import { ConnectionStatusSchema, ConnectorIdsSchema, StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import { markConnected, ownChange, recordOf, step } from '../connection/records.ts'
import { networkFor } from '../networkFor.ts'
import { walletConnectConnector } from '../walletConnect.ts'
import { loadNetworks } from './loadNetworks.ts'

const WALLETCONNECT_ID = 'walletConnect'
const EMBEDDED_ID = 'embedded'

/** How long to wait for the remembered wallet to announce itself after a reload. */
const CONNECTOR_WAIT_MS = 3_000

function waitForConnector(
  config: Config,
  id: string,
  namespace: ChainNamespace,
): Promise<Connector | undefined> {
  // A wallet that serves two ecosystems shows up once both of its parts have announced themselves.
  const find = () =>
    config.$connectors
      .get()
      .find((connector) => connector.id === id && connector.namespaces.includes(namespace))
  const found = find()
  if (found) return Promise.resolve(found)
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop()
      resolve(undefined)
    }, CONNECTOR_WAIT_MS)
    const stop = config.$connectors.listen(() => {
      const connector = find()
      if (!connector) return
      clearTimeout(timer)
      stop()
      resolve(connector)
    })
  })
}

/**
 * Restores the connections remembered from the last visit, without a prompt: each namespace goes
 * `reconnecting` then `connected`, or back to `disconnected` when the wallet no longer knows the
 * site. An explicit Disconnect is remembered and not undone.
 *
 * @example
 * await reconnect(config)
 */
export async function reconnect(config: Config): Promise<void> {
  const { storage } = config
  if (storage.get(StorageKey.disconnected, z.boolean()) === true) return
  if (storage.get(StorageKey.connectionStatus, ConnectionStatusSchema) !== 'connected') return
  const ids = storage.get(StorageKey.connector, ConnectorIdsSchema) ?? {}
  const lastChain = storage.get(StorageKey.lastChain, CaipNetworkIdSchema)
  const lastNamespace = (lastChain?.split(':')[0] ?? 'eip155') as ChainNamespace
  await Promise.all(
    Object.entries(ids).map(async ([namespace, id]) => {
      const ns = namespace as keyof typeof ids
      if (!id || recordOf(config, ns).status !== 'disconnected') return
      step(config, ns, { type: 'reconnect' }, { connectorId: id })
      try {
        if (id === WALLETCONNECT_ID) await walletConnectConnector(config)
        if (id === EMBEDDED_ID) await (await import('../embedded.ts')).embeddedConnector(config)
        const connector = await waitForConnector(config, id, ns)
        const state = connector
          ? await connector.reconnect({ namespace: ns, chainId: networkFor(config, ns) })
          : undefined
        if (connector && state) {
          await loadNetworks(config).catch(() => {})
          markConnected(config, connector, state)
          // The namespace used last is the one shown again.
          if (
            lastChain &&
            !lastChain.startsWith(`${ns}:`) &&
            recordOf(config, lastNamespace).status === 'connected'
          )
            config.$activeNamespace.set(lastNamespace)
          // A restored account without a session is asked to sign in (core/follow/signIn.ts).
          return
        }
      } catch {
        // A failed check is treated as the wallet no longer authorising the site, below.
      }
      // Another tab's connection this tab could not restore is that tab's still: nothing is forgotten.
      const own = ownChange(config)
      // Not authorised any more. The embedded wallet's check said not signed in (or failed): its cached
      // login goes too.
      if (own && id === EMBEDDED_ID) (await import('../embeddedState.ts')).clearLoginCache(config)
      step(config, ns, { type: 'failed' }, { connectorId: undefined })
      if (own) storage.set(StorageKey.connectionStatus, 'disconnected')
    }),
  )
}
