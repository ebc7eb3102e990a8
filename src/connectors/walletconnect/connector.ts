import type SignClient from '@walletconnect/sign-client'
import type { SessionTypes } from '@walletconnect/types'
import {
  ERROR_CODES,
  ProviderDisconnectedError,
  RequestAbortedError,
  toBaseError,
} from '../../errors/index.ts'
import type { CaipNetworkId, ChainNamespace } from '../../protocol/caip.ts'
import { RPC_TIMEOUT_MS } from '../../protocol/constants.ts'
import { walletRequest } from '../request.ts'
import type {
  AddNetworkParameters,
  Connector,
  ConnectorEvent,
  ConnectorState,
  Eip1193Provider,
} from '../types.ts'
import { namespaceRecord, type SessionNamespace, WALLETCONNECT_NAMESPACES } from './namespaces.ts'
import { checkResult } from './results.ts'

export const WALLETCONNECT_ID = 'walletConnect'

/** Methods answered by the wallet over the session; everything else is a read sent to RPC. */
const WALLET_METHODS = new Set([
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
])

export interface WalletConnectConnectorParameters {
  projectId: string
  relayUrl: string
  metadata: { name: string; description: string; url: string; icons: string[] }
  /** The namespaces to ask for (from the configured networks). */
  namespaces: () => Record<string, SessionNamespace>
  /** RPC URL for reads on a network (the service's proxy or the network's own). */
  rpcUrl: (caipNetworkId: CaipNetworkId) => string | undefined
  fetch: typeof fetch
  /**
   * Whether to ask WalletConnect's Verify service to attest the page's origin (its public relay and a
   * WalletConnect Cloud project); off for another relay.
   */
  verify?: boolean | undefined
  /**
   * The page, whose return to the front (`visibilitychange` to visible, `pageshow` from the back-forward
   * cache) restarts the relay socket (see `resume`). Absent outside a browser.
   */
  window?: Window | undefined
}

export interface WalletConnectConnector extends Connector {
  /**
   * Creates a pairing URI for a wallet to scan or open. A new URI replaces the previous one; the
   * pending `connect()` settles with whichever current pairing the wallet answers.
   */
  pair(): Promise<{ uri: string }>
  /**
   * Abandons the pairing in progress (the modal closed): the pending `connect()` rejects as aborted, and
   * the pairings no wallet answered are deleted (the client stops listening for them).
   */
  cancel(): void
  /**
   * Reconnects the relay socket when the client listens for something (a pairing, a session): a phone
   * suspends a page in the background and its socket may die without a word, so whatever the wallet
   * sent meanwhile (the session's approval) arrives only on a new one. Runs by itself when the page
   * comes back to the front.
   */
  resume(): Promise<void>
}

/** The namespaces a session may carry (eip155, solana, bip122, polkadot, cosmos). */
const SESSION_NAMESPACES = Object.keys(WALLETCONNECT_NAMESPACES) as ChainNamespace[]

/** The address of a CAIP-10 account, or of an entry of bip122's address list. */
const addressOf = (entry: unknown): string =>
  typeof entry === 'string'
    ? (entry.split(':').at(-1) ?? '')
    : String((entry as { address?: unknown } | null)?.address ?? '')

/**
 * A connector for wallets paired over WalletConnect (`@walletconnect/sign-client`, loaded with
 * this module). Sessions live in the client's own storage and are restored on reload; signing
 * goes over the session and reads go to RPC, behind one EIP-1193 provider per namespace. Every
 * namespace the wallet approves is connected: the one asked for, and the others beside it
 * (`alsoConnected`). For bip122, polkadot and cosmos the provider passes the namespace's methods to
 * the wallet and checks the answers' shapes.
 *
 * @example
 * const connector = createWalletConnectConnector({ projectId, relayUrl, metadata, namespaces, rpcUrl, fetch })
 * const { uri, approval } = await connector.pair()
 */
