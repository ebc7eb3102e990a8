/**
 * The Demo Wallet: a browser-wallet stand-in that behaves like an extension, for the demo page and the
 * end-to-end tests. Load it with
 *
 *   <script type="module" src="/wallets/install.ts"></script>
 *
 * and it announces itself by EIP-6963 (or sets `window.ethereum` with `?demoWallet=legacy`, or does
 * nothing with `?demoWallet=off`). It holds a dev account of the test mnemonic, signs locally, shows
 * an Approve/Reject prompt for what needs consent, and forwards reads to the current chain's RPC URL.
 * It also registers as a Wallet Standard wallet for Solana with the same name (see solana-wallet.ts),
 * holding the dev Solana key of the same index; both sides share one prompt queue.
 *
 * Page URL parameters (read once at load):
 * - `demoWallet=eip6963 | legacy | off` (default eip6963); `off` turns off the Solana side too,
 *   `legacy` keeps it registered
 * - `demoAccount=N`: index of the dev account, EVM and Solana (default 0)
 * - `demoChain=N`: chain id to start on, decimal or 0x-hex (default 31337); a chain the wallet knows
 *   only by id (e.g. 1) answers `eth_chainId` but fails reads, to test unsupported networks
 * - `demoBehavior=normal | throw | hang | garbage` (EVM side only)
 * - `demoAutoApprove=1`: approve every prompt without showing it
 * - `demoSolana=off`: skip the Solana registration (an EVM-only wallet)
 *
 * Test controls are on `window.demoWallet` ({@link DemoWalletControls}), the Solana side's on
 * `window.demoWallet.solana`. Authorization and added chains persist in localStorage under
 * `demo-wallet/` keys, so a reload reconnects without a prompt.
 *
 * `install.ts` installs it on `window`; importing this module does nothing by itself, so tests can
 * build one with {@link createDemoWallet} without touching globals.
 */
import { type Address, formatEther, type Hex, isAddress, isHex, toHex } from 'viem'
import { type HDAccount, mnemonicToAccount } from 'viem/accounts'
import {
  DemoWalletRpcError,
  ErrorCodes,
  invalidParams,
  nodeRequest,
  unauthorized,
  userRejected,
} from './errors.ts'
import { DEMO_WALLET_ICON, DEMO_WALLET_NAME, DEMO_WALLET_RDNS } from './identity.ts'
import { createPromptQueue, type PromptQueue, type PromptRequest } from './prompt.ts'
import { createSolanaWallet, registerSolanaWallet, type SolanaWalletControls } from './solana-wallet.ts'
import { signAndSend } from './transactions.ts'

export { DemoWalletRpcError, ErrorCodes } from './errors.ts'
export { DEMO_WALLET_ICON, DEMO_WALLET_NAME, DEMO_WALLET_RDNS } from './identity.ts'

/** The publicly known test mnemonic; the same keys the local chain funds. */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk'

const STORAGE_PREFIX = 'demo-wallet/'
const DEFAULT_CHAIN_ID = 31337

/** How the wallet answers every request; for testing how the page copes with bad wallets. */
export type DemoWalletBehavior = 'normal' | 'throw' | 'hang' | 'garbage'
export type DemoWalletMode = 'eip6963' | 'legacy' | 'off'

export type RequestArguments = { readonly method: string; readonly params?: readonly unknown[] | object }
export type ProviderEvent = 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect' | 'message'
// biome-ignore lint/suspicious/noExplicitAny: EIP-1193 listeners take event-specific arguments.
export type ProviderListener = (...args: any[]) => void

/** The EIP-1193 provider the wallet hands to pages. */
export type DemoWalletProvider = {
  readonly isDemoWallet: true
  request(args: RequestArguments): Promise<unknown>
  on(event: ProviderEvent | (string & {}), listener: ProviderListener): DemoWalletProvider
  removeListener(event: ProviderEvent | (string & {}), listener: ProviderListener): DemoWalletProvider
  /** Same as removeListener. */
  off(event: ProviderEvent | (string & {}), listener: ProviderListener): DemoWalletProvider
}

/** EIP-6963 provider info. */
export type DemoWalletInfo = Readonly<{ uuid: string; name: string; icon: string; rdns: string }>

