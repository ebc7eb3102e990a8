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
 * `installDemoWallet` (demo-wallet.ts) builds it from the page's URL parameters (`demoAccount`,
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
  SolanaTransactionVersion,
} from '@solana/wallet-standard-features'
import { type Keypair, type MessageCompiledInstruction, VersionedTransaction } from '@solana/web3.js'
import type {
  IdentifierString,
  Wallet,
  WalletAccount,
  WalletWithFeatures,
  WindowAppReadyEventAPI,
  WindowRegisterWalletEventCallback,
} from '@wallet-standard/base'
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
import type { PromptRequest } from './prompt.ts'

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
const SUPPORTED_VERSIONS: readonly SolanaTransactionVersion[] = ['legacy', 0]
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
  const emit = (properties: StandardEventsChangeProperties) => {
    for (const listener of [...listeners]) {
      try {
        listener(properties)
      } catch (error) {
        // A page's listener must not break the wallet; report it like the browser would.
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  // Authorization, per origin, like an extension's connected sites (its own key: the EVM side is separate).
  let memoryAuthorized = false
  const isAuthorized = () => (storage ? readAuthorized(storage).includes(origin) : memoryAuthorized)
  const authorize = () => {
    memoryAuthorized = true
    const sites = readAuthorized(storage)
    if (!sites.includes(origin)) writeAuthorized(storage, [...sites, origin])
  }
  const forget = () => {
    memoryAuthorized = false
    writeAuthorized(
      storage,
      readAuthorized(storage).filter((site) => site !== origin),
    )
  }
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
          authorize()
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
    forget()
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
      forget()
      emit({ accounts: [] })
    },
    reset() {
      memoryAuthorized = false
      storage?.removeItem(SOLANA_AUTHORIZED_KEY)
    },
  }

  return { wallet, controls }
}

/**
 * Registers a wallet by the Wallet Standard's window events (what `registerWallet` of
 * `@wallet-standard/wallet` does): announces it now with `wallet-standard:register-wallet`, for apps already
 * listening, and again on each `wallet-standard:app-ready`, for apps that load later. Returns a function that
 * stops listening and unregisters it from the apps that registered it.
 *
 * @example
 * registerSolanaWallet(window, createSolanaWallet({ origin: location.origin, ask }).wallet)
 */
export function registerSolanaWallet(target: EventTarget, wallet: Wallet): () => void {
  const unregisters: (() => void)[] = []
  const callback: WindowRegisterWalletEventCallback = ({ register }) => {
    unregisters.push(register(wallet))
  }
  const onAppReady = (event: Event) => {
    const api = (event as CustomEvent<WindowAppReadyEventAPI | undefined>).detail
    if (api && typeof api.register === 'function') callback(api)
  }
  target.addEventListener('wallet-standard:app-ready', onAppReady)
  try {
    target.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
  } catch (error) {
    // A page's throwing listener must not stop the wallet from loading.
    console.error('Demo Wallet: wallet-standard:register-wallet could not be dispatched', error)
  }
  return () => {
    target.removeEventListener('wallet-standard:app-ready', onAppReady)
    for (const unregister of unregisters.splice(0)) unregister()
  }
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

function readTransaction(bytes: unknown): VersionedTransaction {
  if (!(bytes instanceof Uint8Array)) throw invalidParams('The transaction must be a Uint8Array.')
  let transaction: VersionedTransaction
  try {
    // Reads legacy transactions too (no version prefix).
    transaction = VersionedTransaction.deserialize(bytes)
  } catch (error) {
    throw invalidParams(`The Demo Wallet could not read the transaction: ${String(error)}`)
  }
  if (!SUPPORTED_VERSIONS.includes(transaction.version)) {
    throw invalidParams(
      `The Demo Wallet signs legacy and version 0 transactions, not ${transaction.version}.`,
    )
  }
  return transaction
}

const SYSTEM_PROGRAM = '11111111111111111111111111111111'
const TOKEN_PROGRAMS = new Set([
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
])

/** A prompt's summary: fee payer, instruction count, and the transfers it recognises. */
function describeTransaction(transaction: VersionedTransaction, signer: string): string[] {
  const { message } = transaction
  const keys = message.staticAccountKeys.map((key) => key.toBase58())
  const instructions = message.compiledInstructions
  const lines = [
    `Fee payer ${keys[0] ?? 'none'}`,
    `${instructions.length} instruction${instructions.length === 1 ? '' : 's'}`,
  ]
  for (const instruction of instructions) {
    const line = describeInstruction(instruction, keys, signer)
    if (line) lines.push(line)
  }
  return lines
}

function describeInstruction(
  instruction: MessageCompiledInstruction,
  keys: readonly string[],
  signer: string,
): string | undefined {
  const program = keys[instruction.programIdIndex]
  // Accounts from address lookup tables are not in `keys`: those stay undescribed.
  const account = (position: number) => keys[instruction.accountKeyIndexes[position] ?? -1]
  const { data } = instruction
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const from = (owner: string | undefined) => (owner === signer ? '' : ` from ${owner}`)

  if (program === SYSTEM_PROGRAM && data.length === 12 && view.getUint32(0, true) === 2) {
    const [source, destination] = [account(0), account(1)]
    if (!source || !destination) return undefined
    return `Send ${formatUnits(view.getBigUint64(4, true), 9)} SOL${from(source)} to ${destination}`
  }
  if (program && TOKEN_PROGRAMS.has(program)) {
    if (data.length === 9 && data[0] === 3) {
      const [destination, owner] = [account(1), account(2)]
      if (!destination || !owner) return undefined
      const amount = view.getBigUint64(1, true)
      return `Send ${amount} token units${from(owner)} to token account ${destination}`
    }
    if (data.length === 10 && data[0] === 12) {
      const [mint, destination, owner] = [account(1), account(2), account(3)]
      if (!mint || !destination || !owner) return undefined
      const amount = formatUnits(view.getBigUint64(1, true), data[9] ?? 0)
      return `Send ${amount} of token ${mint}${from(owner)} to token account ${destination}`
    }
  }
  return undefined
}

function formatUnits(value: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals)
  const whole = value / base
  const fraction = (value % base).toString().padStart(decimals, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}

/** Messages are usually UTF-8 text (sign-in statements); binary ones show as hex. */
function showMessage(message: Uint8Array): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(message)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: binary payloads are shown as hex.
    if (!/[\u0000-\u0008\u000e-\u001f]/.test(text)) return text
  } catch {}
  return `0x${Array.from(message, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

// Storage (read back defensively: it is data from an earlier version or another tab)

function readAuthorized(storage: Storage | undefined): string[] {
  try {
    const raw = storage?.getItem(SOLANA_AUTHORIZED_KEY)
    const value: unknown = raw ? JSON.parse(raw) : undefined
    return Array.isArray(value) ? value.filter((site): site is string => typeof site === 'string') : []
  } catch {
    return []
  }
}

function writeAuthorized(storage: Storage | undefined, sites: readonly string[]): void {
  try {
    storage?.setItem(SOLANA_AUTHORIZED_KEY, JSON.stringify(sites))
  } catch {
    // Storage full or blocked: the wallet still works for this page load.
  }
}
