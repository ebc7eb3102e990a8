import { ProviderDisconnectedError, toBaseError } from '../../errors/index.ts'
import type { CaipNetworkId, ChainNamespace } from '../../protocol/caip.ts'
import type { FrameAccount, FrameUser } from '../../protocol/embedded/index.ts'
import { classifyRequest } from '../../protocol/embedded/index.ts'
import type { AccountType } from '../../protocol/entities.ts'
import type { Connector, ConnectorEvent, ConnectorState, Eip1193Provider } from '../types.ts'
import type { FrameClient } from './frame.ts'

export const EMBEDDED_ID = 'embedded'

export interface EmbeddedConnectorParameters {
  frame: FrameClient
  /** The namespaces the site uses that the embedded wallet serves. */
  namespaces: readonly ('eip155' | 'solana' | 'bip122')[]
  /**
   * A safe read on a network straight to RPC (the service's proxy), or undefined to send it through the
   * frame (which forwards it to the same proxy).
   */
  read?: ((chainId: CaipNetworkId, method: string, params: unknown) => Promise<unknown>) | undefined
  /** The EVM account a new user starts on (the site's `default-account-type`). */
  preferredAccountType?: AccountType | undefined
  /** Told each user the frame answers (`GET_USER`): what the page keeps of it (whether it exported). */
  onUser?: ((user: FrameUser) => void) | undefined
}

export interface EmbeddedConnector extends Connector {
  readonly frame: FrameClient
  /** The signed-in user, as the frame last told it. */
  user(): FrameUser | undefined
  /**
   * Switches the person's EVM account between the EOA and the smart account (SPEC 4); on a network
   * without smart accounts it fails with the frame's message and the EOA stays.
   */
  setAccountType(type: AccountType): Promise<void>
}

/**
 * The embedded wallet as a connector like any other: `connect` after the e-mail sign-in (core's
 * `connectEmail`/`verifyOtp`), `reconnect` by asking the frame whether its session still holds, and
 * `getProvider(namespace)` a standard EIP-1193 provider (Solana: WalletConnect's `solana_*` methods;
 * Bitcoin: WalletConnect's bip122 methods, the account native segwit) whose signing requests the frame
 * shows for approval.
 *
 * @example
 * const connector = createEmbeddedConnector({ frame, namespaces: ['eip155', 'solana'] })
 * const { accounts } = await connector.connect({ namespace: 'eip155', chainId: 'eip155:1' })
 */