/**
 * Test controls, on `window.demoWallet`.
 *
 * @example
 * await page.evaluate(() => window.demoWallet?.autoApprove(true))
 * await page.evaluate(() => window.demoWallet?.switchChain(1)) // page sees chainChanged '0x1'
 */
export type DemoWalletControls = {
  readonly provider: DemoWalletProvider
  readonly info: DemoWalletInfo
  /** Address of the current dev account. */
  readonly address: Address
  /** Current chain id (decimal). */
  readonly chainId: number
  readonly behavior: DemoWalletBehavior
  /** Whether the page's origin is connected (authorized). */
  readonly authorized: boolean
  /**
   * - `normal`: a working wallet
   * - `throw`: every request rejects with `{ code: -32603, message: 'Demo Wallet internal error' }`
   * - `hang`: requests never settle
   * - `garbage`: requests resolve with malformed values (`{ foo: 1 }` for accounts, `'not-a-chain'`
   *   for `eth_chainId` and `net_version`, `{ foo: 1 }` for everything else)
   */
  setBehavior(behavior: DemoWalletBehavior): void
  /** While on, prompts are approved at once (queued ones too) and never shown. */
  autoApprove(on: boolean): void
  /** Uses dev account `index`; emits `accountsChanged` when the page is connected. */
  switchAccount(index: number): void
  /** Switches from the wallet side, to any chain id (even one without RPC); always emits `chainChanged`. */
  switchChain(chainId: number): void
  /** Forgets the page's authorization; emits `disconnect` (code 4900) and `accountsChanged` with `[]`. */
  disconnect(): void
  /** Prompts not yet answered, the one shown included. */
  pending(): number
  /** Clicks Approve on the prompt shown; `false` when there is none. */
  approve(): boolean
  /** Clicks Reject on the prompt shown; `false` when there is none. */
  reject(): boolean
  /** Forgets authorization and added chains (localStorage), the Solana side's too, like reinstalling the extension. */
  reset(): void
  /** The Solana side (a Wallet Standard wallet); absent with `?demoSolana=off` or when built without it. */
  readonly solana?: SolanaWalletControls
}

declare global {
  interface Window {
    /** The Demo Wallet's test controls (demo pages only). */
    demoWallet?: DemoWalletControls
  }
}

const unsupported = (method: string) =>
  new DemoWalletRpcError(
    ErrorCodes.unsupportedMethod,
    `The Demo Wallet does not support the method "${method}".`,
  )

type KnownChain = { name: string; rpcUrl: string }

export type CreateDemoWalletParameters = {
  /** The page origin the wallet authorizes (default `location.origin`). */
  origin: string
  accountIndex?: number
  chainId?: number
  behavior?: DemoWalletBehavior
  autoApprove?: boolean
  /** RPC URL of chain 31337. */
  localRpcUrl?: string
  /** Where authorization and added chains persist; none means memory only. */
  storage?: Storage | undefined
  /** Where prompts render; none means prompts cannot show (use autoApprove). */
  document?: Document | undefined
  /** A prompt queue to share (with the Solana side); when given, `document` is not used. */
  prompts?: PromptQueue | undefined
  /** The Solana side's controls, exposed as `controls.solana` and reset with the rest. */
  solana?: SolanaWalletControls | undefined
}

/**
 * Builds a Demo Wallet (provider + controls) without installing it anywhere.
 *
 * @example
 * const { provider, controls } = createDemoWallet({ origin: location.origin, document, storage: localStorage })
 * controls.autoApprove(true)
 * await provider.request({ method: 'eth_requestAccounts' })
 */
