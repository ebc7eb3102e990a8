/**
 * The Demo Wallet's Bitcoin side, a stand-in for a Bitcoin browser extension: dev key N of the test
 * mnemonic along BIP-84 (`m/84'/1'/0'/0/N`, native segwit `bcrt1q…`, the addresses the local regtest node
 * funds), on regtest only. It signs locally with `@scure/btc-signer`, asks the Demo Wallet's prompt before
 * anything that needs consent, and broadcasts to the regtest node.
 *
 * It is found two ways, under the Demo Wallet's name:
 * - the Wallet Standard, with the Bitcoin extension's features (`bitcoin:connect`, `bitcoin:signMessage`,
 *   `bitcoin:signTransaction` on PSBT bytes, `bitcoin:signAndSendTransaction`) and `standard:disconnect`,
 *   `standard:events`;
 * - the WBIP004 registry (`window.wbip_providers`, provider at `window.DemoWalletBitcoin`), answering
 *   sats-connect-style `request(method, params)` with a JSON-RPC response: `getAddresses`,
 *   `wallet_getAccount`, `signMessage`, `signPsbt`, `sendTransfer`, `wallet_disconnect`.
 *
 * Messages are signed the legacy way (BIP-137: the "Bitcoin Signed Message" hash, a compact recoverable
 * ECDSA signature with the segwit P2WPKH header, base64). Rejections are `{ code: 4001 }`.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hex } from '@scure/base'
import { Address, OutScript, p2wpkh, Transaction } from '@scure/btc-signer'
import type { IdentifierString, Wallet, WalletAccount } from '@wallet-standard/base'
import { devKey, REGTEST_NETWORK } from '../../server/dev/bitcoin/keys.ts'
import { broadcastTransaction, readFeeRates, readUtxos } from '../../src/chains/bip122/node.ts'
import { buildPaymentPsbt } from '../../src/chains/bip122/psbt.ts'
import { bitcoinMessageHash } from '../../src/protocol/embedded/bitcoinSigner.ts'
import { DemoWalletRpcError, ErrorCodes, invalidParams, unauthorized, userRejected } from './errors.ts'
import { DEMO_WALLET_ICON, DEMO_WALLET_NAME } from './identity.ts'
import { notifyAll } from './listeners.ts'
import type { PromptRequest } from './prompt.ts'
import { createSiteAuthorization } from './site-authorization.ts'

export { registerSolanaWallet as registerStandardWallet } from './solana/register.ts'

/** Where the Bitcoin side keeps the origins it has connected (a JSON array). */
export const BITCOIN_AUTHORIZED_KEY = 'demo-wallet/bitcoin-authorized'
/** The WBIP004 provider's path on `window`. */
export const WBIP_PROVIDER_ID = 'DemoWalletBitcoin'
/** The only chain the wallet serves. */
export const REGTEST_CHAIN = 'bitcoin:regtest' satisfies IdentifierString

const CHAINS = Object.freeze([REGTEST_CHAIN] as IdentifierString[])
const ACCOUNT_FEATURES = [
  'bitcoin:signMessage',
  'bitcoin:signTransaction',
  'bitcoin:signAndSendTransaction',
] as const satisfies readonly IdentifierString[]

type InputToSign = { account: WalletAccount; signingIndexes: readonly number[]; sigHash?: number }
type SignTransactionInput = { psbt: Uint8Array; inputsToSign: readonly InputToSign[]; chain?: string }
type ChangeListener = (properties: { accounts?: readonly WalletAccount[] }) => void

/** A WBIP004 registry entry. */
export type WbipProviderInfo = { id: string; name: string; icon: string; methods: string[] }
/** The WBIP004 provider object. */
export type WbipProvider = { request(method: string, params?: unknown): Promise<unknown> }

/**
 * Test controls of the Bitcoin side, on `window.demoWallet.bitcoin`.
 *
 * @example
 * await page.evaluate(() => window.demoWallet?.bitcoin?.address)
 */