export function createEmbeddedConnector(parameters: EmbeddedConnectorParameters): EmbeddedConnector {
  const { frame } = parameters
  let user: FrameUser | undefined
  const chains = new Map<ChainNamespace, CaipNetworkId>()
  /**
   * Each namespace's account as the frame last told it on that namespace's network (a Bitcoin address
   * depends on the network, and GET_USER on an EVM network does not name it).
   */
  const accountOf = new Map<ChainNamespace, FrameAccount>()
  const listeners = new Set<(event: ConnectorEvent) => void>()
  let signingOut: Promise<unknown> | undefined
  const emit = (event: ConnectorEvent) => {
    for (const listener of listeners) listener(event)
  }
  /** The user the frame answers, kept and told. */
  const told = (next: FrameUser) => {
    for (const account of next.accounts) accountOf.set(account.namespace, account)
    parameters.onUser?.(next)
    return next
  }
  // The session ended in the frame (signed out in another tab, expired): every namespace disconnects.
  frame.notices((notice) => {
    if (notice.type !== 'SESSION_ENDED' || !user) return
    user = undefined
    accountOf.clear()
    for (const namespace of chains.keys()) emit({ type: 'disconnect', namespace })
  })

  const stateOf = (namespace: ChainNamespace, current: FrameUser): ConnectorState => {
    const account = accountOf.get(namespace)
    const chainId = chains.get(namespace)
    if (!account || !chainId) throw new ProviderDisconnectedError()
    return {
      namespace,
      accounts: [account.address],
      chainId,
      accountType: account.type,
      smartAccountDeployed: account.type === 'smartAccount' && current.smartAccountDeployed,
    }
  }

  async function selectNetwork(namespace: ChainNamespace, chainId: CaipNetworkId | undefined) {
    const target = chainId ?? chains.get(namespace)
    if (!target) throw new ProviderDisconnectedError()
    // The frame keeps one active network; requests name theirs, so each namespace keeps its own here.
    if (namespace === 'eip155') await frame.request('SWITCH_NETWORK', { chainId: target })
    chains.set(namespace, target)
  }

  /**
   * Selects a network and, on EVM and Bitcoin, reads the person's account on it again (an EVM smart
   * account only where the service has a bundler, deployed or not per network; a Bitcoin address per
   * network: bc1…, tb1…, bcrt1…), then tells the listeners: the chain, and the account when it changed.
   */
  async function switchAndRead(namespace: ChainNamespace, chainId: CaipNetworkId) {
    await selectNetwork(namespace, chainId)
    const before = user && accountOf.get(namespace)
    if (user && (namespace === 'eip155' || namespace === 'bip122'))
      user = told(await frame.request('GET_USER', { chainId }))
    emit({ type: 'chainChanged', namespace, chainId })
    const after = user && accountOf.get(namespace)
    if (user && before && after && after.address !== before.address) {
      const { accounts, accountType, smartAccountDeployed } = stateOf(namespace, user)
      emit({ type: 'accountsChanged', namespace, accounts, accountType, smartAccountDeployed })
    }
  }

  async function connect(namespace: ChainNamespace, chainId: CaipNetworkId | undefined) {
    await selectNetwork(namespace, chainId)
    user = told(
      await frame.request('GET_USER', {
        chainId: chains.get(namespace),
        ...(parameters.preferredAccountType ? { preferredAccountType: parameters.preferredAccountType } : {}),
      }),
    )
    signingOut = undefined
    return stateOf(namespace, user)
  }

  const providers = new Map<ChainNamespace, Eip1193Provider>()
  const providerFor = (namespace: ChainNamespace): Eip1193Provider => {
    const existing = providers.get(namespace)
    if (existing) return existing
    const provider: Eip1193Provider = {
      async request({ method, params }) {
        const chainId = chains.get(namespace)
        const account = user && accountOf.get(namespace)
        if (!chainId || !account) throw new ProviderDisconnectedError()
        if (namespace === 'eip155') {
          if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [account.address]
          if (method === 'eth_chainId') return `0x${Number(chainId.split(':')[1]).toString(16)}`
          if (method === 'wallet_switchEthereumChain') {
            const [{ chainId: hex } = { chainId: '' }] = (params ?? []) as { chainId: string }[]
            await switchAndRead('eip155', `eip155:${Number(hex)}` as CaipNetworkId)
            return null
          }
        }
        if (parameters.read && classifyRequest(namespace, method) === 'read') {
          return parameters.read(chainId, method, params ?? [])
        }
        try {
          const { result } = await frame.request('RPC_REQUEST', { chainId, method, params })
          return result
        } catch (error) {
          throw toBaseError(error)
        }
      },
    }
    providers.set(namespace, provider)
    return provider
  }

  return {
    id: EMBEDDED_ID,
    name: 'E-mail',
    type: 'embedded',
    namespaces: parameters.namespaces,
    frame,
    user: () => user,
    async setAccountType(type) {
      const chainId = chains.get('eip155')
      if (!user || !chainId) throw new ProviderDisconnectedError()
      try {
        await frame.request('SET_PREFERRED_ACCOUNT', { type })
      } catch (error) {
        throw toBaseError(error)
      }
      user = told(await frame.request('GET_USER', { chainId }))
      const { namespace, accounts, accountType, smartAccountDeployed } = stateOf('eip155', user)
      emit({ type: 'accountsChanged', namespace, accounts, accountType, smartAccountDeployed })
    },
    connect: ({ namespace, chainId }) => connect(namespace, chainId),
    async reconnect({ namespace, chainId }) {
      const { isConnected } = await frame.request('IS_CONNECTED', {})
      if (!isConnected) return undefined
      return connect(namespace, chainId)
    },
    async disconnect() {
      // One session for every namespace: signed out once.
      signingOut ??= frame.request('SIGN_OUT', {}).finally(() => {
        user = undefined
        accountOf.clear()
      })
      await signingOut
    },
    async switchNetwork({ namespace, network }) {
      await switchAndRead(namespace, network.caipNetworkId)
    },
    getProvider: providerFor,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