export function createDemoWallet(parameters: CreateDemoWalletParameters): {
  provider: DemoWalletProvider
  controls: DemoWalletControls
} {
  const { origin, storage } = parameters
  const info: DemoWalletInfo = Object.freeze({
    uuid: randomUuid(),
    name: DEMO_WALLET_NAME,
    icon: DEMO_WALLET_ICON,
    rdns: DEMO_WALLET_RDNS,
  })

  let account: HDAccount = deriveAccount(parameters.accountIndex ?? 0)
  let chainId = parameters.chainId ?? DEFAULT_CHAIN_ID
  let behavior: DemoWalletBehavior = parameters.behavior ?? 'normal'

  const chains = new Map<number, KnownChain>([
    [DEFAULT_CHAIN_ID, { name: 'Local chain', rpcUrl: parameters.localRpcUrl ?? 'http://127.0.0.1:8545' }],
  ])
  for (const [id, chain] of readAddedChains(storage)) chains.set(id, chain)

  const prompts: PromptQueue | undefined =
    parameters.prompts ??
    (parameters.document
      ? createPromptQueue({ document: parameters.document, name: DEMO_WALLET_NAME, icon: DEMO_WALLET_ICON })
      : undefined)
  let autoApproveWithoutDocument = false
  const ask = async (request: PromptRequest): Promise<void> => {
    const approved = prompts ? await prompts.ask(request) : autoApproveWithoutDocument
    if (!approved) throw userRejected()
  }
  if (parameters.autoApprove) {
    prompts?.setAutoApprove(true)
    autoApproveWithoutDocument = true
  }

  // Events
  const listeners = new Map<string, Set<ProviderListener>>()
  const emit = (event: ProviderEvent, ...args: unknown[]) => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(...args)
      } catch (error) {
        // A page's listener must not break the wallet; report it like the browser would.
        queueMicrotask(() => {
          throw error
        })
      }
    }
  }

  // Authorization, per origin, like an extension's connected sites.
  // Without storage (blocked, or none given) authorization lasts for the page load only.
  let memoryAuthorized = false
  const isAuthorized = () => (storage ? readAuthorized(storage).includes(origin) : memoryAuthorized)
  const authorize = () => {
    memoryAuthorized = true
    const sites = readAuthorized(storage)
    if (!sites.includes(origin)) writeJson(storage, 'authorized', [...sites, origin])
  }
  const forget = () => {
    memoryAuthorized = false
    writeJson(
      storage,
      'authorized',
      readAuthorized(storage).filter((site) => site !== origin),
    )
  }
  const accounts = (): Address[] => (isAuthorized() ? [account.address] : [])
  const requireAuthorized = (address?: unknown) => {
    if (!isAuthorized()) throw unauthorized()
    if (
      address !== undefined &&
      (typeof address !== 'string' || address.toLowerCase() !== account.address.toLowerCase())
    ) {
      throw unauthorized(`The account ${String(address)} has not been authorized by the user.`)
    }
  }
  const permissions = () =>
    isAuthorized()
      ? [
          {
            parentCapability: 'eth_accounts',
            invoker: origin,
            caveats: [{ type: 'restrictReturnedAccounts', value: [account.address] }],
          },
        ]
      : []

  const connectPrompt = (): PromptRequest => ({
    title: `Connect to ${origin}`,
    details: [`Account ${account.address}`, `Network eip155:${chainId}`],
  })

  const setChain = (id: number) => {
    chainId = id
    emit('chainChanged', toHex(id))
  }

  const rpcUrl = (): string => {
    const url = chains.get(chainId)?.rpcUrl
    if (!url) {
      throw new DemoWalletRpcError(ErrorCodes.internal, `Demo Wallet has no RPC URL for chain ${chainId}.`, {
        chainId: toHex(chainId),
      })
    }
    return url
  }

  const forward = async (method: string, params: unknown): Promise<unknown> =>
    (await nodeRequest(fetch, rpcUrl(), method, params ?? [])) ?? null

  const sendTransaction = async (tx: Record<string, unknown>): Promise<Hex> => {
    requireAuthorized(tx.from ?? account.address)
    const to = tx.to === undefined || tx.to === null ? undefined : tx.to
    if (to !== undefined && (typeof to !== 'string' || !isAddress(to)))
      throw invalidParams('Invalid "to" address.')
    const data = tx.data ?? tx.input
    if (data !== undefined && (typeof data !== 'string' || !isHex(data)))
      throw invalidParams('Invalid "data".')
    const value = quantity(tx.value, 'value') ?? 0n
    const gas = quantity(tx.gas, 'gas')
    const gasPrice = quantity(tx.gasPrice, 'gasPrice')
    const maxFeePerGas = quantity(tx.maxFeePerGas, 'maxFeePerGas')
    const maxPriorityFeePerGas = quantity(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas')
    const nonce = quantity(tx.nonce, 'nonce')
    const txChainId = quantity(tx.chainId, 'chainId')
    if (txChainId !== undefined && txChainId !== BigInt(chainId)) {
      throw invalidParams(`The transaction is for chain ${txChainId}, but the wallet is on chain ${chainId}.`)
    }
    const url = rpcUrl()

    await ask({
      title: to
        ? `Send ${formatEther(value)} ETH to ${to}`
        : `Deploy a contract with ${formatEther(value)} ETH`,
      details: [
        `From ${account.address}`,
        `Network eip155:${chainId}`,
        ...(data && data !== '0x' ? [`Data ${shorten(data)} (${(data.length - 2) / 2} bytes)`] : []),
      ],
    })

    try {
      return await signAndSend(account, url, chainId, {
        to: to ?? undefined,
        data: data ?? undefined,
        value,
        gas,
        nonce,
        gasPrice,
        maxFeePerGas,
        maxPriorityFeePerGas,
      })
    } catch (error) {
      throw toRpcError(error)
    }
  }

  /** EIP-5792 batches this wallet sent, by id (kept while the page lives, like an extension's memory). */
  const batches = new Map<string, { chainId: number; rpcUrl: string; hashes: Hex[] }>()

  const sendCalls = async (request: unknown): Promise<{ id: string }> => {
    if (!request || typeof request !== 'object')
      throw invalidParams('wallet_sendCalls needs a request object.')
    const { from, chainId: wanted, atomicRequired, calls } = request as Record<string, unknown>
    requireAuthorized(from ?? account.address)
    if (
      wanted !== undefined &&
      (typeof wanted !== 'string' || !isHex(wanted) || Number(wanted) !== chainId)
    ) {
      throw new DemoWalletRpcError(
        ErrorCodes.unsupportedChainId,
        `The calls are for chain ${String(wanted)}, but the wallet is on chain ${chainId}.`,
      )
    }
    if (atomicRequired === true) {
      throw new DemoWalletRpcError(
        ErrorCodes.atomicityNotSupported,
        'The Demo Wallet sends calls one after another, not atomically.',
      )
    }
    if (!Array.isArray(calls) || calls.length === 0 || calls.length > 10)
      throw invalidParams('wallet_sendCalls needs 1 to 10 calls.')
    const checked = calls.map((call: unknown) => {
      const { to, value, data } = (call ?? {}) as Record<string, unknown>
      if (typeof to !== 'string' || !isAddress(to)) throw invalidParams('Invalid "to" address.')
      if (data !== undefined && (typeof data !== 'string' || !isHex(data)))
        throw invalidParams('Invalid "data".')
      return { to, value: quantity(value, 'value') ?? 0n, data: data as Hex | undefined }
    })
    const url = rpcUrl()
    await ask({
      title: `Send ${checked.length} calls, one after another`,
      details: [
        `From ${account.address}`,
        `Network eip155:${chainId}`,
        ...checked.map(
          (call, index) =>
            `${index + 1}. ${formatEther(call.value)} ETH to ${call.to}${call.data && call.data !== '0x' ? `, data ${shorten(call.data)}` : ''}`,
        ),
      ],
    })
    const hashes: Hex[] = []
    try {
      for (const call of checked) {
        hashes.push(
          await signAndSend(account, url, chainId, {
            to: call.to,
            data: call.data,
            value: call.value,
            gas: undefined,
            nonce: undefined,
            gasPrice: undefined,
            maxFeePerGas: undefined,
            maxPriorityFeePerGas: undefined,
          }),
        )
      }
    } catch (error) {
      throw toRpcError(error)
    }
    const id = toHex(crypto.getRandomValues(new Uint8Array(32)))
    batches.set(id, { chainId, rpcUrl: url, hashes })
    return { id }
  }

  const callsStatus = async (id: string, batch: { chainId: number; rpcUrl: string; hashes: Hex[] }) => {
    const receipts = (await Promise.all(
      batch.hashes.map((hash) => nodeRequest(fetch, batch.rpcUrl, 'eth_getTransactionReceipt', [hash])),
    )) as ({ status?: string } | null)[]
    const done = receipts.filter((receipt) => receipt !== null)
    const status =
      done.length < receipts.length
        ? 100
        : done.every((receipt) => receipt.status === '0x1')
          ? 200
          : done.every((receipt) => receipt.status === '0x0')
            ? 500
            : 600
    return { version: '2.0.0', id, chainId: toHex(batch.chainId), atomic: false, status, receipts: done }
  }

  // One connect prompt at a time: a second eth_requestAccounts while one waits shares its answer.
  let connecting: Promise<void> | undefined
  const connect = async (): Promise<void> => {
    if (isAuthorized()) return
    connecting ??= ask(connectPrompt())
      .then(() => {
        authorize()
        emit('accountsChanged', accounts())
      })
      .finally(() => {
        connecting = undefined
      })
    await connecting
  }

  const handle = async (method: string, params: unknown): Promise<unknown> => {
    const list = Array.isArray(params) ? (params as unknown[]) : []
    switch (method) {
      case 'eth_requestAccounts': {
        await connect()
        return accounts()
      }
      case 'eth_accounts':
        return accounts()
      case 'eth_chainId':
        return toHex(chainId)
      case 'net_version':
        return String(chainId)

      case 'wallet_switchEthereumChain': {
        const id = parseChainId((list[0] as { chainId?: unknown } | undefined)?.chainId)
        if (!chains.has(id)) {
          throw new DemoWalletRpcError(
            ErrorCodes.unrecognizedChain,
            `Unrecognized chain ID "${toHex(id)}". Try adding the chain using wallet_addEthereumChain first.`,
          )
        }
        if (id !== chainId) setChain(id)
        return null
      }
      case 'wallet_addEthereumChain': {
        const request = (list[0] ?? {}) as { chainId?: unknown; chainName?: unknown; rpcUrls?: unknown }
        const id = parseChainId(request.chainId)
        const rpcUrl = Array.isArray(request.rpcUrls) ? request.rpcUrls[0] : undefined
        if (typeof rpcUrl !== 'string' || !/^https?:\/\//.test(rpcUrl)) {
          throw invalidParams('wallet_addEthereumChain needs rpcUrls[0], an http(s) URL.')
        }
        const name =
          typeof request.chainName === 'string' && request.chainName ? request.chainName : `Chain ${id}`
        await ask({
          title: `Add network ${name} (eip155:${id})`,
          details: [`RPC ${rpcUrl}`, `Requested by ${origin}`],
        })
        chains.set(id, { name, rpcUrl })
        writeAddedChains(storage, chains)
        if (id !== chainId) setChain(id)
        return null
      }

      case 'wallet_requestPermissions': {
        const wanted = list[0]
        if (!wanted || typeof wanted !== 'object' || !('eth_accounts' in wanted)) {
          throw invalidParams('The Demo Wallet only grants the "eth_accounts" permission.')
        }
        await connect()
        return permissions()
      }
      case 'wallet_getPermissions':
        return permissions()
      case 'wallet_revokePermissions': {
        forget()
        emit('accountsChanged', [])
        return null
      }

      case 'personal_sign': {
        const [message, address] = list
        requireAuthorized(address ?? account.address)
        if (typeof message !== 'string') throw invalidParams('personal_sign needs a message.')
        await ask({ title: 'Sign message', details: [decodeMessage(message), `Requested by ${origin}`] })
        return account.signMessage({ message: isHex(message) ? { raw: message } : message })
      }
      case 'eth_signTypedData_v4': {
        const [address, raw] = list
        requireAuthorized(address)
        const typedData = parseTypedData(raw)
        await ask({
          title: `Sign typed data (${typedData.primaryType})`,
          details: [
            `Domain ${JSON.stringify(typedData.domain ?? {})}`,
            JSON.stringify(typedData.message, null, 2),
            `Requested by ${origin}`,
          ],
        })
        try {
          return await account.signTypedData(typedData as Parameters<HDAccount['signTypedData']>[0])
        } catch (error) {
          throw toRpcError(error, ErrorCodes.invalidParams)
        }
      }
      case 'eth_sendTransaction': {
        const tx = list[0]
        if (!tx || typeof tx !== 'object')
          throw invalidParams('eth_sendTransaction needs a transaction object.')
        return sendTransaction(tx as Record<string, unknown>)
      }

      // EIP-5792, without atomicity: the calls go one after another, each its own transaction.
      case 'wallet_getCapabilities': {
        requireAuthorized(list[0])
        const wanted = Array.isArray(list[1])
          ? (list[1] as unknown[])
          : [...chains.keys()].map((id) => toHex(id))
        return Object.fromEntries(wanted.map((id) => [String(id), { atomic: { status: 'unsupported' } }]))
      }
      case 'wallet_sendCalls':
        return sendCalls(list[0])
      case 'wallet_getCallsStatus': {
        const id = list[0]
        const batch = typeof id === 'string' ? batches.get(id) : undefined
        if (typeof id !== 'string' || !batch)
          throw new DemoWalletRpcError(ErrorCodes.unknownBundleId, 'Unknown bundle id.')
        return callsStatus(id, batch)
      }

      // Key-handling methods a wallet must not expose, or does not implement here.
      case 'eth_sign':
      case 'eth_signTransaction':
      case 'eth_signTypedData':
      case 'eth_signTypedData_v1':
      case 'eth_signTypedData_v3':
      case 'eth_decrypt':
      case 'eth_getEncryptionPublicKey':
      case 'eth_subscribe':
      case 'eth_unsubscribe':
        throw unsupported(method)
      default:
        if (method.startsWith('wallet_')) throw unsupported(method)
        return forward(method, params)
    }
  }

  const garbage = (method: string): unknown => {
    if (method === 'eth_chainId' || method === 'net_version') return 'not-a-chain'
    return { foo: 1 }
  }

  const provider: DemoWalletProvider = {
    isDemoWallet: true,
    // Arrow functions: pages and libraries often call `request` detached from the provider.
    request: async (args: RequestArguments) => {
      if (!args || typeof args !== 'object' || typeof args.method !== 'string') {
        throw new DemoWalletRpcError(ErrorCodes.invalidRequest, 'Expected a request object with a "method".')
      }
      switch (behavior) {
        case 'throw':
          throw new DemoWalletRpcError(ErrorCodes.internal, 'Demo Wallet internal error')
        case 'hang':
          return new Promise<never>(() => {})
        case 'garbage':
          return garbage(args.method)
        default:
          return handle(args.method, args.params)
      }
    },
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set.add(listener))
      return provider
    },
    removeListener: (event, listener) => {
      listeners.get(event)?.delete(listener)
      return provider
    },
    off: (event, listener) => provider.removeListener(event, listener),
  }

  const controls: DemoWalletControls = {
    provider,
    info,
    get address() {
      return account.address
    },
    get chainId() {
      return chainId
    },
    get behavior() {
      return behavior
    },
    get authorized() {
      return isAuthorized()
    },
    setBehavior(next) {
      if (!['normal', 'throw', 'hang', 'garbage'].includes(next))
        throw new TypeError(`Unknown behavior "${next}"`)
      behavior = next
    },
    autoApprove(on) {
      autoApproveWithoutDocument = on
      prompts?.setAutoApprove(on)
    },
    switchAccount(index) {
      account = deriveAccount(index)
      if (isAuthorized()) emit('accountsChanged', [account.address])
    },
    switchChain(id) {
      if (!Number.isSafeInteger(id) || id <= 0) throw new TypeError(`Bad chain id ${id}`)
      setChain(id)
    },
    disconnect() {
      forget()
      emit('disconnect', new DemoWalletRpcError(ErrorCodes.disconnected, 'Demo Wallet disconnected.'))
      emit('accountsChanged', [])
    },
    pending: () => prompts?.pending() ?? 0,
    approve: () => prompts?.answer(true) ?? false,
    reject: () => prompts?.answer(false) ?? false,
    reset() {
      memoryAuthorized = false
      for (const key of ['authorized', 'chains']) storage?.removeItem(STORAGE_PREFIX + key)
      for (const id of [...chains.keys()]) if (id !== DEFAULT_CHAIN_ID) chains.delete(id)
      parameters.solana?.reset()
    },
    ...(parameters.solana ? { solana: parameters.solana } : {}),
  }

  return { provider, controls }
}