export function createWalletConnectConnector(
  parameters: WalletConnectConnectorParameters,
): WalletConnectConnector {
  let client: Promise<SignClient> | undefined
  let session: SessionTypes.Struct | undefined
  const chains = new Map<ChainNamespace, CaipNetworkId>()
  const listeners = new Set<(event: ConnectorEvent) => void>()
  let pairingSeq = 0
  /** Topics of the pairings made here that no wallet answered yet. */
  const unanswered = new Set<string>()
  let resuming: Promise<void> | undefined
  /** The namespace the pending connect() asked for: the session's first, when the wallet approves it. */
  let asked: ChainNamespace | undefined
  let waiter:
    | { promise: Promise<ConnectorState>; resolve(state: ConnectorState): void; reject(error: unknown): void }
    | undefined
  const waiting = () => {
    if (!waiter) {
      let resolve!: (state: ConnectorState) => void
      let reject!: (error: unknown) => void
      const promise = new Promise<ConnectorState>((res, rej) => {
        resolve = res
        reject = rej
      })
      // A pairing made ahead has no connect() waiting yet: its cancellation is nobody's error.
      promise.catch(() => {})
      waiter = { promise, resolve, reject }
    }
    return waiter
  }
  const settle = (outcome: { state: ConnectorState } | { error: unknown }) => {
    const current = waiter
    waiter = undefined
    if (!current) return
    if ('state' in outcome) current.resolve(outcome.state)
    else current.reject(outcome.error)
  }
  const emit = (event: ConnectorEvent) => {
    for (const listener of listeners) listener(event)
  }

  const stateOf = (value: SessionTypes.Struct, namespace: ChainNamespace): ConnectorState | undefined => {
    const accounts = value.namespaces[namespace]?.accounts ?? []
    if (accounts.length === 0) return undefined
    const chainId = (chains.get(namespace) ?? accounts[0]?.split(':').slice(0, 2).join(':')) as CaipNetworkId
    chains.set(namespace, chainId)
    const addresses = accounts
      .filter((account) => account.startsWith(`${chainId}:`))
      .map((account) => account.split(':')[2] ?? '')
    return { namespace, accounts: addresses.length ? addresses : [accounts[0]?.split(':')[2] ?? ''], chainId }
  }
  /** The state of `namespace` with the session's other approved namespaces beside it. */
  const sessionState = (
    value: SessionTypes.Struct,
    namespace: ChainNamespace,
  ): ConnectorState | undefined => {
    const state = stateOf(value, namespace)
    if (!state) return undefined
    const alsoConnected = SESSION_NAMESPACES.filter(
      (other) => other !== namespace && value.namespaces[other],
    ).flatMap((other) => stateOf(value, other) ?? [])
    return alsoConnected.length > 0 ? { ...state, alsoConnected } : state
  }

  const getClient = () => {
    client ??= import('@walletconnect/sign-client').then(async ({ default: Client }) => {
      const instance = await Client.init({
        projectId: parameters.projectId,
        relayUrl: parameters.relayUrl,
        metadata: parameters.metadata,
        telemetryEnabled: false,
        customStoragePrefix: 'wallet-elements',
      })
      // WalletConnect's Verify attests the page's origin for a WalletConnect Cloud project, before each
      // proposal and request, through a frame from verify.walletconnect.org that the client waits up to
      // 5 s for. Another relay's project is not one it knows: the attestation would be empty after that
      // wait (which is what held every pairing link back for 5 s on the dev relay).
      if (!parameters.verify) instance.core.verify.register = async () => ''
      const current = () => session
      instance.on('session_event', ({ topic, params }) => {
        if (topic !== current()?.topic) return
        const { name, data } = params.event
        const namespace = params.chainId.split(':')[0] as ChainNamespace
        if (name === 'chainChanged') {
          const reference = typeof data === 'string' && data.startsWith('0x') ? Number(BigInt(data)) : data
          const chainId = `${namespace}:${reference}` as CaipNetworkId
          chains.set(namespace, chainId)
          emit({ type: 'chainChanged', namespace, chainId })
        } else if (
          (name === 'accountsChanged' || name === 'bip122_addressesChanged') &&
          Array.isArray(data)
        ) {
          // CAIP-10 accounts or plain addresses; bip122 sends its address entries ({ address, … }).
          const accounts = data.map(addressOf).filter(Boolean)
          emit({ type: 'accountsChanged', namespace, accounts })
        }
      })
      instance.on('session_update', ({ topic, params }) => {
        if (topic !== current()?.topic || !session) return
        session = { ...session, namespaces: params.namespaces }
        for (const namespace of Object.keys(params.namespaces) as ChainNamespace[]) {
          const state = stateOf(session, namespace)
          if (state) emit({ type: 'accountsChanged', namespace, accounts: state.accounts })
        }
      })
      const ended = ({ topic }: { topic: string }) => {
        if (topic !== current()?.topic || !session) return
        const namespaces = Object.keys(session.namespaces) as ChainNamespace[]
        session = undefined
        for (const namespace of namespaces) emit({ type: 'disconnect', namespace })
      }
      instance.on('session_delete', ended)
      instance.on('session_expire', ended)
      watchPage()
      return instance
    })
    return client
  }

  /** Deletes the pairings no wallet answered: the client stops listening for them. */
  function dropUnanswered(): void {
    const topics = [...unanswered]
    unanswered.clear()
    if (!client || topics.length === 0) return
    void client.then((instance) => {
      for (const topic of topics) void instance.core.pairing.disconnect({ topic }).catch(() => {})
    })
  }

  async function resume(): Promise<void> {
    if (!client) return
    const { relayer } = (await client).core
    if (!relayer.subscriber.hasAnyTopics) return
    // One restart at a time: a page coming back fires visibilitychange and, from the cache, pageshow.
    resuming ??= relayer
      .restartTransport()
      .catch(() => {})
      .finally(() => {
        resuming = undefined
      })
    return resuming
  }

  /** Restarts the socket whenever the page comes back to the front (hidden, then visible; or restored from the cache). */
  function watchPage(): void {
    const win = parameters.window
    if (!win) return
    let hidden = win.document.visibilityState === 'hidden'
    win.document.addEventListener('visibilitychange', () => {
      const nowHidden = win.document.visibilityState === 'hidden'
      if (hidden && !nowHidden) void resume()
      hidden = nowHidden
    })
    win.addEventListener('pageshow', (event) => {
      if (event.persisted) void resume()
    })
  }

  async function sessionRequest(
    namespace: ChainNamespace,
    method: string,
    params: unknown,
  ): Promise<unknown> {
    const instance = await getClient()
    if (!session) throw new ProviderDisconnectedError()
    const chainId =
      chains.get(namespace) ?? (session.namespaces[namespace]?.chains?.[0] as CaipNetworkId | undefined)
    if (!chainId) throw new ProviderDisconnectedError()
    try {
      return await instance.request({ topic: session.topic, chainId, request: { method, params } })
    } catch (error) {
      throw toBaseError(error)
    }
  }

  async function rpcRead(namespace: ChainNamespace, method: string, params: unknown): Promise<unknown> {
    const chainId = chains.get(namespace)
    const url = chainId ? parameters.rpcUrl(chainId) : undefined
    if (!chainId || !url) throw new ProviderDisconnectedError()
    if (method === 'eth_chainId') return `0x${Number(chainId.split(':')[1]).toString(16)}`
    if (method === 'eth_accounts' || method === 'eth_requestAccounts')
      return session ? (stateOf(session, namespace)?.accounts ?? []) : []
    const response = await parameters.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // One call per HTTP request: its answer is the response, so the id needs no counter.
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
      signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
    })
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
    if (body.error) throw toBaseError(body.error)
    return body.result
  }

  const providers = new Map<ChainNamespace, Eip1193Provider>()
  const providerFor = (namespace: ChainNamespace): Eip1193Provider => {
    let provider = providers.get(namespace)
    const record = namespaceRecord(namespace)
    if (!provider && record && !record.rpcMap) {
      // bip122, polkadot, cosmos: the wallet answers everything; nothing is read from RPC here.
      provider = {
        request: async ({ method, params }) => {
          const approved = session?.namespaces[namespace]?.methods.includes(method) ?? false
          if (!approved && !record.methods.includes(method))
            throw toBaseError({ code: 4200, message: `The wallet does not support ${method}.` })
          return checkResult(method, await sessionRequest(namespace, method, params))
        },
      }
      providers.set(namespace, provider)
    }
    if (!provider) {
      provider = {
        request: ({ method, params }) => {
          // What the wallet approved beyond the basics (EIP-5792's methods, say) goes to the wallet too.
          const approved = session?.namespaces[namespace]?.methods.includes(method) ?? false
          if (WALLET_METHODS.has(method) || approved) return sessionRequest(namespace, method, params)
          if (method.startsWith('wallet_'))
            return Promise.reject(
              toBaseError({ code: 4200, message: `The wallet does not support ${method}.` }),
            )
          return rpcRead(namespace, method, params)
        },
      }
      providers.set(namespace, provider)
    }
    return provider
  }

  return {
    id: WALLETCONNECT_ID,
    name: 'WalletConnect',
    type: 'walletConnect',
    namespaces: SESSION_NAMESPACES,

    async pair() {
      const instance = await getClient()
      const seq = ++pairingSeq
      const { uri, approval } = await instance.connect({ optionalNamespaces: parameters.namespaces() })
      if (!uri) throw toBaseError({ code: ERROR_CODES.default, message: 'No pairing URI' })
      const topic = /^wc:([^@]+)@/.exec(uri)?.[1]
      if (topic) unanswered.add(topic)
      waiting()
      // At once: approval()'s promise misses a session that settles before it is called
      // (@walletconnect/utils createDelayedPromise) and would wait for the proposal to expire.
      approval().then(
        (value) => {
          if (topic) unanswered.delete(topic)
          // The session is made: the pairings made before this one (replaced as they neared expiry) are done.
          dropUnanswered()
          const first = (Object.keys(value.namespaces)[0] ?? 'eip155') as ChainNamespace
          const namespace = asked && value.namespaces[asked] ? asked : first
          chains.clear()
          session = value
          const state = sessionState(value, namespace)
          settle(
            state
              ? { state }
              : { error: toBaseError({ code: 4100, message: 'The wallet approved no accounts.' }) },
          )
        },
        // A superseded pairing expiring is not an answer from the wallet.
        (error: unknown) => {
          if (seq === pairingSeq) settle({ error: toBaseError(error) })
        },
      )
      return { uri }
    },

    cancel() {
      pairingSeq++
      settle({ error: new RequestAbortedError() })
      dropUnanswered()
    },

    resume,

    async connect({ namespace }) {
      if (session) {
        const state = sessionState(session, namespace)
        if (state) return state
      }
      asked = namespace
      const pending = waiting().promise
      if (pairingSeq === 0) await this.pair()
      return pending
    },

    async reconnect({ namespace }) {
      const instance = await getClient()
      const now = Date.now() / 1000
      const restored = instance.session
        .getAll()
        .filter((candidate) => candidate.expiry > now && candidate.namespaces[namespace])
        .at(-1)
      if (!restored) return undefined
      session = restored
      return stateOf(restored, namespace)
    },

    async disconnect() {
      const instance = await getClient()
      const topic = session?.topic
      session = undefined
      if (topic) await instance.disconnect({ topic, reason: { code: 6000, message: 'User disconnected' } })
    },

    async switchNetwork({
      namespace,
      network,
    }: {
      namespace: ChainNamespace
      network: AddNetworkParameters
    }) {
      if (namespace === 'eip155') {
        const hex = `0x${Number(network.caipNetworkId.split(':')[1]).toString(16)}`
        const provider = providerFor('eip155')
        try {
          await walletRequest(
            provider,
            { method: 'wallet_switchEthereumChain', params: [{ chainId: hex }] },
            RPC_TIMEOUT_MS,
          )
        } catch (error) {
          const base = toBaseError(error)
          if (base.code !== ERROR_CODES.unrecognizedChain) throw base
          await walletRequest(
            provider,
            {
              method: 'wallet_addEthereumChain',
              params: [
                {
                  chainId: hex,
                  chainName: network.name,
                  nativeCurrency: network.nativeCurrency,
                  rpcUrls: network.rpcUrls,
                },
              ],
            },
            RPC_TIMEOUT_MS,
          )
        }
      }
      chains.set(namespace, network.caipNetworkId)
      emit({ type: 'chainChanged', namespace, chainId: network.caipNetworkId })
    },

    getProvider: providerFor,

    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
