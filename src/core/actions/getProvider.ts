import type { Eip1193Provider } from '../../connectors/types.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import type { Config, ConnectionRecord } from '../createConfig.ts'
import type {
  SolanaSendConnection,
  SolanaSendOptions,
  SolanaTransactionLike,
} from '../solana/transactions.ts'

type Listener = (...args: never[]) => void

const disconnected = {
  status: 'disconnected',
  connectorId: undefined,
  accounts: [],
  chainId: undefined,
} as const
const recordOf = (config: Config, namespace: ChainNamespace): ConnectionRecord =>
  config.$connections.get()[namespace] ?? disconnected

/** EIP-1193 error 4900; built lazily so the error catalogue stays off the first paint. */
const disconnectedError = async () => new (await import('../../errors/rpc.ts')).ProviderDisconnectedError()

const providers = new WeakMap<Config, Map<ChainNamespace, Eip1193Provider>>()

/**
 * A standard EIP-1193 provider for a namespace that follows whichever connection is active, so a
 * page can hand it to viem or ethers once and keep it across reconnects and wallet changes.
 *
 * @example
 * const client = createWalletClient({ transport: custom(getProvider(config, 'eip155')) })
 */
export function getProvider(config: Config, namespace?: 'eip155'): Eip1193Provider
export function getProvider(config: Config, namespace: 'solana'): SolanaProvider
export function getProvider(config: Config, namespace: ChainNamespace): Eip1193Provider
export function getProvider(config: Config, namespace: ChainNamespace = 'eip155'): Eip1193Provider {
  let byNamespace = providers.get(config)
  if (!byNamespace) {
    byNamespace = new Map()
    providers.set(config, byNamespace)
  }
  const existing = byNamespace.get(namespace)
  if (existing) return existing

  const listeners = new Map<string, Set<Listener>>()
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args)
  }
  let last = recordOf(config, namespace)
  config.$connections.listen((connections) => {
    const next = connections[namespace]
    if (!next) return
    if (next.status === 'connected' && last.status !== 'connected') emit('connect', { chainId: next.chainId })
    if (next.status === 'disconnected' && last.status === 'connected') {
      void disconnectedError().then((error) => emit('disconnect', error))
    }
    if (next.status === 'connected' && next.accounts.join() !== last.accounts.join())
      emit('accountsChanged', next.accounts)
    if (next.status === 'connected' && next.chainId !== last.chainId && next.chainId) {
      emit(
        'chainChanged',
        namespace === 'eip155' ? `0x${Number(next.chainId.split(':')[1]).toString(16)}` : next.chainId,
      )
    }
    last = next
  })

  const provider: Eip1193Provider = {
    async request(args) {
      const record = recordOf(config, namespace)
      const connector = config.$connectors.get().find((candidate) => candidate.id === record.connectorId)
      if (record.status !== 'connected' || !connector) throw await disconnectedError()
      return connector.getProvider(namespace).request(args)
    },
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) {
        set = new Set()
        listeners.set(event, set)
      }
      set.add(listener)
      return provider
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
      return provider
    },
  }
  const solana = namespace === 'solana' ? withSolanaMethods(config, provider) : provider
  byNamespace.set(namespace, solana)
  return solana
}

/**
 * The Solana wallet surface over whichever Solana connection is active (browser wallet today;
 * WalletConnect and the embedded wallet answer the same requests): `signMessage`,
 * `signTransaction`, `signAndSendTransaction` and `sendTransaction`, on `@solana/web3.js`
 * transactions or their bytes. Signatures come back base58, as web3.js gives them.
 */
export interface SolanaProvider extends Eip1193Provider {
  /** The connected account (base58), if any. */
  readonly address: string | undefined
  signMessage(message: Uint8Array): Promise<Uint8Array>
  signTransaction<T extends SolanaTransactionLike>(transaction: T): Promise<T>
  signAndSendTransaction(transaction: SolanaTransactionLike, options?: SolanaSendOptions): Promise<string>
  sendTransaction(
    transaction: SolanaTransactionLike,
    connection?: SolanaSendConnection,
    options?: SolanaSendOptions,
  ): Promise<string>
}

function withSolanaMethods(config: Config, provider: Eip1193Provider): SolanaProvider {
  const current = async () => {
    const record = recordOf(config, 'solana')
    const address = record.accounts[0]
    if (record.status !== 'connected' || !address || !record.chainId) throw await disconnectedError()
    return { address, chainId: record.chainId, tx: await import('../solana/transactions.ts') }
  }
  const signBytes = async (transaction: SolanaTransactionLike) => {
    const { address, chainId, tx } = await current()
    const wire = await tx.toWireBytes(config, transaction, { address, chainId })
    const answer = (await provider.request({
      method: 'solana_signTransaction',
      params: { transaction: tx.toBase64(wire) },
    })) as { transaction?: unknown }
    if (typeof answer?.transaction !== 'string') throw new Error('The wallet returned no transaction')
    return { signed: tx.fromBase64(answer.transaction), chainId, tx }
  }
  Object.defineProperty(provider, 'address', {
    enumerable: true,
    get() {
      const record = recordOf(config, 'solana')
      return record.status === 'connected' ? record.accounts[0] : undefined
    },
  })
  return Object.assign(provider as Eip1193Provider & { readonly address: string | undefined }, {
    async signMessage(message: Uint8Array) {
      const { address } = await current()
      const { encodeBase58, decodeBase58 } = await import('../../protocol/siwx/base58.ts')
      const answer = (await provider.request({
        method: 'solana_signMessage',
        params: { message: encodeBase58(message), pubkey: address },
      })) as { signature?: unknown }
      const signature = typeof answer?.signature === 'string' ? decodeBase58(answer.signature) : null
      if (!signature) throw new Error('The wallet returned no signature')
      return signature
    },
    async signTransaction<T extends SolanaTransactionLike>(transaction: T): Promise<T> {
      const { signed, tx } = await signBytes(transaction)
      return tx.fromWireBytes(transaction, signed)
    },
    async signAndSendTransaction(transaction: SolanaTransactionLike, options?: SolanaSendOptions) {
      const { address, chainId, tx } = await current()
      const wire = await tx.toWireBytes(config, transaction, { address, chainId })
      const answer = (await provider.request({
        method: 'solana_signAndSendTransaction',
        params: { transaction: tx.toBase64(wire), ...(options ? { sendOptions: options } : {}) },
      })) as { signature?: unknown }
      if (typeof answer?.signature !== 'string') throw new Error('The wallet returned no signature')
      return answer.signature
    },
    async sendTransaction(
      transaction: SolanaTransactionLike,
      connection?: SolanaSendConnection,
      options?: SolanaSendOptions,
    ) {
      const { signed, chainId, tx } = await signBytes(transaction)
      return tx.sendRaw(config, chainId, signed, connection, options)
    },
  })
}
