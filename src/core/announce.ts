import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { SITE_WALLET_MARK, SITE_WALLET_RDNS } from '../connectors/siteWallet.ts'
import type { Eip1193Provider, WalletInfo } from '../connectors/types.ts'
import { ProviderDisconnectedError, RpcRequestError, UserRejectedRequestError } from '../errors/rpc.ts'
import { WalletNoSignatureError, WalletNoTransactionError } from '../errors/wallet.ts'
import { fromBase64, toBase64 } from '../protocol/base64.ts'
import { resolveLocale } from '../protocol/locales.ts'
import { decodeBase58 } from '../protocol/siwx/base58.ts'
import type { MessageKey } from '../shared/locales/en.ts'
import { connectThroughModal } from './actions/connectThroughModal.ts'
import { getProvider } from './actions/getProvider.ts'
import type { Config } from './config.ts'
import { recordOf } from './connection/recordOf.ts'

/**
 * The site's wallet announced to the page: with the embedded wallet on, a dapp
 * that reads EIP-6963 or the Wallet Standard finds it without code of ours. This module is its own
 * chunk, loaded by `<wallet-modal>` when the page is idle and only when the embedded wallet is on.
 */

/** The catalogue key of the announced name (`{site} Wallet`, in the modal's language). */
const NAME_KEY = 'siteWallet' satisfies MessageKey

