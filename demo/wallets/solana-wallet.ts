/**
 * The Demo Wallet's Solana side: a Wallet Standard wallet (https://github.com/wallet-standard/wallet-standard)
 * named like the EIP-6963 one, so the modal lists one "Demo Wallet" for both namespaces. It holds dev key N
 * of the test mnemonic (`m/44'/501'/N'/0'`, the keys the local Solana network funds), signs locally, asks
 * the Demo Wallet's prompt before anything that needs consent, and sends transactions to the chain's RPC URL.
 *
 * Features: `standard:connect`, `standard:disconnect`, `standard:events`, `solana:signMessage`,
 * `solana:signTransaction` and `solana:signAndSendTransaction` (legacy and version 0 transactions).
 * Rejections throw `{ code: 4001, message: 'User rejected the request.' }`, as Phantom does.
 *
 * `installDemoWallet` (install-demo-wallet.ts) builds it from the page's URL parameters (`demoAccount`,
 * `demoSolana=off`) and registers it; tests build one with {@link createSolanaWallet} and register it on
 * any EventTarget with {@link registerSolanaWallet}.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import type {
  SolanaSignAndSendTransactionFeature,
  SolanaSignAndSendTransactionInput,
  SolanaSignAndSendTransactionOutput,
  SolanaSignMessageFeature,
  SolanaSignMessageInput,
  SolanaSignMessageOutput,
  SolanaSignTransactionFeature,
  SolanaSignTransactionInput,
  SolanaSignTransactionOutput,
} from '@solana/wallet-standard-features'
import type { Keypair, VersionedTransaction } from '@solana/web3.js'
import type { IdentifierString, WalletAccount, WalletWithFeatures } from '@wallet-standard/base'
import type {
  StandardConnectFeature,
  StandardConnectInput,
  StandardConnectOutput,
  StandardDisconnectFeature,
  StandardEventsChangeProperties,
  StandardEventsFeature,
  StandardEventsListeners,
} from '@wallet-standard/features'
import { devKeypair } from '../../server/dev/solana/keys.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../src/chains/solana/networks.ts'
import {
  DemoWalletRpcError,
  ErrorCodes,
  invalidParams,
  nodeRequest,
  unauthorized,
  userRejected,
} from './errors.ts'
import { DEMO_WALLET_ICON, DEMO_WALLET_NAME } from './identity.ts'
import { notifyAll } from './listeners.ts'
import type { PromptRequest } from './prompt.ts'
import { createSiteAuthorization } from './site-authorization.ts'
import {
  describeTransaction,
  readTransaction,
  SUPPORTED_VERSIONS,
  showMessage,
  toBase64,
} from './solana/transactions.ts'

export { registerSolanaWallet } from './solana/register.ts'

/** Where the Solana side keeps the origins it has connected (a JSON array). */
export const SOLANA_AUTHORIZED_KEY = 'demo-wallet/solana-authorized'

type SolanaChain = { readonly name: string; readonly rpcUrl: string }

/**
 * The networks the wallet knows, by CAIP-2 id (the genesis hash, first 32 characters), with the public RPC
 * URLs. The wallet keeps its own list, as an extension would; the local one's RPC URL is configurable.
 */
export const SOLANA_CHAINS: Readonly<Record<IdentifierString, SolanaChain>> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': {
    name: 'Solana Mainnet',
    rpcUrl: 'https://api.mainnet-beta.solana.com',
  },
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': {
    name: 'Solana Devnet',
    rpcUrl: 'https://api.devnet.solana.com',
  },
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSRhhcw': {
    name: 'Solana Testnet',
    rpcUrl: 'https://api.testnet.solana.com',
  },
  [LOCAL_SOLANA_NETWORK_ID]: { name: 'Local Solana', rpcUrl: 'http://127.0.0.1:8899' },
}

const CHAIN_IDS = Object.freeze(Object.keys(SOLANA_CHAINS) as IdentifierString[])
const ACCOUNT_FEATURES = [
  'solana:signMessage',
  'solana:signTransaction',
  'solana:signAndSendTransaction',
] as const satisfies readonly IdentifierString[]

export type DemoSolanaWalletFeatures = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature

/** The Wallet Standard wallet the Demo Wallet registers. */
export type DemoSolanaWallet = WalletWithFeatures<DemoSolanaWalletFeatures>

/**
 * Test controls of the Solana side, on `window.demoWallet.solana`.
 *
 * @example
 * await page.evaluate(() => window.demoWallet?.solana?.switchAccount(1)) // the page sees a `change` event
 */