/**
 * Installs the Demo Wallet on a window from its URL parameters (see the module comment): the EVM side
 * (EIP-6963 or `window.ethereum`) and the Solana side (Wallet Standard), sharing one prompt queue.
 * Returns the controls, or `undefined` with `?demoWallet=off`.
 *
 * @example
 * installDemoWallet(window)
 */
export function installDemoWallet(win: Window): DemoWalletControls | undefined {
  const search = new URLSearchParams(win.location.search)
  const mode = search.get('demoWallet') ?? 'eip6963'
  if (mode === 'off') return undefined
  if (mode !== 'eip6963' && mode !== 'legacy') {
    console.warn(`Demo Wallet: unknown demoWallet=${mode}; using eip6963`)
  }
  const behavior = search.get('demoBehavior') ?? 'normal'
  const env: Partial<Record<string, unknown>> | undefined = import.meta.env
  const localRpcUrl = env?.VITE_LOCAL_RPC_URL
  const localSolanaRpcUrl = env?.VITE_LOCAL_SOLANA_RPC_URL
  const origin = win.location.origin
  const accountIndex = intParam(search.get('demoAccount'), 0)
  const storage = safeLocalStorage(win)

  // One queue for both sides, so one prompt shows at a time and demoWallet.approve() answers either.
  const prompts = createPromptQueue({
    document: win.document,
    name: DEMO_WALLET_NAME,
    icon: DEMO_WALLET_ICON,
  })
  const solana =
    search.get('demoSolana') === 'off'
      ? undefined
      : createSolanaWallet({
          origin,
          accountIndex,
          storage,
          ask: (request) => prompts.ask(request),
          ...(typeof localSolanaRpcUrl === 'string' && localSolanaRpcUrl
            ? { localRpcUrl: localSolanaRpcUrl }
            : {}),
        })

  const { provider, controls } = createDemoWallet({
    origin,
    accountIndex,
    chainId: intParam(search.get('demoChain'), DEFAULT_CHAIN_ID),
    behavior: isBehavior(behavior) ? behavior : 'normal',
    autoApprove: ['1', 'true'].includes(search.get('demoAutoApprove') ?? ''),
    ...(typeof localRpcUrl === 'string' && localRpcUrl ? { localRpcUrl } : {}),
    storage,
    prompts,
    solana: solana?.controls,
  })
  win.demoWallet = controls
  if (solana) registerSolanaWallet(win, solana.wallet)

  if (mode === 'legacy') {
    // Not declared on Window here, so this file never fights the connectors' own declaration.
    Object.defineProperty(win, 'ethereum', { value: provider, configurable: true, writable: true })
    return controls
  }

  const detail = Object.freeze({ info: controls.info, provider })
  const announce = () => win.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  win.addEventListener('eip6963:requestProvider', announce)
  announce()
  return controls
}