/** A wallet with a key: the icon of both announcements (EIP-6963 and Wallet Standard ask a data: URI). */
const ICON = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"><rect width="96" height="96" rx="24" fill="#3b5bdb"/>' +
    '<rect x="18" y="28" width="60" height="44" rx="8" fill="#fff"/><rect x="52" y="42" width="26" height="16" rx="5" fill="#dbe4ff"/>' +
    '<circle cx="61" cy="50" r="4" fill="#3b5bdb"/><path d="M24 28l34-10a5 5 0 0 1 6 5v5" fill="none" stroke="#fff" stroke-width="5"/></svg>',
)}` as const

/** The Wallet Standard's names of the public Solana clusters, by CAIP-2 id (genesis hash, 32 characters). */
const CLUSTERS: Readonly<Record<string, string>> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'solana:devnet',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}

const SOLANA_FEATURES = [
  'solana:signMessage',
  'solana:signTransaction',
  'solana:signAndSendTransaction',
  'solana:signIn',
] as const

/**
 * Announces the site's wallet to the page: an EIP-6963 announcement whose provider is
 * `getProvider(config, 'eip155')` (again on every `eip6963:requestProvider`) when the site has EVM
 * networks, and a Wallet Standard registration over `getProvider(config, 'solana')` when it has
 * Solana networks. Both follow the modal's connection, as `getProvider` does. Returns the stop
 * function (no more announcements; the Wallet Standard registration is withdrawn).
 *
 * @example
 * const stop = announceSiteWallet(config)
 * window.addEventListener('eip6963:announceProvider', (event) => console.log(event.detail.info.name))
 */
export function announceSiteWallet(config: Config): () => void {
  const win = config.platform.window
  if (!win) return () => {}
  const stops: (() => void)[] = []
  let stopped = false
  // A dapp's `eth_requestAccounts` on the announced provider signs in through the modal.
  config.internal.requestAccounts = (namespace) => connectThroughModal(config, namespace)
  stops.push(() => {
    config.internal.requestAccounts = undefined
  })
  void siteWalletName(config, win).then((name) => {
    if (stopped) return
    const { networks } = config.$options.get()
    if (networks.some((id) => id.startsWith('eip155:')))
      stops.push(
        announceEip6963(win, {
          info: { uuid: crypto.randomUUID(), name, icon: ICON, rdns: SITE_WALLET_RDNS },
          provider: getProvider(config, 'eip155'),
        }),
      )
    if (networks.some((id) => id.startsWith('solana:')))
      stops.push(registerWallet(win, createSiteWallet(config, name)))
  })
  return () => {
    stopped = true
    for (const stop of stops.splice(0)) stop()
  }
}

/** `{site} Wallet` in the modal's language; the site is the page's host. */
async function siteWalletName(config: Config, win: Window): Promise<string> {
  const locale = resolveLocale(config.$options.get().locale, win.navigator.languages ?? [])
  const site = win.location.hostname || win.location.host || 'localhost'
  const { default: loaders } = await import('../shared/i18n/loaders.ts')
  const { default: messages } = await loaders[locale]()
  // The one argument, written as is (the catalogue's message has no plural or select).
  return messages[NAME_KEY].replace('{site}', site).slice(0, 100)
}

/**
 * EIP-6963: announces now and on every request, with one frozen detail (the same uuid all page long).
 */
function announceEip6963(win: Window, detail: { info: WalletInfo; provider: Eip1193Provider }): () => void {
  const frozen = Object.freeze({ info: Object.freeze({ ...detail.info }), provider: detail.provider })
  const announce = () => win.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: frozen }))
  win.addEventListener('eip6963:requestProvider', announce)
  announce()
  return () => win.removeEventListener('eip6963:requestProvider', announce)
}

type RegisterApi = { register(wallet: Wallet): () => void }

/**
 * The Wallet Standard's registration as `@wallet-standard/wallet`'s `registerWallet` does it: a
 * `wallet-standard:register-wallet` event for an app already listening, and the answer to every
 * `wallet-standard:app-ready` of an app that comes later.
 */
function registerWallet(win: Window, wallet: Wallet): () => void {
  const unregisters: (() => void)[] = []
  const callback = ({ register }: RegisterApi) => {
    unregisters.push(register(wallet))
  }
  const onAppReady = (event: Event) => callback((event as CustomEvent<RegisterApi>).detail)
  win.addEventListener('wallet-standard:app-ready', onAppReady)
  win.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: callback }))
  return () => {
    win.removeEventListener('wallet-standard:app-ready', onAppReady)
    for (const unregister of unregisters.splice(0)) unregister()
  }
}

type ChangeListener = (properties: {
  accounts?: readonly WalletAccount[]
  chains?: readonly string[]
}) => void

/**
 * The site's Solana wallet for the Wallet Standard: `standard:connect` (the modal's sign-in when
 * nothing is connected), `standard:events`, and the Solana signing features, each a request to
 * `getProvider(config, 'solana')`.
 *
 * @example
 * isWalletAdapterCompatibleStandardWallet(createSiteWallet(config, 'shop.example Wallet')) // true
 */
export function createSiteWallet(config: Config, name: string): Wallet {
  const provider = getProvider(config, 'solana')
  const solanaIds = () => config.$options.get().networks.filter((id) => id.startsWith('solana:'))
  const chains = () => {
    const ids = solanaIds()
    return [...ids, ...ids.flatMap((id) => (CLUSTERS[id] ? [CLUSTERS[id]] : []))] as `${string}:${string}`[]
  }
  let cached: { address: string; account: WalletAccount } | undefined
  const accounts = (): readonly WalletAccount[] => {
    const record = recordOf(config, 'solana')
    const address = record.status === 'connected' ? record.accounts[0] : undefined
    const publicKey = address ? decodeBase58(address) : null
    if (!address || !publicKey) return []
    if (cached?.address !== address)
      cached = {
        address,
        account: Object.freeze({
          address,
          publicKey,
          chains: chains(),
          features: [...SOLANA_FEATURES],
          label: name,
          icon: ICON,
        }),
      }
    return [cached.account]
  }

  const listeners = new Set<ChangeListener>()
  let last = accounts()
  config.$connections.listen(() => {
    const next = accounts()
    if (next[0] === last[0]) return
    last = next
    for (const listener of listeners) listener({ accounts: next })
  })

  /** The connected account, after the modal's sign-in when nothing is connected (closing it rejects). */
  const connect = async (): Promise<readonly WalletAccount[]> => {
    if (accounts().length === 0) await connectThroughModal(config, 'solana')
    return accounts()
  }
  /** The input's account is the connected one, and its chain (when it names one) the connection's. */
  const check = (account: WalletAccount | undefined, chain?: string) => {
    const address = accounts()[0]?.address
    if (!address || account?.address !== address)
      throw new ProviderDisconnectedError({ details: 'This account is not connected' })
    const connected = recordOf(config, 'solana').chainId ?? ''
    if (chain && chain !== connected && chain !== CLUSTERS[connected])
      throw new RpcRequestError({ code: 4901, message: `Not connected to ${chain}` })
  }
  const signMessage = async (message: Uint8Array) => {
    const signature = await provider.signMessage(message)
    return { signedMessage: message, signature }
  }

  const wallet = {
    version: '1.0.0',
    name,
    icon: ICON,
    get chains() {
      return chains()
    },
    get accounts() {
      return accounts()
    },
    [SITE_WALLET_MARK]: true,
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect(input?: { silent?: boolean }) {
          if (input?.silent) return { accounts: accounts() }
          return { accounts: await connect() }
        },
      },
      'standard:events': {
        version: '1.0.0',
        on(event: string, listener: ChangeListener) {
          if (event !== 'change') return () => {}
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        async signMessage(...inputs: { account: WalletAccount; message: Uint8Array }[]) {
          const outputs = []
          for (const input of inputs) {
            check(input.account)
            outputs.push(await signMessage(input.message))
          }
          return outputs
        },
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signTransaction(
          ...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string }[]
        ) {
          const outputs = []
          for (const input of inputs) {
            check(input.account, input.chain)
            const answer = (await provider.request({
              method: 'solana_signTransaction',
              params: { transaction: toBase64(input.transaction) },
            })) as { transaction?: unknown }
            if (typeof answer?.transaction !== 'string') throw new WalletNoTransactionError()
            outputs.push({ signedTransaction: fromBase64(answer.transaction) })
          }
          return outputs
        },
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signAndSendTransaction(
          ...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string; options?: object }[]
        ) {
          const outputs = []
          for (const input of inputs) {
            check(input.account, input.chain)
            const answer = (await provider.request({
              method: 'solana_signAndSendTransaction',
              params: {
                transaction: toBase64(input.transaction),
                ...(input.options ? { sendOptions: input.options } : {}),
              },
            })) as { signature?: unknown }
            const signature = typeof answer?.signature === 'string' ? decodeBase58(answer.signature) : null
            if (!signature) throw new WalletNoSignatureError()
            outputs.push({ signature })
          }
          return outputs
        },
      },
      'solana:signIn': {
        version: '1.0.0',
        async signIn(...inputs: SignInInput[]) {
          const outputs = []
          for (const input of inputs) {
            const [account] = await connect()
            if (!account) throw new ProviderDisconnectedError()
            if (input.address && input.address !== account.address)
              throw new UserRejectedRequestError({ details: 'The sign-in asks for another account' })
            const text = signInMessage(input, account.address, config.platform.window)
            const signed = await signMessage(new TextEncoder().encode(text))
            outputs.push({ account, ...signed, signatureType: 'ed25519' as const })
          }
          return outputs
        },
      },
    },
  }
  return wallet as unknown as Wallet
}

/** The Sign In With Solana input (all optional: the wallet fills in the domain and the address). */
interface SignInInput {
  domain?: string
  address?: string
  statement?: string
  uri?: string
  version?: string
  chainId?: string
  nonce?: string
  issuedAt?: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources?: readonly string[]
}

/**
 * The Sign In With Solana message (the ABNF of the `solana:signIn` feature, after EIP-4361): the
 * domain asks this address to sign in, then the statement and the fields the input gives.
 *
 * @example
 * signInMessage({ statement: 'Welcome' }, address, window)
 */
export function signInMessage(input: SignInInput, address: string, win: Window | undefined): string {
  const domain = input.domain ?? win?.location.host ?? ''
  let text = `${domain} wants you to sign in with your Solana account:\n${address}`
  if (input.statement) text += `\n\n${input.statement}`
  const fields: string[] = []
  if (input.uri) fields.push(`URI: ${input.uri}`)
  if (input.version) fields.push(`Version: ${input.version}`)
  if (input.chainId) fields.push(`Chain ID: ${input.chainId}`)
  if (input.nonce) fields.push(`Nonce: ${input.nonce}`)
  if (input.issuedAt) fields.push(`Issued At: ${input.issuedAt}`)
  if (input.expirationTime) fields.push(`Expiration Time: ${input.expirationTime}`)
  if (input.notBefore) fields.push(`Not Before: ${input.notBefore}`)
  if (input.requestId) fields.push(`Request ID: ${input.requestId}`)
  if (input.resources?.length)
    fields.push('Resources:', ...input.resources.map((resource) => `- ${resource}`))
  if (fields.length > 0) text += `\n\n${fields.join('\n')}`
  return text
}