export type SolanaWalletControls = {
  /** Base58 address of the current dev key. */
  readonly address: string
  /** Whether the page's origin is connected (authorized). */
  readonly authorized: boolean
  /** Uses dev key `index`; emits `change` with the new account when the page is connected. */
  switchAccount(index: number): void
  /** Forgets the page's authorization; emits `change` with `accounts: []`. */
  disconnect(): void
  /** Forgets every origin's authorization (localStorage), without events; `demoWallet.reset()` calls it. */
  reset(): void
  /** The registered Wallet Standard wallet. */
  readonly wallet: DemoSolanaWallet
}

export type CreateSolanaWalletParameters = {
  /** The page origin the wallet authorizes. */
  origin: string
  /** Dev key index (default 0). */
  accountIndex?: number
  /** RPC URL of the local network (default `http://127.0.0.1:8899`). */
  localRpcUrl?: string
  /** Where authorization persists; none means memory only. */
  storage?: Storage | undefined
  /** Asks the person; resolves `true` on Approve. The Demo Wallet passes its shared prompt queue's `ask`. */
  ask: (request: PromptRequest) => Promise<boolean>
  /** The `fetch` used for RPC calls (default `globalThis.fetch`). */
  fetch?: typeof fetch
}

/**
 * Builds the Solana side of the Demo Wallet without registering it anywhere.
 *
 * @example
 * const { wallet, controls } = createSolanaWallet({ origin: location.origin, ask: async () => true })
 * const { accounts } = await wallet.features['standard:connect'].connect()
 */
