// The Demo Phone Wallet's Bitcoin account on the local regtest network: BIP-84 (native segwit,
// m/84'/1'/0'/0/0) from the dev mnemonic, the node's dev address 0 (funded at start). getAccountAddresses,
// signMessage (BIP-137 ECDSA, the segwit header), signPsbt (inputs of this key; finalized and broadcast to
// the regtest node with `broadcast: true`) and sendTransfer (phone/bip122-transfer.ts: a payment built
// from the node's coins, signed and broadcast).
import { secp256k1 } from '@noble/curves/secp256k1'
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base64 } from '@scure/base'
import type { HDKey } from '@scure/bip32'
import * as btc from '@scure/btc-signer'
import { BITCOIN_NETWORKS } from '../../../src/protocol/bitcoinNetworks.ts'
import { bitcoinMessageHash } from '../../../src/protocol/embedded/bitcoinSigner.ts'
import {
  type Bip122Account,
  type Bip122Node,
  type Bip122NodeOptions,
  broadcast as broadcastTo,
  paymentSummary,
  REGTEST,
} from './bip122-payment.ts'
import { sendTransferAction } from './bip122-transfer.ts'
import { INVALID_INPUT, INVALID_PARAMS, UNAUTHORIZED, WalletRpcError } from './errors.ts'
import { display } from './readable.ts'
import { type NamespaceSigner, paramsObject } from './signer.ts'

export type { Bip122NodeOptions } from './bip122-payment.ts'

/** CAIP-2 id of the local regtest network (its genesis hash, first 32 hex characters). */
export const REGTEST_CHAIN = BITCOIN_NETWORKS.regtest.caipNetworkId
export const BIP84_REGTEST_PATH = "m/84'/1'/0'/0/0"

export { bitcoinMessageHash } from '../../../src/protocol/embedded/bitcoinSigner.ts'

/**
 * The wallet's bip122 namespace: its regtest P2WPKH account from the dev mnemonic's root, with the
 * regtest node it pays through.
 *
 * @example
 * const signer = bip122Signer(HDKey.fromMasterSeed(seed), { nodeUrl: 'http://127.0.0.1:8794' })
 * signer.addressOn(REGTEST_CHAIN) // 'bcrt1q…'
 */
export function bip122Signer(root: HDKey, options: Bip122NodeOptions = {}): NamespaceSigner {
  const key = root.derive(BIP84_REGTEST_PATH)
  const privateKey = key.privateKey as Uint8Array
  const publicKey = key.publicKey as Uint8Array
  const address = btc.p2wpkh(publicKey, REGTEST).address as string
  const node: Bip122Node = {
    url: options.nodeUrl ?? 'http://127.0.0.1:8794',
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  }
  const account = { address, privateKey, node }

  const checkAccount = (fields: Record<string, unknown>) => {
    const asked = fields.account ?? fields.address
    if (asked !== undefined && asked !== address)
      throw new WalletRpcError(UNAUTHORIZED, `${String(asked)} is not this wallet's account`)
  }

  return {
    namespace: 'bip122',
    addressOn: (chain) => (chain === REGTEST_CHAIN ? address : undefined),
    methods: ['getAccountAddresses', 'signMessage', 'signPsbt', 'sendTransfer'],
    events: ['bip122_addressesChanged'],
    actionFor(method, params) {
      const fields = paramsObject(params)
      switch (method) {
        case 'getAccountAddresses':
          checkAccount(fields)
          return {
            summary: [{ label: 'Share addresses', value: address }],
            run: async () => [
              { address, publicKey: bytesToHex(publicKey), path: BIP84_REGTEST_PATH, intention: 'payment' },
            ],
          }
        case 'signMessage': {
          checkAccount(fields)
          const { message, protocol } = fields
          if (typeof message !== 'string')
            throw new WalletRpcError(INVALID_PARAMS, 'signMessage needs a message')
          if (protocol !== undefined && protocol !== 'ecdsa')
            throw new WalletRpcError(INVALID_PARAMS, `This wallet signs with ecdsa, not ${String(protocol)}`)
          return {
            summary: [
              { label: 'Message', value: message },
              { label: 'Signer', value: address },
            ],
            run: async () => {
              const hash = bitcoinMessageHash(utf8ToBytes(message))
              const signature = secp256k1.sign(hash, privateKey)
              // BIP-137: header 39-42 for a P2WPKH address, then r ‖ s.
              const header = Uint8Array.of(39 + signature.recovery)
              return {
                address,
                signature: base64.encode(concatBytes(header, signature.toCompactRawBytes())),
                messageHash: bytesToHex(hash),
              }
            },
          }
        }
        case 'signPsbt':
          checkAccount(fields)
          return signPsbtAction(account, fields)
        case 'sendTransfer':
          checkAccount(fields)
          return sendTransferAction(account, fields)
        default:
          return undefined
      }
    },
  }
}

/**
 * signPsbt: the inputs named in `signInputs` (all of them when absent) must be this account's; the
 * summary lists the outputs and fee as they will be signed. With `broadcast: true` the signed inputs
 * are finalized and the transaction sent to the node; the answer then carries its `txid`.
 */
function signPsbtAction({ address, privateKey, node }: Bip122Account, fields: Record<string, unknown>) {
  const { psbt, signInputs, broadcast } = fields
  if (typeof psbt !== 'string') throw new WalletRpcError(INVALID_INPUT, 'signPsbt needs a psbt (base64)')
  if (broadcast !== undefined && typeof broadcast !== 'boolean')
    throw new WalletRpcError(INVALID_INPUT, 'broadcast is true or false')
  let tx: btc.Transaction
  try {
    tx = btc.Transaction.fromPSBT(base64.decode(psbt))
  } catch {
    throw new WalletRpcError(INVALID_INPUT, 'The psbt is not a valid PSBT')
  }
  if (signInputs !== undefined && !Array.isArray(signInputs))
    throw new WalletRpcError(INVALID_INPUT, 'signInputs is a list of { address, index }')
  const indexes = signInputs
    ? signInputs.map((input) => {
        const entry = (input ?? {}) as { address?: unknown; index?: unknown }
        if (entry.address !== undefined && entry.address !== address)
          throw new WalletRpcError(UNAUTHORIZED, `${display(entry.address, 80)} is not this wallet's address`)
        return Number(entry.index)
      })
    : [...Array(tx.inputsLength).keys()]
  const ours = btc.OutScript.encode(btc.Address(REGTEST).decode(address))
  for (const index of indexes) {
    if (!Number.isInteger(index) || index < 0 || index >= tx.inputsLength)
      throw new WalletRpcError(INVALID_INPUT, `The psbt has no input ${index}`)
    const script = tx.getInput(index).witnessUtxo?.script
    if (!script || bytesToHex(script) !== bytesToHex(ours))
      throw new WalletRpcError(INVALID_INPUT, `Input ${index} is not spent by ${address}`)
  }
  return {
    summary: [
      ...paymentSummary(tx, address),
      { label: 'Inputs to sign', value: indexes.join(', ') },
      { label: 'Broadcast', value: broadcast ? 'Yes, to the regtest node' : 'No (signed only)' },
      { label: 'Signer', value: address },
    ],
    run: async () => {
      for (const index of indexes) tx.signIdx(privateKey, index)
      if (!broadcast) return { psbt: base64.encode(tx.toPSBT()) }
      for (const index of indexes) tx.finalizeIdx(index)
      const txid = await broadcastTo(node, tx)
      return { psbt: base64.encode(tx.toPSBT()), txid }
    },
  }
}
