import type { Wallet, WalletAccount } from '@wallet-standard/base'
import * as z from 'zod/mini'
import { toBaseError } from '../../errors/index.ts'
import { WalletNoSignatureError, WalletNoTransactionError } from '../../errors/wallet.ts'
import { SolanaAddressSchema } from '../../protocol/address.ts'
import { fromBase64, toBase64 } from '../../protocol/base64.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { RPC_TIMEOUT_MS } from '../../protocol/constants.ts'
import { decodeBase58, encodeBase58 } from '../../protocol/siwx/base58.ts'
import { withTimeout } from '../request.ts'
import type { Connector, ConnectorEvent, ConnectorState, Eip1193Provider } from '../types.ts'

/** Feature names of the Wallet Standard and its Solana extension. */
export const Feature = {
  connect: 'standard:connect',
  disconnect: 'standard:disconnect',
  events: 'standard:events',
  signMessage: 'solana:signMessage',
  signTransaction: 'solana:signTransaction',
  signAndSendTransaction: 'solana:signAndSendTransaction',
} as const

type ConnectFeature = {
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletAccount[] }>
}
type DisconnectFeature = { disconnect(): Promise<void> }
type EventsFeature = {
  on(event: 'change', listener: (properties: { accounts?: readonly WalletAccount[] }) => void): () => void
}
type SignMessageFeature = {
  signMessage(
    ...inputs: { account: WalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array }[]>
}
type SignTransactionFeature = {
  signTransaction(
    ...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string }[]
  ): Promise<readonly { signedTransaction: Uint8Array }[]>
}
type SignAndSendFeature = {
  signAndSendTransaction(
    ...inputs: {
      account: WalletAccount
      transaction: Uint8Array
      chain: string
      options?: {
        skipPreflight?: boolean | undefined
        preflightCommitment?: string | undefined
        maxRetries?: number | undefined
      }
    }[]
  ): Promise<readonly { signature: Uint8Array }[]>
}

const invalidParams = (details: string) =>
  toBaseError({ code: -32602, message: `Invalid params: ${details}` })
const unsupported = (method: string) =>
  toBaseError({ code: 4200, message: `The wallet does not support ${method}.` }, { method })

const feature = <T>(wallet: Wallet, name: string): T | undefined =>
  (wallet.features as Record<string, unknown>)[name] as T | undefined

/**
 * Whether a Wallet Standard wallet can serve Solana here: it connects, lists a `solana:` chain and
 * signs transactions one way or the other.
 *
 * @example
 * getWallets().get().filter(isSolanaWallet)
 */
export function isSolanaWallet(wallet: Wallet): boolean {
  return (
    feature(wallet, Feature.connect) !== undefined &&
    wallet.chains.some((chain) => chain.startsWith('solana:')) &&
    (feature(wallet, Feature.signTransaction) !== undefined ||
      feature(wallet, Feature.signAndSendTransaction) !== undefined)
  )
}

/** The wallet's Solana accounts; anything that is not a base58 address of 32 to 44 characters is dropped. */
const solanaAccounts = (accounts: readonly WalletAccount[]) =>
  accounts.filter(
    (account) =>
      SolanaAddressSchema.safeParse(account.address).success &&
      (account.chains.length === 0 || account.chains.some((chain) => chain.startsWith('solana:'))),
  )

// The JSON-RPC methods a Solana connection answers: the same names and shapes as WalletConnect's
// Solana methods, so core code drives a browser wallet and a phone wallet alike.
const SignMessageParams = z.object({ message: z.string(), pubkey: z.optional(z.string()) })
const SignTransactionParams = z.object({
  transaction: z.string(),
  sendOptions: z.optional(
    z.object({
      skipPreflight: z.optional(z.boolean()),
      preflightCommitment: z.optional(z.string()),
      maxRetries: z.optional(z.number()),
    }),
  ),
})

function parse<T>(method: string, schema: z.ZodMiniType<T>, params: unknown): T {
  const parsed = schema.safeParse(params)
  if (!parsed.success) throw invalidParams(`${method}: ${parsed.error.issues[0]?.message ?? ''}`)
  return parsed.data
}

export interface WalletStandardConnectorParameters {
  wallet: Wallet
  timeoutMs?: number
}

/**
 * A connector for a Solana wallet found through the Wallet Standard. Solana has no wallet-side
 * network switching: the connection's network is the site's choice among the wallet's chains.
 * Its provider answers `solana_signMessage`, `solana_signTransaction` and
 * `solana_signAndSendTransaction` (WalletConnect's Solana methods, base58 and base64 strings).
 *
 * @example
 * const connector = createWalletStandardConnector({ wallet })
 * const { accounts } = await connector.connect({ namespace: 'solana', chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })
 */
