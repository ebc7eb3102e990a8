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
 * Page URL parameters choose how it installs (see install-demo-wallet.ts).
 *
 * Test controls are on `window.demoWallet` ({@link DemoWalletControls}), the Solana side's on
 * `window.demoWallet.solana`. Authorization and added chains persist in localStorage under
 * `demo-wallet/` keys, so a reload reconnects without a prompt.
 *
 * `install.ts` installs it on `window` (install-demo-wallet.ts); importing this module does nothing by
 * itself, so tests can build one with {@link createDemoWallet} without touching globals.
 */
import { type Address, isHex, toHex } from 'viem'
import type { HDAccount } from 'viem/accounts'
import { devAccount } from './dev-account.ts'
import {
  DemoWalletRpcError,
  ErrorCodes,
  invalidParams,
  nodeRequest,
  unauthorized,
  userRejected,
} from './errors.ts'
import {
  DEFAULT_CHAIN_ID,
  type KnownChain,
  readAddedChains,
  resetAddedChains,
  writeAddedChains,
} from './evm/chains.ts'
import { decodeMessage, parseChainId, parseTypedData, toRpcError } from './evm/params.ts'
import { createSender } from './evm/sender.ts'
import { DEMO_WALLET_ICON, DEMO_WALLET_NAME, DEMO_WALLET_RDNS, randomUuid } from './identity.ts'
import { notifyAll } from './listeners.ts'
import { createPromptQueue, type PromptQueue, type PromptRequest } from './prompt.ts'
import { createSiteAuthorization } from './site-authorization.ts'

export { DemoWalletRpcError, ErrorCodes } from './errors.ts'

import type {
  CreateDemoWalletParameters,
  DemoWalletBehavior,
  DemoWalletControls,
  DemoWalletInfo,
  DemoWalletProvider,
  ProviderEvent,
  ProviderListener,
  RequestArguments,
} from './evm/types.ts'

export type * from './evm/types.ts'
export { DEMO_WALLET_ICON, DEMO_WALLET_NAME, DEMO_WALLET_RDNS } from './identity.ts'

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

  let account: HDAccount = devAccount(parameters.accountIndex ?? 0)
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
  const emit = (event: ProviderEvent, ...args: unknown[]) => notifyAll(listeners.get(event) ?? [], ...args)

  // Authorization, per origin, like an extension's connected sites.
  const sites = createSiteAuthorization({ origin, storage, key: 'demo-wallet/authorized' })
  const { isAuthorized } = sites
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

  const sender = createSender({
    account: () => account,
    chainId: () => chainId,
    rpcUrl,
    ask,
    requireAuthorized,
  })

  // One connect prompt at a time: a second eth_requestAccounts while one waits shares its answer.
  let connecting: Promise<void> | undefined
  const connect = async (): Promise<void> => {
    if (isAuthorized()) return
    connecting ??= ask(connectPrompt())
      .then(() => {
        sites.authorize()
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
        // The networks added are the browser's, as an extension's are: another tab may have added it.
        if (!chains.has(id)) for (const [added, chain] of readAddedChains(storage)) chains.set(added, chain)
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
        sites.forget()
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
        return sender.sendTransaction(tx as Record<string, unknown>)
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
        return sender.sendCalls(list[0])
      case 'wallet_getCallsStatus':
        return sender.getCallsStatus(list[0])

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
      account = devAccount(index)
      if (isAuthorized()) emit('accountsChanged', [account.address])
    },
    switchChain(id) {
      if (!Number.isSafeInteger(id) || id <= 0) throw new TypeError(`Bad chain id ${id}`)
      setChain(id)
    },
    disconnect() {
      sites.forget()
      emit('disconnect', new DemoWalletRpcError(ErrorCodes.disconnected, 'Demo Wallet disconnected.'))
      emit('accountsChanged', [])
    },
    pending: () => prompts?.pending() ?? 0,
    approve: () => prompts?.answer(true) ?? false,
    reject: () => prompts?.answer(false) ?? false,
    reset() {
      sites.reset()
      resetAddedChains(storage, chains)
      parameters.solana?.reset()
      parameters.bitcoin?.reset()
    },
    ...(parameters.solana ? { solana: parameters.solana } : {}),
    ...(parameters.bitcoin ? { bitcoin: parameters.bitcoin } : {}),
  }

  return { provider, controls }
}
