import * as z from 'zod/mini'
import { ERROR_CODES, toBaseError } from '../../errors/index.ts'
import { EvmAddressSchema } from '../../protocol/address.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { RPC_TIMEOUT_MS } from '../../protocol/constants.ts'
import { expectShape, walletRequest } from '../request.ts'
import type {
  AddNetworkParameters,
  Connector,
  ConnectorEvent,
  ConnectorState,
  Eip1193Provider,
} from '../types.ts'

const AccountsSchema = z.array(EvmAddressSchema)
const ChainIdSchema = z.union([z.string().check(z.regex(/^(0x[0-9a-fA-F]+|\d+)$/)), z.number()])

export interface InjectedConnectorParameters {
  id: string
  name: string
  icon?: string | undefined
  rdns?: string | undefined
  provider: Eip1193Provider
  timeoutMs?: number
}

function parseAccounts(value: unknown): readonly string[] | undefined {
  const parsed = AccountsSchema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

function parseChainId(value: unknown): CaipNetworkId | undefined {
  const parsed = ChainIdSchema.safeParse(value)
  if (!parsed.success) return undefined
  const id = typeof parsed.data === 'number' ? parsed.data : Number(BigInt(parsed.data))
  return Number.isSafeInteger(id) && id > 0 ? `eip155:${id}` : undefined
}

const toHexChainId = (caipNetworkId: CaipNetworkId) =>
  `0x${Number(caipNetworkId.slice('eip155:'.length)).toString(16)}`

/**
 * A connector for an EVM browser wallet (EIP-6963 or the legacy `window.ethereum`).
 *
 * @example
 * const connector = createInjectedConnector({ id: info.rdns, name: info.name, icon: info.icon, provider })
 * const { accounts, chainId } = await connector.connect({ namespace: 'eip155' })
 */
export function createInjectedConnector(parameters: InjectedConnectorParameters): Connector {
  const { provider } = parameters
  const timeoutMs = parameters.timeoutMs ?? RPC_TIMEOUT_MS
  const request = (method: string, params?: unknown) =>
    walletRequest(provider, params === undefined ? { method } : { method, params }, timeoutMs)

  async function readState(accounts: readonly string[]): Promise<ConnectorState> {
    const chainId = expectShape('eth_chainId', await request('eth_chainId'), parseChainId)
    return { namespace: 'eip155', accounts, chainId }
  }

  return {
    id: parameters.id,
    name: parameters.name,
    type: 'injected',
    icon: parameters.icon,
    rdns: parameters.rdns,
    namespaces: ['eip155'],

    async connect() {
      const accounts = expectShape('eth_requestAccounts', await request('eth_requestAccounts'), parseAccounts)
      if (accounts.length === 0)
        throw toBaseError({ code: 4100, message: 'The wallet returned no accounts.' })
      return readState(accounts)
    },

    async reconnect() {
      const accounts = expectShape('eth_accounts', await request('eth_accounts'), parseAccounts)
      return accounts.length === 0 ? undefined : readState(accounts)
    },

    async disconnect() {
      // Not every wallet implements EIP-2255 revocation; the site forgets the connection either way.
      try {
        await request('wallet_revokePermissions', [{ eth_accounts: {} }])
      } catch {}
    },

    async switchNetwork({ network }: { network: AddNetworkParameters }) {
      const chainId = toHexChainId(network.caipNetworkId)
      try {
        await request('wallet_switchEthereumChain', [{ chainId }])
      } catch (error) {
        const base = toBaseError(error)
        if (!(base.code === ERROR_CODES.unrecognizedChain || base.name === 'UnrecognizedChainError'))
          throw base
        await request('wallet_addEthereumChain', [
          {
            chainId,
            chainName: network.name,
            nativeCurrency: network.nativeCurrency,
            rpcUrls: network.rpcUrls,
            ...(network.blockExplorerUrls?.length ? { blockExplorerUrls: network.blockExplorerUrls } : {}),
          },
        ])
        // Some wallets add without switching.
        const current = parseChainId(await request('eth_chainId'))
        if (current !== network.caipNetworkId) await request('wallet_switchEthereumChain', [{ chainId }])
      }
    },

    getProvider: () => provider,

    subscribe(listener: (event: ConnectorEvent) => void) {
      const onAccounts = (accounts: unknown) => {
        const parsed = parseAccounts(accounts)
        if (parsed) listener({ type: 'accountsChanged', namespace: 'eip155', accounts: parsed })
      }
      const onChain = (chainId: unknown) => {
        const parsed = parseChainId(chainId)
        if (parsed) listener({ type: 'chainChanged', namespace: 'eip155', chainId: parsed })
      }
      const onDisconnect = () => listener({ type: 'disconnect', namespace: 'eip155' })
      provider.on?.('accountsChanged', onAccounts as (...args: never[]) => void)
      provider.on?.('chainChanged', onChain as (...args: never[]) => void)
      provider.on?.('disconnect', onDisconnect)
      return () => {
        provider.removeListener?.('accountsChanged', onAccounts as (...args: never[]) => void)
        provider.removeListener?.('chainChanged', onChain as (...args: never[]) => void)
        provider.removeListener?.('disconnect', onDisconnect)
      }
    },
  }
}