// Helpers

function deriveAccount(index: number): HDAccount {
  if (!Number.isInteger(index) || index < 0) throw new TypeError(`Bad account index ${index}`)
  return mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index })
}

function isBehavior(value: string): value is DemoWalletBehavior {
  return value === 'normal' || value === 'throw' || value === 'hang' || value === 'garbage'
}

function intParam(raw: string | null, fallback: number): number {
  if (raw === null || raw === '') return fallback
  const value = Number(raw)
  return Number.isSafeInteger(value) && value >= 0 ? value : fallback
}

function parseChainId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]+$/.test(raw)) {
    throw invalidParams(`Expected chainId as a 0x-prefixed hex string, got ${JSON.stringify(raw)}.`)
  }
  const id = Number.parseInt(raw, 16)
  if (!Number.isSafeInteger(id) || id <= 0) throw invalidParams(`Invalid chainId ${raw}.`)
  return id
}

function quantity(raw: unknown, field: string): bigint | undefined {
  if (raw === undefined || raw === null) return undefined
  try {
    if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'bigint') return BigInt(raw)
  } catch {}
  throw invalidParams(`Invalid "${field}": ${JSON.stringify(raw)}.`)
}

function shorten(hex: string): string {
  return hex.length > 42 ? `${hex.slice(0, 22)}…${hex.slice(-8)}` : hex
}

