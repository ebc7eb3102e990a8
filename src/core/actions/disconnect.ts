import type { Connector } from '../../connectors/types.ts'
import { FailedToDisconnectError } from '../../errors/index.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import { StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import { markDisconnected, recordOf } from '../connection/records.ts'
import { reportError } from './reportError.ts'

export interface DisconnectParameters {
  /** One namespace, or every connected one when omitted. */
  namespace?: ChainNamespace | undefined
}

/**
 * Disconnects and remembers that the person chose to, so a reload does not reconnect. The site
 * forgets the connection even when the wallet fails to revoke it (reported as `Failed to disconnect`).
 *
 * @example
 * await disconnect(config)
 */
export async function disconnect(config: Config, parameters: DisconnectParameters = {}): Promise<void> {
  const connections = config.$connections.get()
  const namespaces = parameters.namespace
    ? [parameters.namespace]
    : (Object.keys(connections) as ChainNamespace[]).filter(
        (ns) => connections[ns]?.status !== 'disconnected',
      )
  config.storage.set(StorageKey.disconnected, true)
  // A connection still waiting for its required sign-in was never announced: no disconnect either.
  const announced = config.internal.pendingConnect === undefined
  // Disconnect clears the sign-in, then signs out (SPEC section 4).
  const { signOut, bounded } = await import('./signOut.ts')
  await signOut(config)
  // One sign-out per connector, however many namespaces it serves: the 3 s bound is for all of them.
  const signingOut = new Map<Connector, Promise<unknown>>()
  for (const namespace of namespaces) {
    const { connectorId } = recordOf(config, namespace)
    const connector = config.$connectors.get().find((candidate) => candidate.id === connectorId)
    try {
      if (connector?.type === 'embedded') {
        // The embedded wallet: forget the cached login first, then sign out, 3 s at most (SPEC 4, 9).
        const { clearLoginCache } = await import('../embeddedState.ts')
        clearLoginCache(config)
        // A revoke the wallet did not confirm is reported (a sign-out must not look done when it is not),
        // once per connector.
        const waiting =
          signingOut.get(connector) ??
          bounded(
            connector.disconnect({ namespace }).catch((error: unknown) => {
              reportError(config, new FailedToDisconnectError({ cause: error }))
            }),
          )
        signingOut.set(connector, waiting)
        await waiting
      } else await connector?.disconnect({ namespace })
    } catch (error) {
      reportError(config, new FailedToDisconnectError({ cause: error }))
    }
    markDisconnected(config, namespace, { announce: announced })
  }
  // The modal closes (core/follow/outcome.ts).
  config.$outcome.set({ type: 'disconnected' })
}