export type BitcoinWalletControls = {
  /** The current dev key's address (`bcrt1q…`). */
  readonly address: string
  readonly authorized: boolean
  /** Uses dev key `index`; emits `change` when the page is connected. */
  switchAccount(index: number): void
  /** Forgets the page's authorization; emits `change` with `accounts: []`. */
  disconnect(): void
  /** Forgets every origin's authorization, without events. */
  reset(): void
}

export type CreateBitcoinWalletParameters = {
  origin: string
  accountIndex?: number
  /** The regtest node's URL (default `http://127.0.0.1:8794`). */
  nodeUrl?: string
  storage?: Storage | undefined
  ask: (request: PromptRequest) => Promise<boolean>
  fetch?: typeof fetch
}

/**
 * Builds the Bitcoin side without registering it: the Wallet Standard wallet, the WBIP004 provider and its
 * registry entry, and the test controls.
 *
 * @example
 * const { wallet, provider, info } = createBitcoinWallet({ origin: location.origin, ask: async () => true })
 */
export function createBitcoinWallet(parameters: CreateBitcoinWalletParameters) {
  const { origin, storage } = parameters
  const nodeUrl = parameters.nodeUrl ?? 'http://127.0.0.1:8794'
  const doFetch = parameters.fetch ?? ((input, init) => globalThis.fetch(input, init))
  let key = devKey(parameters.accountIndex ?? 0)
  let account = toWalletAccount(key.address, key.publicKey)

  const ask = async (request: PromptRequest) => {
    if (!(await parameters.ask(request))) throw userRejected()
  }
  const listeners = new Set<ChangeListener>()
  const emit = (properties: { accounts?: readonly WalletAccount[] }) => notifyAll(listeners, properties)
  const sites = createSiteAuthorization({ origin, storage, key: BITCOIN_AUTHORIZED_KEY })
  const accounts = (): readonly WalletAccount[] => (sites.isAuthorized() ? [account] : [])
  const requireAddress = (address: unknown) => {
    if (!sites.isAuthorized()) throw unauthorized()
    if (address !== key.address)
      throw unauthorized(`The address ${String(address)} has not been authorized by the user.`)
  }

  let connecting: Promise<void> | undefined
  const connect = async (): Promise<readonly WalletAccount[]> => {
    if (!sites.isAuthorized()) {
      connecting ??= ask({
        title: `Connect to ${origin}`,
        details: [`Address ${key.address}`, 'Network Bitcoin Regtest'],
      })
        .then(() => {
          sites.authorize()
          emit({ accounts: accounts() })
        })
        .finally(() => {
          connecting = undefined
        })
      await connecting
    }
    return accounts()
  }

  const signMessage = async (address: unknown, message: Uint8Array): Promise<Uint8Array> => {
    requireAddress(address)
    await ask({
      title: 'Sign message',
      details: [new TextDecoder().decode(message), `Address ${key.address}`, `Requested by ${origin}`],
    })
    return signBip137(message, key.privateKey)
  }

  /** Checks the inputs are ours, shows the outputs, signs; finalizes when it is to be sent. */
  const signPsbt = async (
    psbt: Uint8Array,
    indexes: readonly number[],
    send: boolean,
  ): Promise<Transaction> => {
    let tx: Transaction
    try {
      tx = Transaction.fromPSBT(psbt)
    } catch (error) {
      throw invalidParams(`Not a PSBT: ${(error as Error).message}`)
    }
    const ours = p2wpkh(key.publicKey, REGTEST_NETWORK).script
    for (const index of indexes) {
      const script = tx.getInput(index)?.witnessUtxo?.script
      if (!script || hex.encode(script) !== hex.encode(ours))
        throw invalidParams(`Input ${index} is not spent by ${key.address}.`)
    }
    const outputs = Array.from({ length: tx.outputsLength }, (_, index) => {
      const output = tx.getOutput(index)
      const to = output.script ? Address(REGTEST_NETWORK).encode(OutScript.decode(output.script)) : '?'
      return `${formatBtc(output.amount ?? 0n)} BTC to ${to}${to === key.address ? ' (change)' : ''}`
    })
    await ask({
      title: send
        ? 'Sign and send a transaction on Bitcoin Regtest'
        : 'Sign a transaction on Bitcoin Regtest',
      details: [...outputs, `Fee ${formatBtc(tx.fee)} BTC`, `Requested by ${origin}`],
    })
    for (const index of indexes) tx.signIdx(key.privateKey, index)
    if (send) tx.finalize()
    return tx
  }

  const broadcast = (tx: Transaction) => broadcastTransaction(doFetch, nodeUrl, 'regtest', tx.hex, tx.id)

  const sendTransfer = async (recipient: string, amount: bigint): Promise<string> => {
    requireAddress(key.address)
    const [utxos, rates] = await Promise.all([
      readUtxos(doFetch, nodeUrl, 'regtest', key.address),
      readFeeRates(doFetch, nodeUrl, 'regtest'),
    ])
    const built = buildPaymentPsbt({
      network: 'regtest',
      from: key.address,
      to: recipient,
      amount,
      utxos,
      feeRate: rates.normal,
    })
    return broadcast(await signPsbt(built.psbt, built.inputs, true))
  }

  // The Wallet Standard side.
  const standardInputs = (inputs: readonly InputToSign[]) =>
    inputs.flatMap((input) => {
      requireAddress(input.account?.address)
      return [...input.signingIndexes]
    })
  const wallet: Wallet = {
    version: '1.0.0',
    name: DEMO_WALLET_NAME,
    icon: DEMO_WALLET_ICON,
    chains: CHAINS,
    get accounts() {
      return accounts()
    },
    features: {
      'bitcoin:connect': { version: '1.0.0', connect: async () => ({ accounts: await connect() }) },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: async () => {
          const was = sites.isAuthorized()
          sites.forget()
          if (was) emit({ accounts: [] })
        },
      },
      'standard:events': {
        version: '1.0.0',
        on: (event: string, listener: ChangeListener) => {
          if (event !== 'change') return () => {}
          listeners.add(listener)
          return () => {
            listeners.delete(listener)
          }
        },
      },
      'bitcoin:signMessage': {
        version: '1.0.0',
        signMessage: async (...inputs: { account: WalletAccount; message: Uint8Array }[]) => {
          const outputs = []
          for (const input of inputs)
            outputs.push({
              signedMessage: input.message,
              signature: await signMessage(input.account?.address, input.message),
            })
          return outputs
        },
      },
      'bitcoin:signTransaction': {
        version: '1.0.0',
        signTransaction: async (...inputs: SignTransactionInput[]) => {
          const outputs = []
          for (const input of inputs) {
            const tx = await signPsbt(input.psbt, standardInputs(input.inputsToSign), false)
            outputs.push({ signedPsbt: tx.toPSBT() })
          }
          return outputs
        },
      },
      'bitcoin:signAndSendTransaction': {
        version: '1.0.0',
        signAndSendTransaction: async (...inputs: SignTransactionInput[]) => {
          const outputs = []
          for (const input of inputs) {
            if (input.chain !== undefined && input.chain !== REGTEST_CHAIN)
              throw invalidParams(`The Demo Wallet does not serve ${input.chain}.`)
            const tx = await signPsbt(input.psbt, standardInputs(input.inputsToSign), true)
            outputs.push({ txId: await broadcast(tx) })
          }
          return outputs
        },
      },
    },
  }

  // The WBIP004 side: sats-connect-style requests, JSON-RPC responses.
  const addresses = () => ({
    addresses: [
      {
        address: key.address,
        publicKey: hex.encode(key.publicKey),
        purpose: 'payment',
        addressType: 'p2wpkh',
      },
    ],
  })
  const answer = async (method: string, params: unknown): Promise<unknown> => {
    const input = (params ?? {}) as Record<string, unknown>
    switch (method) {
      case 'getAddresses':
        await connect()
        return addresses()
      case 'wallet_getAccount':
        if (!sites.isAuthorized()) throw unauthorized()
        return addresses()
      case 'signMessage': {
        if (typeof input.message !== 'string') throw invalidParams('signMessage needs a message string.')
        const signature = await signMessage(input.address, new TextEncoder().encode(input.message))
        return { address: key.address, signature: base64(signature) }
      }
      case 'signPsbt': {
        requireAddress(key.address)
        if (typeof input.psbt !== 'string') throw invalidParams('signPsbt needs a base64 psbt.')
        const byAddress = (input.signInputs ?? {}) as Record<string, unknown>
        const indexes = Object.entries(byAddress).flatMap(([address, list]) => {
          requireAddress(address)
          return Array.isArray(list) ? list.filter((index): index is number => Number.isInteger(index)) : []
        })
        const send = input.broadcast === true
        const tx = await signPsbt(fromBase64(input.psbt), indexes, send)
        return send ? { psbt: base64(tx.toPSBT()), txid: await broadcast(tx) } : { psbt: base64(tx.toPSBT()) }
      }
      case 'sendTransfer': {
        const [recipient] = Array.isArray(input.recipients) ? input.recipients : []
        const { address, amount } = (recipient ?? {}) as { address?: unknown; amount?: unknown }
        if (typeof address !== 'string' || !Number.isSafeInteger(amount) || (amount as number) <= 0)
          throw invalidParams('sendTransfer needs recipients: [{ address, amount }].')
        return { txid: await sendTransfer(address, BigInt(amount as number)) }
      }
      case 'wallet_disconnect':
        sites.forget()
        emit({ accounts: [] })
        return null
      default:
        throw new DemoWalletRpcError(
          ErrorCodes.unsupportedMethod,
          `The Demo Wallet does not support ${method}.`,
        )
    }
  }
  let nextId = 0
  const provider: WbipProvider = {
    async request(method, params) {
      const id = String(++nextId)
      try {
        return { jsonrpc: '2.0', id, result: await answer(method, params) }
      } catch (error) {
        const { code, message } = error as { code?: unknown; message?: unknown }
        return {
          jsonrpc: '2.0',
          id,
          error: { code: typeof code === 'number' ? code : ErrorCodes.internal, message: String(message) },
        }
      }
    },
  }
  const info: WbipProviderInfo = {
    id: WBIP_PROVIDER_ID,
    name: DEMO_WALLET_NAME,
    icon: DEMO_WALLET_ICON,
    methods: [
      'getAddresses',
      'wallet_getAccount',
      'signMessage',
      'signPsbt',
      'sendTransfer',
      'wallet_disconnect',
    ],
  }

  const controls: BitcoinWalletControls = {
    get address() {
      return key.address
    },
    get authorized() {
      return sites.isAuthorized()
    },
    switchAccount(index) {
      key = devKey(index)
      account = toWalletAccount(key.address, key.publicKey)
      if (sites.isAuthorized()) emit({ accounts: [account] })
    },
    disconnect() {
      sites.forget()
      emit({ accounts: [] })
    },
    reset() {
      sites.reset()
    },
  }
  return { wallet, provider, info, controls }
}