/** personal_sign messages usually arrive hex-encoded UTF-8; show the text when it is text. */
function decodeMessage(message: string): string {
  if (!isHex(message)) return message
  try {
    const bytes = Uint8Array.from(message.slice(2).match(/../g) ?? [], (byte) => Number.parseInt(byte, 16))
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: binary payloads are shown as hex.
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? message : text
  } catch {
    return message
  }
}

type TypedDataInput = {
  domain?: Record<string, unknown>
  types: object
  primaryType: string
  message: object
}

function parseTypedData(raw: unknown): TypedDataInput {
  let value: unknown = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      throw invalidParams('eth_signTypedData_v4 needs typed data as JSON.')
    }
  }
  const data = value as Partial<TypedDataInput> | null
  if (
    !data ||
    typeof data !== 'object' ||
    typeof data.primaryType !== 'string' ||
    !data.types ||
    typeof data.types !== 'object' ||
    !data.message ||
    typeof data.message !== 'object'
  ) {
    throw invalidParams('eth_signTypedData_v4 needs { types, primaryType, domain, message }.')
  }
  return data as TypedDataInput
}

/** Keeps the JSON-RPC code of a chain error (viem wraps it), else an internal error. */
function toRpcError(error: unknown, fallbackCode: number = ErrorCodes.internal): DemoWalletRpcError {
  if (error instanceof DemoWalletRpcError) return error
  let cursor: unknown = error
  let message = error instanceof Error ? error.message.split('\n')[0] : String(error)
  for (let depth = 0; cursor && typeof cursor === 'object' && depth < 10; depth++) {
    const { code, shortMessage, details } = cursor as {
      code?: unknown
      shortMessage?: unknown
      details?: unknown
    }
    if (typeof code === 'number' && code !== 0) {
      const text =
        typeof details === 'string' && details
          ? details
          : typeof shortMessage === 'string'
            ? shortMessage
            : message
      return new DemoWalletRpcError(code, text ?? 'Internal JSON-RPC error.')
    }
    if (typeof shortMessage === 'string') message = shortMessage
    cursor = (cursor as { cause?: unknown }).cause
  }
  return new DemoWalletRpcError(fallbackCode, message ?? 'Internal JSON-RPC error.')
}