export function createWalletStandardConnector(parameters: WalletStandardConnectorParameters): Connector {
  const { wallet } = parameters
  const timeoutMs = parameters.timeoutMs ?? RPC_TIMEOUT_MS
  let chainId: CaipNetworkId | undefined

  const defaultChain = (requested?: CaipNetworkId): CaipNetworkId => {
    if (requested?.startsWith('solana:')) return requested
    return (wallet.chains.find((chain) => chain.startsWith('solana:')) ??
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp') as CaipNetworkId
  }

  const state = (accounts: readonly WalletAccount[], requested?: CaipNetworkId): ConnectorState => {
    chainId = defaultChain(requested ?? chainId)
    return { namespace: 'solana', accounts: solanaAccounts(accounts).map((a) => a.address), chainId }
  }

  /** The wallet account behind an address (the first one when none is named). */
  const accountFor = (address?: string): WalletAccount => {
    const accounts = solanaAccounts(wallet.accounts)
    const account = address ? accounts.find((candidate) => candidate.address === address) : accounts[0]
    if (!account)
      throw toBaseError({ code: 4100, message: 'The requested account has not been authorized by the user.' })
    return account
  }

  const provider: Eip1193Provider = {
    async request({ method, params }) {
      try {
        switch (method) {
          case 'solana_signMessage': {
            const input = parse(method, SignMessageParams, params)
            const message = decodeBase58(input.message)
            if (!message) throw invalidParams('message must be base58')
            const sign = feature<SignMessageFeature>(wallet, Feature.signMessage)
            if (!sign) throw unsupported(method)
            const [output] = await sign.signMessage({ account: accountFor(input.pubkey), message })
            if (!(output?.signature instanceof Uint8Array)) throw new WalletNoSignatureError()
            return { signature: encodeBase58(output.signature) }
          }
          case 'solana_signTransaction': {
            const input = parse(method, SignTransactionParams, params)
            const sign = feature<SignTransactionFeature>(wallet, Feature.signTransaction)
            if (!sign) throw unsupported(method)
            const [output] = await sign.signTransaction({
              account: accountFor(),
              transaction: fromBase64(input.transaction),
              ...(chainId ? { chain: chainId } : {}),
            })
            if (!(output?.signedTransaction instanceof Uint8Array)) throw new WalletNoTransactionError()
            return { transaction: toBase64(output.signedTransaction) }
          }
          case 'solana_signAndSendTransaction': {
            const input = parse(method, SignTransactionParams, params)
            const send = feature<SignAndSendFeature>(wallet, Feature.signAndSendTransaction)
            if (!send) throw unsupported(method)
            const [output] = await send.signAndSendTransaction({
              account: accountFor(),
              transaction: fromBase64(input.transaction),
              chain: defaultChain(chainId),
              ...(input.sendOptions ? { options: input.sendOptions } : {}),
            })
            if (!(output?.signature instanceof Uint8Array)) throw new WalletNoSignatureError()
            return { signature: encodeBase58(output.signature) }
          }
          case 'solana_getAccounts':
          case 'solana_requestAccounts':
            return solanaAccounts(wallet.accounts).map((account) => ({ pubkey: account.address }))
          default:
            throw unsupported(method)
        }
      } catch (error) {
        throw toBaseError(error)
      }
    },
  }

  return {
    id: `walletStandard:${wallet.name}`,
    name: wallet.name,
    type: 'walletStandard',
    icon: wallet.icon,
    namespaces: ['solana'],

    async connect(parameters) {
      const connect = feature<ConnectFeature>(wallet, Feature.connect)
      if (!connect) throw unsupported(Feature.connect)
      const { accounts } = await withTimeout(Feature.connect, connect.connect(), timeoutMs)
      const result = state(accounts.length > 0 ? accounts : wallet.accounts, parameters.chainId)
      if (result.accounts.length === 0)
        throw toBaseError({ code: 4100, message: 'The wallet returned no accounts.' })
      return result
    },

    async reconnect(parameters) {
      const connect = feature<ConnectFeature>(wallet, Feature.connect)
      if (!connect) return undefined
      const { accounts } = await withTimeout(Feature.connect, connect.connect({ silent: true }), timeoutMs)
      const result = state(accounts, parameters.chainId)
      return result.accounts.length > 0 ? result : undefined
    },

    async disconnect() {
      await feature<DisconnectFeature>(wallet, Feature.disconnect)?.disconnect()
    },

    async switchNetwork({ network }) {
      chainId = network.caipNetworkId
    },

    getProvider: () => provider,

    subscribe(listener: (event: ConnectorEvent) => void) {
      const events = feature<EventsFeature>(wallet, Feature.events)
      if (!events) return () => {}
      return events.on('change', ({ accounts }) => {
        if (!accounts) return
        listener({
          type: 'accountsChanged',
          namespace: 'solana',
          accounts: solanaAccounts(accounts).map((account) => account.address),
        })
      })
    },
  }
}
