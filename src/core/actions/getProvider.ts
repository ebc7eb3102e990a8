import type { Eip1193Provider } from '../../connectors/types.ts'
import type { Bip122Provider } from '../../protocol/bip122.ts'
import type { ChainNamespace } from '../../protocol/caip.ts'
import type { Config } from '../config.ts'
import { recordOf } from '../connection/recordOf.ts'
import type {
  SolanaSendConnection,
  SolanaSendOptions,
  SolanaTransactionLike,
} from '../solana/transactions.ts'

type Listener = (...args: never[]) => void

import { disconnectedError } from '../providerErrors.ts'

export { disconnectedError }

/**
 * A standard EIP-1193 provider for a namespace that follows whichever connection is active, so a
 * page can hand it to viem or ethers once and keep it across reconnects and wallet changes.
 *
 * @example
 * const client = createWalletClient({ transport: custom(getProvider(config, 'eip155')) })
 */
export function getProvider(config: Config, namespace?: 'eip155'): Eip1193Provider
export function getProvider(config: Config, namespace: 'solana'): SolanaProvider
export function getProvider(config: Config, namespace: 'bip122'): Bip122Provider & Eip1193Provider
export function getProvider(config: Config, namespace: ChainNamespace): Eip1193Provider
export function getProvider(config: Config, namespace: ChainNamespace = 'eip155'): Eip1193Provider {
  const byNamespace = config.internal.providers
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
    const was = last.status === 'connected'
    const { chainId } = next
    if (next.status === 'connected') {
      if (!was) emit('connect', { chainId })
      if (next.accounts.join() !== last.accounts.join()) emit('accountsChanged', next.accounts)
      if (chainId && chainId !== last.chainId)
        emit(
          'chainChanged',
          namespace === 'eip155' ? `0x${Number(chainId.split(':')[1]).toString(16)}` : chainId,
        )
    } else if (next.status === 'disconnected' && was) {
      void disconnectedError().then((error) => emit('disconnect', error))
    }
    last = next
  })

  const provider: Eip1193Provider = {
    async request(args) {
      const record = recordOf(config, namespace)
      const connector = config.$connectors.get().find((candidate) => candidate.id === record.connectorId)
      if (record.status !== 'connected' || !connector) {
        // The site's wallet, announced to the page, asks the person as a browser wallet would.
        const ask = config.internal.requestAccounts
        if (ask && args.method === 'eth_requestAccounts') return ask(namespace)
        throw await disconnectedError()
      }
      const wallet = connector.getProvider(namespace)
      // EIP-5792 (wallet_sendCalls, …Calls…, getCapabilities) from a browser or WalletConnect wallet: the
      // wallet's own, else the fallback (core/evm/callsFallback.ts, loaded then; it checks the method).
      if (connector.type !== 'embedded' && /Ca(ll|p)/.test(args.method))
        return import('../evm/callsFallback.ts').then((module) => module.answerCalls(config, wallet, args))
      return wallet.request(args)
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

/** The Solana methods load on first use: an EVM-only page never pays for them. */
function withSolanaMethods(config: Config, provider: Eip1193Provider): SolanaProvider {
  const lazy =
    (name: 'signMessage' | 'signTransaction' | 'signAndSendTransaction' | 'sendTransaction') =>
    (...args: unknown[]) =>
      import('../solana/provider.ts').then((module) =>
        (module.solanaMethods(config, provider)[name] as (...a: unknown[]) => Promise<unknown>)(...args),
      )
  Object.defineProperty(provider, 'address', {
    enumerable: true,
    get() {
      const record = recordOf(config, 'solana')
      return record.status === 'connected' ? record.accounts[0] : undefined
    },
  })
  for (const name of ['signMessage', 'signTransaction', 'signAndSendTransaction', 'sendTransaction'] as const)
    Object.assign(provider, { [name]: lazy(name) })
  return provider as SolanaProvider
}
