import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { isAddressOnNetwork, networkOfStandardChain, standardChainOf } from '../../chains/bip122/chains.ts'
import { LOCAL_BITCOIN_NETWORK_ID } from '../../chains/bip122/networks.ts'
import { toBaseError } from '../../errors/index.ts'
import { WalletNoSignatureError, WalletNoTransactionError } from '../../errors/wallet.ts'
import { fromBase64, toBase64 } from '../../protocol/base64.ts'
import type { CaipNetworkId } from '../../protocol/caip.ts'
import { RPC_TIMEOUT_MS } from '../../protocol/constants.ts'
import { withTimeout } from '../request.ts'
import type { Connector, ConnectorEvent, ConnectorState } from '../types.ts'
import { bitcoinProvider, unauthorized, unsupported } from './provider.ts'

/**
 * Feature names of the Wallet Standard's Bitcoin extension (the `bitcoin:` namespace of
 * wallet-standard's extensions list, defined by Exodus's bitcoin-wallet-standard), beside the
 * standard's own connect, disconnect and events.
 */
export const BitcoinFeature = {
  connect: 'bitcoin:connect',
  signMessage: 'bitcoin:signMessage',
  signTransaction: 'bitcoin:signTransaction',
  signAndSendTransaction: 'bitcoin:signAndSendTransaction',
  disconnect: 'standard:disconnect',
  events: 'standard:events',
} as const

/** `bitcoin:connect`: the accounts for the purposes asked (`payment`, `ordinals`). */
type ConnectFeature = {
  connect(input: {
    purposes: readonly ('payment' | 'ordinals')[]
  }): Promise<{ accounts: readonly WalletAccount[] }>
}
/** `bitcoin:signMessage`: the message's bytes, signed by an account (a BIP-137 signature for ECDSA). */
type SignMessageFeature = {
  signMessage(
    ...inputs: { account: WalletAccount; message: Uint8Array }[]
  ): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array }[]>
}
type InputToSign = { account: WalletAccount; signingIndexes: readonly number[]; sigHash?: number }
/** `bitcoin:signTransaction`: a PSBT's bytes with the inputs each account signs; the signed PSBT back. */
type SignTransactionFeature = {
  signTransaction(
    ...inputs: { psbt: Uint8Array; inputsToSign: readonly InputToSign[]; chain?: string }[]
  ): Promise<readonly { signedPsbt: Uint8Array }[]>
}
/** `bitcoin:signAndSendTransaction`: the same, then finalized and broadcast; the transaction id back. */
type SignAndSendFeature = {
  signAndSendTransaction(
    ...inputs: { psbt: Uint8Array; inputsToSign: readonly InputToSign[]; chain: string }[]
  ): Promise<readonly { txId: string }[]>
}
type SignInput = { address: string; index: number; sighashTypes?: number[] | undefined }
type DisconnectFeature = { disconnect(): Promise<void> }
type EventsFeature = {
  on(event: 'change', listener: (properties: { accounts?: readonly WalletAccount[] }) => void): () => void
}

const feature = <T>(wallet: Wallet, name: string): T | undefined =>
  (wallet.features as Record<string, unknown>)[name] as T | undefined

/**
 * Whether a Wallet Standard wallet can serve Bitcoin here: it has `bitcoin:connect` and signs PSBTs one
 * way or the other.
 *
 * @example
 * getWallets().get().filter(isBitcoinWallet)
 */
export function isBitcoinWallet(wallet: Wallet): boolean {
  return (
    feature(wallet, BitcoinFeature.connect) !== undefined &&
    (feature(wallet, BitcoinFeature.signTransaction) !== undefined ||
      feature(wallet, BitcoinFeature.signAndSendTransaction) !== undefined)
  )
}

export interface BitcoinStandardConnectorParameters {
  wallet: Wallet
  timeoutMs?: number
}

/**
 * A connector for a Bitcoin wallet found through the Wallet Standard. The network is the site's
 * choice among the wallet's `bitcoin:` chains; the connection's accounts are the wallet's addresses on
 * that network (by their prefixes). Its `bip122` provider answers WalletConnect's Bitcoin methods;
 * `sendTransfer` is left to the caller, which builds the PSBT (the Wallet Standard has no payment
 * feature).
 *
 * @example
 * const connector = createBitcoinStandardConnector({ wallet })
 * await connector.connect({ namespace: 'bip122', chainId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328' })
 */
