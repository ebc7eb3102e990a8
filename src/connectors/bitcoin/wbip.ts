import * as z from 'zod/mini'
import { isAddressOnNetwork } from '../../chains/bip122/chains.ts'
import { LOCAL_BITCOIN_NETWORK_ID } from '../../chains/bip122/networks.ts'
import { toBaseError } from '../../errors/index.ts'
import type { AccountAddress } from '../../protocol/bip122.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { RPC_TIMEOUT_MS } from '../../protocol/constants.ts'
import { withTimeout } from '../request.ts'
import type { Connector, ConnectorState } from '../types.ts'
import { bitcoinProvider, unsupported } from './provider.ts'

/**
 * One entry of the WBIP004 provider registry (`window.wbip_providers`, and `window.btc_providers`
 * where Xverse and Leather register): `id` is the provider object's path on `window`
 * (`XverseProviders.BitcoinProvider`).
 */
export const WbipProviderInfoSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  icon: z.optional(z.string()),
  methods: z.optional(z.array(z.string())),
})
export type WbipProviderInfo = z.infer<typeof WbipProviderInfoSchema>

/** A WBIP provider object: `request(method, params)`, answering a JSON-RPC response (sats-connect style). */
export interface WbipProvider {
  request(method: string, params?: unknown): Promise<unknown>
}

const ResponseSchema = z.union([
  z.object({ result: z.unknown() }),
  z.object({ error: z.object({ code: z.number(), message: z.string() }) }),
])

/** `getAddresses` answer: Xverse's `{ address, publicKey, purpose, addressType }`, Leather's `{ address, publicKey, type }`. */
const AddressesSchema = z.object({
  addresses: z.array(
    z.object({
      address: z.string().check(z.minLength(1)),
      publicKey: z.optional(z.string()),
      purpose: z.optional(z.string()),
      derivationPath: z.optional(z.string()),
    }),
  ),
})

/**
 * The provider object an entry names: its path (`a.b`) followed on `window`; undefined when it is not
 * there or has no `request`.
 *
 * @example
 * wbipProviderOf(window, { id: 'XverseProviders.BitcoinProvider', name: 'Xverse' })
 */
export function wbipProviderOf(win: object, info: WbipProviderInfo): WbipProvider | undefined {
  let node: unknown = win
  for (const part of info.id.split('.')) {
    if (!node || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part]
  }
  const request = (node as { request?: unknown } | undefined)?.request
  return typeof request === 'function' ? (node as WbipProvider) : undefined
}

export interface WbipConnectorParameters {
  info: WbipProviderInfo
  provider: WbipProvider
  timeoutMs?: number
}

/**
 * A connector for a Bitcoin wallet found in the WBIP004 registry (sats-connect-style `request(method,
 * params)`): `getAddresses` connects (the payment address), `signMessage`, `signPsbt` (inputs by
 * address, broadcast on request) and `sendTransfer` answer the `bip122` provider's methods. The network
 * is the site's choice; the wallet's addresses must be of it.
 *
 * @example
 * const connector = createWbipConnector({ info, provider: wbipProviderOf(window, info)! })
 */
export function createWbipConnector(parameters: WbipConnectorParameters): Connector {
  const { info, provider: wallet } = parameters
  const timeoutMs = parameters.timeoutMs ?? RPC_TIMEOUT_MS
  let chainId: CaipNetworkId = LOCAL_BITCOIN_NETWORK_ID
  let addresses: AccountAddress[] = []

  const call = async (method: string, params: unknown): Promise<unknown> => {
    const response = ResponseSchema.safeParse(await wallet.request(method, params))
    if (!response.success) throw toBaseError({ code: -32603, message: `${method}: malformed response` })
    if ('error' in response.data) throw toBaseError(response.data.error, { method })
    return response.data.result
  }

  const readAddresses = async (method: string, params: unknown): Promise<AccountAddress[]> => {
    const parsed = AddressesSchema.safeParse(await call(method, params))
    if (!parsed.success) throw toBaseError({ code: -32603, message: `${method}: malformed addresses` })
    return parsed.data.addresses
      .filter((entry) => (entry.purpose ?? 'payment') === 'payment')
      .filter((entry) => isAddressOnNetwork(entry.address, chainId))
      .map((entry) => ({
        address: entry.address,
        intention: 'payment' as const,
        ...(entry.publicKey ? { publicKey: entry.publicKey } : {}),
        ...(entry.derivationPath ? { path: entry.derivationPath } : {}),
      }))
  }

  const state = (): ConnectorState => ({
    namespace: 'bip122',
    accounts: addresses.slice(0, 1).map((entry) => entry.address),
    chainId,
  })

  const provider = bitcoinProvider({
    addresses: () => addresses,
    signMessage: (input) => call('signMessage', input),
    signPsbt: ({ psbt, signInputs, broadcast }) => {
      const byAddress: Record<string, number[]> = {}
      for (const input of signInputs)
        byAddress[input.address] = [...(byAddress[input.address] ?? []), input.index]
      return call('signPsbt', { psbt, signInputs: byAddress, broadcast: broadcast ?? false })
    },
    sendTransfer: ({ recipientAddress, amount }) =>
      call('sendTransfer', { recipients: [{ address: recipientAddress, amount: Number(amount) }] }),
  })

  return {
    id: `wbip:${info.id}`,
    name: info.name,
    type: 'injected',
    icon: info.icon,
    namespaces: ['bip122'],

    async connect(parameters) {
      if (parameters.chainId?.startsWith('bip122:')) chainId = parameters.chainId
      addresses = await withTimeout(
        'getAddresses',
        readAddresses('getAddresses', { purposes: ['payment'] }),
        timeoutMs,
      )
      if (addresses.length === 0)
        throw toBaseError({ code: 4100, message: 'The wallet returned no account on this network.' })
      return state()
    },

    async reconnect(parameters) {
      // Only wallets that answer the granted accounts without a prompt (`wallet_getAccount`).
      if (!info.methods?.includes('wallet_getAccount')) return undefined
      if (parameters.chainId?.startsWith('bip122:')) chainId = parameters.chainId
      addresses = await withTimeout(
        'wallet_getAccount',
        readAddresses('wallet_getAccount', { purposes: ['payment'] }),
        timeoutMs,
      ).catch(() => [])
      return addresses.length > 0 ? state() : undefined
    },

    async disconnect() {
      addresses = []
      if (info.methods?.includes('wallet_disconnect')) await call('wallet_disconnect', null).catch(() => {})
    },

    async switchNetwork({ network }) {
      if (!addresses.some((entry) => isAddressOnNetwork(entry.address, network.caipNetworkId)))
        throw unsupported(`switching to ${network.name}`)
      chainId = network.caipNetworkId
    },

    getProvider: () => provider,

    subscribe: () => () => {},
  }
}
