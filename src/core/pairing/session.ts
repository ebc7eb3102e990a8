import type { WalletConnectConnector } from '../../connectors/walletconnect/connector.ts'
import { summarizeError, toBaseError } from '../../errors/index.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import { connect } from '../actions/connect.ts'
import type { Config } from '../config.ts'
import { IDLE_PAIRING, type PairingSession, type PairingWallet } from '../state/pairing.ts'
import { walletConnectConnector } from '../walletConnect.ts'
import { keepsPairing, pairingRefreshAt } from './rules.ts'

const sameWallet = (a: PairingWallet | undefined, b: PairingWallet | undefined) => a?.id === b?.id

/**
 * Starts a pairing, replacing the one in progress: a URI in `$pairing`, replaced by a fresh one before it
 * expires (4 minutes, minus the last 10 s), until a wallet answers or the pairing stops. It stops when the
 * modal closes or moves to a view that does not keep it (`keepsPairing`), never leaving a second one
 * behind. `preparing` says the views that make pairings ahead (a phone's Connect and All wallets) keep it.
 *
 * @example
 * const session = openPairing(config, { preparing: true })
 * session.use({ id: entry.id, name: entry.name })
 */
export function openPairing(config: Config, options: { preparing: boolean }): PairingSession {
  config.internal.pairing?.stop()
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let connector: WalletConnectConnector | undefined
  /** The connection attempt in flight; an older one that settles late changes nothing. */
  let attempt: object | undefined

  const finish = () => {
    stopped = true
    clearTimeout(timer)
    unfollow()
    session.endLaunch?.()
    session.endLaunch = undefined
    if (config.internal.pairing === session) config.internal.pairing = undefined
  }
  const session: PairingSession = {
    use,
    ready: Promise.resolve(false),
    stop() {
      if (stopped) return
      finish()
      connector?.cancel()
      config.$pairing.set(IDLE_PAIRING)
    },
    endLaunch: undefined,
  }
  config.internal.pairing = session
  config.$pairing.set({
    ...IDLE_PAIRING,
    status: 'creating',
    createdAt: config.platform.now(),
    connecting: false,
  })

  // Closing resets the link (SPEC section 2); so does a view that has no use for it.
  const unfollow = config.$modal.listen((modal) => {
    if (!modal.open || !keepsPairing(modal.router.view, options)) session.stop()
  })

  const fail = (error: unknown) => {
    if (stopped) return
    clearTimeout(timer)
    const base = toBaseError(error)
    config.$pairing.set({
      ...config.$pairing.get(),
      status: base.name === 'UserRejectedRequestError' ? 'rejected' : 'failed',
      uri: undefined,
      error: summarizeError(base),
      connecting: false,
    })
    // A failed pairing is over: the view's retry makes a fresh one.
    attempt = undefined
  }

  const refresh = async (): Promise<void> => {
    const { uri } = await (connector as WalletConnectConnector).pair()
    if (stopped) return
    const createdAt = config.platform.now()
    config.$pairing.set({ ...config.$pairing.get(), status: 'waiting', uri, createdAt, error: undefined })
    timer = setTimeout(() => void refresh().catch(fail), pairingRefreshAt(createdAt) - createdAt)
  }

  // The first URI; `ready` says whether a connection attempt may start on it.
  const ready = (async () => {
    try {
      connector = await walletConnectConnector(config)
      if (stopped) return false
      await refresh()
      // Closed while the first link was being made: no connection attempt may start any more.
      return !stopped
    } catch (error) {
      fail(error)
      return false
    }
  })()
  session.ready = ready

  function use(wallet: PairingWallet | undefined): void {
    if (stopped) return
    const current = config.$pairing.get()
    if (!sameWallet(current.wallet, wallet)) config.$pairing.setKey('wallet', wallet)
    if (attempt && sameWallet(current.wallet, wallet)) return
    if (current.status === 'rejected' || current.status === 'failed') return
    const mine = {}
    attempt = mine
    config.$pairing.setKey('connecting', true)
    void ready.then((ok) => {
      if (!ok || stopped || attempt !== mine) return
      const namespaces = new Set(
        config.$options.get().networks.map((id) => id.split(':')[0] as ChainNamespace),
      )
      const namespace: ChainNamespace = namespaces.has('eip155') ? 'eip155' : 'solana'
      connect(config, { connector: connector as WalletConnectConnector, namespace, recent: wallet }).then(
        () => {
          if (attempt !== mine) return
          // Connected: the pairing's work is done; the modal follows the connection (it closes or asks to sign in).
          finish()
          config.$pairing.set(IDLE_PAIRING)
        },
        (error: unknown) => {
          if (attempt === mine) fail(error)
        },
      )
    })
  }

  return session
}
