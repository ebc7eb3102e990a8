import type { CreateConnectorFn } from '@wagmi/core'
import {
  type Address,
  ChainNotFoundError,
  getAddress,
  ProviderDisconnectedError,
  SwitchChainError,
  UserRejectedRequestError,
} from 'viem'
import {
  type CaipNetworkId,
  connectThroughModal,
  disconnect,
  getProvider,
  switchNetwork,
} from '../core/index.ts'
import {
  chainNumber,
  type EvmConnection,
  evmConnection,
  followConnection,
  restoredConnection,
} from './connection.ts'
import { type ModalSource, modalInstance } from './instance.ts'

/** The modal's EIP-1193 provider for EVM networks (`getProvider(config, 'eip155')`). */
type Provider = ReturnType<typeof getProvider>

export interface WalletElementsParameters {
  /**
   * The modal to drive: its instance (`modal.walletConfig`) or a function returning it. Default: the
   * page's `<wallet-modal>` (added to the body when there is none), found on first use.
   */
  config?: ModalSource
}

/** The person said no (4001): wagmi's (viem's) `UserRejectedRequestError`, else the error as it is. */
function asWagmiError(error: unknown): Error {
  const cause = error instanceof Error ? error : new Error(String(error))
  return (error as { code?: unknown } | null)?.code === UserRejectedRequestError.code
    ? new UserRejectedRequestError(cause)
    : cause
}

/**
 * A wagmi connector that connects through the modal: wagmi's `connect` opens Connect (browser
 * wallets, WalletConnect, the embedded wallet) and resolves when the person has connected, or fails
 * with `UserRejectedRequestError` when they close the modal first. Requests go to the modal's
 * provider (`getProvider(config, 'eip155')`), `switchChain` is the modal's network switch, and a
 * connection, account, network or disconnect made in the modal reaches wagmi's state.
 *
 * @example
 * import { createConfig, http } from 'wagmi'
 * import { base } from 'wagmi/chains'
 * import { walletElements } from 'wallet-elements/wagmi'
 *
 * export const config = createConfig({
 *   chains: [base],
 *   connectors: [walletElements()],
 *   transports: { [base.id]: http() },
 * })
 */
export function walletElements(parameters: WalletElementsParameters = {}): CreateConnectorFn<Provider> {
  // What `@wagmi/core`'s `createConnector` returns is the function it is given: typed with its type,
  // nothing of `@wagmi/core` is imported at run time, so an app whose package manager nests
  // `@wagmi/core` under `wagmi` (npm may; pnpm does) builds all the same.
  return (wagmi) => {
    let bound: ReturnType<typeof modalInstance> | undefined
    /** The modal's instance, followed from the first use on. */
    const instance = () => {
      if (bound) return bound
      const config = modalInstance(parameters.config)
      bound = config
      followConnection(config, {
        connect: (connection) => wagmi.emitter.emit('connect', connection),
        accountsChanged: (accounts) => wagmi.emitter.emit('change', { accounts }),
        chainChanged: (chainId) => wagmi.emitter.emit('change', { chainId }),
        disconnect: () => wagmi.emitter.emit('disconnect'),
      })
      return config
    }

    const switchChain = async ({ chainId }: { chainId: number }) => {
      const chain = wagmi.chains.find((candidate) => candidate.id === chainId)
      if (!chain) throw new SwitchChainError(new ChainNotFoundError())
      try {
        await switchNetwork(instance(), { caipNetworkId: `eip155:${chainId}` })
      } catch (error) {
        const wagmiError = asWagmiError(error)
        throw wagmiError instanceof UserRejectedRequestError ? wagmiError : new SwitchChainError(wagmiError)
      }
      return chain
    }

    /** The network wagmi asks for, selected for the connection about to be made (when the site lists it). */
    const select = async (chainId: number) => {
      const config = instance()
      const caipNetworkId: CaipNetworkId = `eip155:${chainId}`
      if (config.$options.get().networks.includes(caipNetworkId))
        await switchNetwork(config, { caipNetworkId }).catch(() => {})
    }

    return {
      id: 'walletElements',
      name: 'Wallet Elements',
      type: 'walletElements',

      async connect({ chainId, isReconnecting, withCapabilities } = {}) {
        const config = instance()
        let connection: EvmConnection | undefined = isReconnecting
          ? await restoredConnection(config)
          : evmConnection(config)
        if (!connection) {
          if (isReconnecting) throw new ProviderDisconnectedError(new Error('No connection to restore'))
          if (chainId !== undefined) await select(chainId)
          await connectThroughModal(config, 'eip155').catch((error: unknown) => {
            throw asWagmiError(error)
          })
          connection = evmConnection(config)
          if (!connection) throw new ProviderDisconnectedError(new Error('The modal has no EVM connection'))
        }
        // Connected on another network than the one asked for: switch, unless the person says no.
        if (chainId !== undefined && connection.chainId !== chainId) {
          const chain = await switchChain({ chainId }).catch((error: unknown) => {
            if (error instanceof UserRejectedRequestError) throw error
            return undefined
          })
          if (chain) connection = { ...connection, chainId: chain.id }
        }
        const accounts = withCapabilities
          ? connection.accounts.map((address) => ({ address, capabilities: {} }))
          : connection.accounts
        return { accounts, chainId: connection.chainId } as never
      },

      async disconnect() {
        await disconnect(instance())
      },

      async getAccounts() {
        return evmConnection(instance())?.accounts ?? []
      },

      async getChainId() {
        const config = instance()
        const connected = evmConnection(config)?.chainId
        if (connected !== undefined) return connected
        // Not connected: the EVM network the modal shows, else wagmi's first chain.
        const shown = config.$network.get()?.caipNetworkId
        return shown?.startsWith('eip155:') ? chainNumber(shown) : wagmi.chains[0].id
      },

      async getProvider() {
        return getProvider(instance(), 'eip155')
      },

      async isAuthorized() {
        try {
          return (await restoredConnection(instance())) !== undefined
        } catch {
          return false
        }
      },

      switchChain,

      onAccountsChanged(accounts) {
        if (accounts.length === 0) this.onDisconnect()
        else
          wagmi.emitter.emit('change', {
            accounts: accounts.map((account) => getAddress(account as Address)),
          })
      },

      onChainChanged(chainId) {
        wagmi.emitter.emit('change', { chainId: Number(chainId) })
      },

      onDisconnect() {
        wagmi.emitter.emit('disconnect')
      },
    }
  }
}
