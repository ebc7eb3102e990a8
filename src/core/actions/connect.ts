import type { Connector, ConnectorState } from '../../connectors/types.ts'
import type { BaseError } from '../../errors/index.ts'
import { ERROR_CODES, RequestAbortedError, summarizeError, toBaseError } from '../../errors/index.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import { RECENT_WALLETS_MAX } from '../../protocol/constants.ts'
import { RecentWalletsSchema, StorageKey } from '../../protocol/storage.ts'
import type { Config } from '../config.ts'
import { connectDetail, markConnected, recordOf, step } from '../connection/records.ts'
import { networkFor } from '../networkFor.ts'
import { needsSignIn } from '../siwx/session.ts'
import { loadNetworks } from './loadNetworks.ts'

export interface ConnectParameters {
  connector: Connector
  namespace?: ChainNamespace | undefined
  /** What "recent wallets" remembers (a catalogue wallet paired over WalletConnect, say). */
  recent?: { id: string; name: string } | undefined
  /** Stay on the current view (a network switch that connects another namespace). */
  keepOpen?: boolean | undefined
}
export type ConnectReturnType = ConnectorState
export type ConnectErrorType = BaseError

function rememberRecent(config: Config, wallet: { id: string; name: string }): void {
  const recent = config.storage.get(StorageKey.recentWallets, RecentWalletsSchema) ?? []
  const next = [{ id: wallet.id, name: wallet.name }, ...recent.filter((entry) => entry.id !== wallet.id)]
  config.storage.set(StorageKey.recentWallets, next.slice(0, RECENT_WALLETS_MAX))
}

/** The namespace shown now when the wallet serves it, else the first one both the wallet and the site use. */
function namespaceFor(config: Config, connector: Connector): ChainNamespace {
  const shown = config.$network.get()?.caipNetworkId.split(':')[0] as ChainNamespace | undefined
  if (shown && connector.namespaces.includes(shown)) return shown
  const active = config.$activeNamespace.get()
  if (connector.namespaces.includes(active)) return active
  const { networks } = config.$options.get()
  return (
    connector.namespaces.find((namespace) => networks.some((id) => id.startsWith(`${namespace}:`))) ??
    connector.namespaces[0] ??
    'eip155'
  )
}

/**
 * Connects a wallet: shows ConnectingExternal's waiting state, asks the wallet, then records the
 * connection and its outcome, which the modal follows (it closes, asks for sign-in, or shows
 * UnsupportedChain). A rejection or failure is kept in
 * `$connecting` for the view, reported as `wallet-error`, and thrown.
 *
 * @example
 * await connect(config, { connector })
 */
export async function connect(config: Config, parameters: ConnectParameters): Promise<ConnectReturnType> {
  const { connector } = parameters
  const namespace = parameters.namespace ?? namespaceFor(config, connector)
  const attempt = {}
  config.internal.connectAttempts.set(namespace, attempt)
  const superseded = () => config.internal.connectAttempts.get(namespace) !== attempt
  config.$connecting.set({ connectorId: connector.id, status: 'waiting', error: undefined })
  step(config, namespace, { type: 'connect' })
  try {
    const state = await connector.connect({ namespace, chainId: networkFor(config, namespace) })
    // Another wallet was chosen meanwhile (a pairing left behind, say): that attempt owns the state.
    if (superseded()) throw new RequestAbortedError({ details: 'Another connection attempt took over' })
    await loadNetworks(config).catch(() => {})
    // A WalletConnect session's other namespaces first: the one asked for is then the active one.
    // A namespace another wallet serves stays with it.
    for (const other of state.alsoConnected ?? []) {
      const record = recordOf(config, other.namespace)
      if (record.status === 'connected' && record.connectorId !== connector.id) continue
      step(config, other.namespace, { type: 'connect' })
      markConnected(config, connector, other)
    }
    markConnected(config, connector, state)
    rememberRecent(config, parameters.recent ?? connector)
    config.$connecting.set(undefined)
    const detail = connectDetail(config, connector, state)
    const signInNeeded = await needsSignIn(config)
    if (detail) {
      // With sign-in required, the site hears of the connection once the session exists.
      if (signInNeeded && config.$options.get().siwx === 'required') config.internal.pendingConnect = detail
      else config.events.emit('connect', detail)
    }
    // On a network the site does not list, UnsupportedChain shows (core/follow/outcome.ts).
    if (config.$network.get()?.supported === false) {
      config.$outcome.set({ type: 'unsupported' })
      return state
    }
    // The sign-in view, or closing, follows (core/follow/outcome.ts).
    config.$outcome.set({
      type: 'connected',
      namespace,
      signIn: signInNeeded,
      keepOpen: parameters.keepOpen === true,
    })
    return state
  } catch (error) {
    const base = toBaseError(error)
    if (superseded()) throw base
    if (recordOf(config, namespace).status === 'connecting') step(config, namespace, { type: 'failed' })
    // Abandoned on purpose (the modal closed during a pairing): nothing to show or report.
    if (base.name === 'RequestAbortedError') {
      config.$connecting.set(undefined)
      throw base
    }
    config.$connecting.set({
      connectorId: connector.id,
      status: base.code === ERROR_CODES.userRejected ? 'rejected' : 'failed',
      error: summarizeError(base),
    })
    config.events.emit('error', { code: base.code, message: base.shortMessage })
    throw base
  }
}