function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  // Pages on plain http origins other than loopback have no randomUUID; build a v4 UUID by hand.
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

// Storage (read back defensively: it is data from an earlier version or another tab)

function safeLocalStorage(win: Window): Storage | undefined {
  try {
    return win.localStorage
  } catch {
    return undefined
  }
}

function readJson(storage: Storage | undefined, key: string): unknown {
  try {
    const raw = storage?.getItem(STORAGE_PREFIX + key)
    return raw ? JSON.parse(raw) : undefined
  } catch {
    return undefined
  }
}

function writeJson(storage: Storage | undefined, key: string, value: unknown): void {
  try {
    storage?.setItem(STORAGE_PREFIX + key, JSON.stringify(value))
  } catch {
    // Storage full or blocked: the wallet still works for this page load.
  }
}

function readAuthorized(storage: Storage | undefined): string[] {
  const value = readJson(storage, 'authorized')
  return Array.isArray(value) ? value.filter((site): site is string => typeof site === 'string') : []
}

function readAddedChains(storage: Storage | undefined): [number, KnownChain][] {
  const value = readJson(storage, 'chains')
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([id, chain]): [number, KnownChain][] => {
    const { name, rpcUrl } = (chain ?? {}) as Partial<KnownChain>
    const chainId = Number(id)
    return Number.isSafeInteger(chainId) && typeof name === 'string' && typeof rpcUrl === 'string'
      ? [[chainId, { name, rpcUrl }]]
      : []
  })
}

function writeAddedChains(storage: Storage | undefined, chains: Map<number, KnownChain>): void {
  const added = Object.fromEntries([...chains].filter(([id]) => id !== DEFAULT_CHAIN_ID))
  writeJson(storage, 'chains', added)
}