export function createSolanaWallet(parameters: CreateSolanaWalletParameters): {
  wallet: DemoSolanaWallet
  controls: SolanaWalletControls
} {
  const { origin, storage } = parameters
  const doFetch = parameters.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const chains: Record<IdentifierString, SolanaChain> = { ...SOLANA_CHAINS }
  if (parameters.localRpcUrl) {
    chains[LOCAL_SOLANA_NETWORK_ID] = { name: 'Local Solana', rpcUrl: parameters.localRpcUrl }
  }

  let keypair = deriveKeypair(parameters.accountIndex ?? 0)
  let account = toWalletAccount(keypair)

  const ask = async (request: PromptRequest): Promise<void> => {
    if (!(await parameters.ask(request))) throw userRejected()
  }

  // Events
  const listeners = new Set<StandardEventsListeners['change']>()
  const emit = (properties: StandardEventsChangeProperties) => notifyAll(listeners, properties)

  // Authorization, per origin, like an extension's connected sites (its own key: the EVM side is separate).
  const sites = createSiteAuthorization({ origin, storage, key: SOLANA_AUTHORIZED_KEY })
  const { isAuthorized } = sites
  const accounts = (): readonly WalletAccount[] => (isAuthorized() ? [account] : [])

  /** The page may only use the account it was given, and only while connected. */
  const requireAccount = (given: WalletAccount | undefined) => {
    if (!isAuthorized()) throw unauthorized()
    if (given?.address !== account.address) {
      throw unauthorized(`The account ${String(given?.address)} has not been authorized by the user.`)
    }
  }

  const chainOf = (chain: IdentifierString | undefined): [IdentifierString, SolanaChain] => {
    const id = chain ?? LOCAL_SOLANA_NETWORK_ID
    const known = chains[id]
    if (!known) throw invalidParams(`The Demo Wallet does not know the chain "${id}".`)
    return [id, known]
  }

  // One connect prompt at a time: a second connect while one waits shares its answer.
  let connecting: Promise<void> | undefined
  const connect = async (input?: StandardConnectInput): Promise<StandardConnectOutput> => {
    if (!isAuthorized()) {
      if (input?.silent) return { accounts: [] }
      connecting ??= ask({
        title: `Connect to ${origin}`,
        details: [`Account ${account.address}`, 'Network Solana'],
      })
        .then(() => {
          sites.authorize()
          emit({ accounts: accounts() })
        })
        .finally(() => {
          connecting = undefined
        })
      await connecting
    }
    return { accounts: accounts() }
  }

  const disconnect = async (): Promise<void> => {
    const was = isAuthorized()
    sites.forget()
    if (was) emit({ accounts: [] })
  }

  const signMessage = async (
    ...inputs: readonly SolanaSignMessageInput[]
  ): Promise<readonly SolanaSignMessageOutput[]> => {
    const outputs: SolanaSignMessageOutput[] = []
    for (const input of inputs) {
      requireAccount(input?.account)
      if (!(input.message instanceof Uint8Array))
        throw invalidParams('signMessage needs a Uint8Array message.')
      const message = Uint8Array.from(input.message)
      await ask({
        title: 'Sign message',
        details: [showMessage(message), `Account ${account.address}`, `Requested by ${origin}`],
      })
      outputs.push({
        signedMessage: message,
        signature: ed25519.sign(message, keypair.secretKey.slice(0, 32)),
        signatureType: 'ed25519',
      })
    }
    return outputs
  }

  /** Checks, asks, and signs one transaction; returns it signed, with where it belongs. */
  const sign = async (
    input: SolanaSignTransactionInput,
    action: 'sign' | 'send',
  ): Promise<{ signed: VersionedTransaction; chain: SolanaChain }> => {
    requireAccount(input?.account)
    const [, chain] = chainOf(input.chain)
    const transaction = readTransaction(input.transaction)
    const { message } = transaction
    const signers = message.staticAccountKeys
      .slice(0, message.header.numRequiredSignatures)
      .map((key) => key.toBase58())
    if (!signers.includes(account.address)) {
      throw invalidParams(`The transaction does not need a signature from ${account.address}.`)
    }
    await ask({
      title: `Sign a transaction on ${chain.name}`,
      details: [
        ...describeTransaction(transaction, account.address),
        ...(action === 'send' ? [`Then sent to ${chain.rpcUrl}`] : []),
        `Requested by ${origin}`,
      ],
    })
    transaction.sign([keypair])
    return { signed: transaction, chain }
  }

  const signTransaction = async (
    ...inputs: readonly SolanaSignTransactionInput[]
  ): Promise<readonly SolanaSignTransactionOutput[]> => {
    const outputs: SolanaSignTransactionOutput[] = []
    for (const input of inputs) {
      const { signed } = await sign(input, 'sign')
      outputs.push({ signedTransaction: signed.serialize() })
    }
    return outputs
  }

  const rpc = (url: string, method: string, params: readonly unknown[]): Promise<unknown> =>
    nodeRequest(doFetch, url, method, params)

  const signAndSendTransaction = async (
    ...inputs: readonly SolanaSignAndSendTransactionInput[]
  ): Promise<readonly SolanaSignAndSendTransactionOutput[]> => {
    const outputs: SolanaSignAndSendTransactionOutput[] = []
    for (const input of inputs) {
      const { signed, chain } = await sign(input, 'send')
      const { preflightCommitment, minContextSlot, skipPreflight, maxRetries } = input.options ?? {}
      const result = await rpc(chain.rpcUrl, 'sendTransaction', [
        toBase64(signed.serialize()),
        { encoding: 'base64', preflightCommitment, minContextSlot, skipPreflight, maxRetries },
      ])
      const signature = signed.signatures[0]
      if (typeof result !== 'string' || !signature) {
        throw new DemoWalletRpcError(ErrorCodes.internal, 'sendTransaction answered without a signature.')
      }
      outputs.push({ signature: Uint8Array.from(signature) })
    }
    return outputs
  }

  const wallet: DemoSolanaWallet = {
    version: '1.0.0',
    name: DEMO_WALLET_NAME,
    icon: DEMO_WALLET_ICON,
    chains: CHAIN_IDS,
    get accounts() {
      return accounts()
    },
    features: {
      'standard:connect': { version: '1.0.0', connect },
      'standard:disconnect': { version: '1.0.0', disconnect },
      'standard:events': {
        version: '1.0.0',
        on: (event, listener) => {
          if (event !== 'change') return () => {}
          listeners.add(listener)
          return () => {
            listeners.delete(listener)
          }
        },
      },
      'solana:signMessage': { version: '1.1.0', signMessage },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: SUPPORTED_VERSIONS,
        signTransaction,
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: SUPPORTED_VERSIONS,
        signAndSendTransaction,
      },
    },
  }

  const controls: SolanaWalletControls = {
    wallet,
    get address() {
      return account.address
    },
    get authorized() {
      return isAuthorized()
    },
    switchAccount(index) {
      keypair = deriveKeypair(index)
      account = toWalletAccount(keypair)
      if (isAuthorized()) emit({ accounts: [account] })
    },
    disconnect() {
      sites.forget()
      emit({ accounts: [] })
    },
    reset() {
      sites.reset()
    },
  }

  return { wallet, controls }
}

// Helpers

function deriveKeypair(index: number): Keypair {
  if (!Number.isInteger(index) || index < 0) throw new TypeError(`Bad account index ${index}`)
  return devKeypair(index)
}

function toWalletAccount(keypair: Keypair): WalletAccount {
  return Object.freeze({
    address: keypair.publicKey.toBase58(),
    publicKey: keypair.publicKey.toBytes(),
    chains: CHAIN_IDS,
    features: ACCOUNT_FEATURES,
  })
}