export function createBitcoinStandardConnector(parameters: BitcoinStandardConnectorParameters): Connector {
  const { wallet } = parameters
  const timeoutMs = parameters.timeoutMs ?? RPC_TIMEOUT_MS
  let chainId: CaipNetworkId | undefined
  let connected: readonly WalletAccount[] = []

  const defaultChain = (requested?: CaipNetworkId): CaipNetworkId => {
    if (requested?.startsWith('bip122:')) return requested
    const known = wallet.chains.map(networkOfStandardChain).find(Boolean)
    return known ?? LOCAL_BITCOIN_NETWORK_ID
  }
  const onNetwork = (accounts: readonly WalletAccount[]) =>
    accounts.filter((account) => isAddressOnNetwork(account.address, defaultChain(chainId)))

  const state = (accounts: readonly WalletAccount[], requested?: CaipNetworkId): ConnectorState => {
    chainId = defaultChain(requested ?? chainId)
    connected = onNetwork(accounts)
    return { namespace: 'bip122', accounts: connected.slice(0, 1).map((a) => a.address), chainId }
  }

  const accountFor = (address: string): WalletAccount => {
    const account = connected.find((candidate) => candidate.address === address)
    if (!account) throw unauthorized()
    return account
  }
  const inputsToSign = (signInputs: readonly SignInput[]) => {
    const byAddress = new Map<string, InputToSign>()
    for (const input of signInputs) {
      const entry = byAddress.get(input.address) ?? { account: accountFor(input.address), signingIndexes: [] }
      byAddress.set(input.address, {
        ...entry,
        signingIndexes: [...entry.signingIndexes, input.index],
        ...(input.sighashTypes?.[0] !== undefined ? { sigHash: input.sighashTypes[0] } : {}),
      })
    }
    return [...byAddress.values()]
  }
  const chainName = () => standardChainOf(defaultChain(chainId)) ?? 'bitcoin:regtest'

  const provider = bitcoinProvider({
    addresses: () =>
      connected.map((account) => ({
        address: account.address,
        publicKey: toHex(account.publicKey),
        intention: 'payment' as const,
      })),
    async signMessage({ address, message }) {
      const sign = feature<SignMessageFeature>(wallet, BitcoinFeature.signMessage)
      if (!sign) throw unsupported(BitcoinFeature.signMessage)
      const [output] = await sign.signMessage({
        account: accountFor(address),
        message: new TextEncoder().encode(message),
      })
      if (!(output?.signature instanceof Uint8Array)) throw new WalletNoSignatureError()
      return { address, signature: toBase64(output.signature) }
    },
    async signPsbt({ psbt, signInputs, broadcast }) {
      const bytes = fromBase64(psbt)
      const toSign = inputsToSign(signInputs)
      if (broadcast) {
        // The standard's send answers the transaction id only: the PSBT given is what comes back.
        const send = feature<SignAndSendFeature>(wallet, BitcoinFeature.signAndSendTransaction)
        if (!send) throw unsupported(BitcoinFeature.signAndSendTransaction)
        const [sent] = await send.signAndSendTransaction({
          psbt: bytes,
          inputsToSign: toSign,
          chain: chainName(),
        })
        if (typeof sent?.txId !== 'string') throw new WalletNoTransactionError()
        return { psbt, txid: sent.txId }
      }
      const sign = feature<SignTransactionFeature>(wallet, BitcoinFeature.signTransaction)
      if (!sign) throw unsupported(BitcoinFeature.signTransaction)
      const [signed] = await sign.signTransaction({ psbt: bytes, inputsToSign: toSign, chain: chainName() })
      if (!(signed?.signedPsbt instanceof Uint8Array)) throw new WalletNoTransactionError()
      return { psbt: toBase64(signed.signedPsbt) }
    },
  })

  const connectWith = async (): Promise<readonly WalletAccount[]> => {
    const connect = feature<ConnectFeature>(wallet, BitcoinFeature.connect)
    if (!connect) throw unsupported(BitcoinFeature.connect)
    const { accounts } = await withTimeout(
      BitcoinFeature.connect,
      connect.connect({ purposes: ['payment'] }),
      timeoutMs,
    )
    return accounts
  }

  return {
    id: `walletStandard:bitcoin:${wallet.name}`,
    name: wallet.name,
    type: 'walletStandard',
    icon: wallet.icon,
    namespaces: ['bip122'],

    async connect(parameters) {
      const result = state(await connectWith(), parameters.chainId)
      if (result.accounts.length === 0)
        throw toBaseError({ code: 4100, message: 'The wallet returned no account on this network.' })
      return result
    },

    async reconnect(parameters) {
      // The wallet's accounts are there without a prompt only while the site is still authorised.
      if (wallet.accounts.length === 0) return undefined
      const result = state(wallet.accounts, parameters.chainId)
      return result.accounts.length > 0 ? result : undefined
    },

    async disconnect() {
      connected = []
      await feature<DisconnectFeature>(wallet, BitcoinFeature.disconnect)?.disconnect()
    },

    async switchNetwork({ network }) {
      chainId = network.caipNetworkId
      connected = onNetwork(wallet.accounts)
    },

    getProvider: () => provider,

    subscribe(listener: (event: ConnectorEvent) => void) {
      const events = feature<EventsFeature>(wallet, BitcoinFeature.events)
      if (!events) return () => {}
      return events.on('change', ({ accounts }) => {
        if (!accounts) return
        connected = onNetwork(accounts)
        listener({
          type: 'accountsChanged',
          namespace: 'bip122',
          accounts: connected.slice(0, 1).map((account) => account.address),
        })
      })
    },
  }
}

const toHex = (bytes: ArrayLike<number>) =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