/**
 * Registers the WBIP004 side on a window: the provider at `window[info.id]`, its entry pushed onto
 * `window.wbip_providers` (created when missing, never replaced).
 *
 * @example
 * registerWbipProvider(window, info, provider)
 */
export function registerWbipProvider(win: Window, info: WbipProviderInfo, provider: WbipProvider): void {
  const target = win as unknown as Record<string, unknown>
  Object.defineProperty(target, info.id, { value: provider, configurable: true, writable: true })
  const list = Array.isArray(target.wbip_providers) ? (target.wbip_providers as unknown[]) : []
  target.wbip_providers = list
  list.push(info)
}

// Helpers

function toWalletAccount(address: string, publicKey: Uint8Array): WalletAccount {
  return Object.freeze({ address, publicKey, chains: CHAINS, features: ACCOUNT_FEATURES })
}

/** BIP-137: a 65-byte compact signature whose header (39 + recovery id) marks a P2WPKH address. */
function signBip137(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const signature = secp256k1.sign(bitcoinMessageHash(message), privateKey, { prehash: false })
  const out = new Uint8Array(65)
  out[0] = 39 + signature.recovery
  out.set(signature.toCompactRawBytes(), 1)
  return out
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
function fromBase64(text: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
  } catch {
    throw invalidParams('The psbt is not base64.')
  }
}

function formatBtc(sats: bigint): string {
  const whole = sats / 100_000_000n
  const fraction = (sats % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}
