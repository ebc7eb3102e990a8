import { summarizeError, toBaseError } from '../../errors/index.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import type { Config } from '../config.ts'
import { IDLE_PAIRING } from '../config.ts'
import { pairingRefreshAt } from '../pairing/rules.ts'
import { walletConnectConnector } from '../walletConnect.ts'
import { connect } from './connect.ts'

export interface StartPairingParameters {
  /** The catalogue wallet being paired, remembered among recent wallets. */
  wallet?: { id: string; name: string } | undefined
}

/**
 * Starts a WalletConnect pairing for the ConnectingWalletConnect views: a URI in `$pairing`,
 * replaced by a fresh one before it expires (4 minutes, minus the last 10 s), until the wallet
 * answers. Approval connects like any wallet; a rejection or failure is kept for the view's
 * retry. Closing the modal stops it (the link is reset).
 *
 * @example
 * await startPairing(config, { wallet: { id: entry.id, name: entry.name } })
 */
export async function startPairing(config: Config, parameters: StartPairingParameters = {}): Promise<void> {
  config.internal.stopPairing?.()
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let cancel: (() => void) | undefined
  const stop = () => {
    stopped = true
    clearTimeout(timer)
    cancel?.()
    config.$pairing.set(IDLE_PAIRING)
    if (config.internal.stopPairing === stop) config.internal.stopPairing = undefined
  }
  config.internal.stopPairing = stop
  config.$pairing.set({
    status: 'creating',
    uri: undefined,
    createdAt: config.platform.now(),
    error: undefined,
  })

  const fail = (error: unknown) => {
    if (stopped) return
    clearTimeout(timer)
    const base = toBaseError(error)
    config.$pairing.set({
      status: base.name === 'UserRejectedRequestError' ? 'rejected' : 'failed',
      uri: undefined,
      createdAt: config.$pairing.get().createdAt,
      error: summarizeError(base),
    })
  }

  try {
    const connector = await walletConnectConnector(config)
    if (stopped) return
    cancel = () => connector.cancel()
    const refresh = async () => {
      const { uri } = await connector.pair()
      if (stopped) return
      const createdAt = config.platform.now()
      config.$pairing.set({ status: 'waiting', uri, createdAt, error: undefined })
      timer = setTimeout(() => void refresh().catch(fail), pairingRefreshAt(createdAt) - createdAt)
    }
    await refresh()
    // Closed while the first link was being made: no connection attempt may start any more.
    if (stopped) return
    const namespaces = new Set(config.$options.get().networks.map((id) => id.split(':')[0] as ChainNamespace))
    const namespace: ChainNamespace = namespaces.has('eip155') ? 'eip155' : 'solana'
    connect(config, { connector, namespace, recent: parameters.wallet }).then(() => {
      clearTimeout(timer)
      if (config.internal.stopPairing === stop) config.internal.stopPairing = undefined
    }, fail)
  } catch (error) {
    fail(error)
  }
}
