// The Demo Phone Wallet's Bitcoin account on the local regtest network: BIP-84 (native segwit,
// m/84'/1'/0'/0/0) from the dev mnemonic. getAccountAddresses, signMessage (BIP-137 ECDSA, the
// segwit header) and signPsbt (inputs of this key; no broadcast). sendTransfer is not offered: the
// wallet reads no node.
import { secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha2'
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base64 } from '@scure/base'
import type { HDKey } from '@scure/bip32'
import * as btc from '@scure/btc-signer'
import { BITCOIN_NETWORKS, btcSignerNetwork } from '../../../src/protocol/bitcoinNetworks.ts'
import { INVALID_PARAMS, UNAUTHORIZED, WalletRpcError } from './errors.ts'
import { shorten } from './readable.ts'
import { type NamespaceSigner, paramsObject } from './signer.ts'

/** CAIP-2 id of the local regtest network (its genesis hash, first 32 hex characters). */
export const REGTEST_CHAIN = BITCOIN_NETWORKS.regtest.caipNetworkId
const REGTEST = btcSignerNetwork('regtest')
export const BIP84_REGTEST_PATH = "m/84'/1'/0'/0/0"

/** BIP-137's message hash: double SHA-256 of the prefixed, length-prefixed message. */
export function bitcoinMessageHash(message: Uint8Array): Uint8Array {
  const varint = (n: number) => (n < 0xfd ? Uint8Array.of(n) : Uint8Array.of(0xfd, n & 0xff, (n >> 8) & 0xff))
  const prefix = utf8ToBytes('Bitcoin Signed Message:\n')
  return sha256(sha256(concatBytes(varint(prefix.length), prefix, varint(message.length), message)))
}

/**
 * The wallet's bip122 namespace: its regtest P2WPKH account from the dev mnemonic's root.
 *
 * @example
 * const signer = bip122Signer(HDKey.fromMasterSeed(seed))
 * signer.addressOn(REGTEST_CHAIN) // 'bcrt1q…'
 */
export function bip122Signer(root: HDKey): NamespaceSigner {
  const key = root.derive(BIP84_REGTEST_PATH)
  const privateKey = key.privateKey as Uint8Array
  const publicKey = key.publicKey as Uint8Array
  const address = btc.p2wpkh(publicKey, REGTEST).address as string

  const checkAccount = (fields: Record<string, unknown>) => {
    const account = fields.account ?? fields.address
    if (account !== undefined && account !== address)
      throw new WalletRpcError(UNAUTHORIZED, `${String(account)} is not this wallet's account`)
  }

  return {
    namespace: 'bip122',
    addressOn: (chain) => (chain === REGTEST_CHAIN ? address : undefined),
    methods: ['getAccountAddresses', 'signMessage', 'signPsbt'],
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
        case 'signPsbt': {
          checkAccount(fields)
          const { psbt, signInputs, broadcast } = fields
          if (typeof psbt !== 'string')
            throw new WalletRpcError(INVALID_PARAMS, 'signPsbt needs a psbt (base64)')
          if (broadcast === true) throw new WalletRpcError(INVALID_PARAMS, 'This wallet does not broadcast')
          let tx: btc.Transaction
          try {
            tx = btc.Transaction.fromPSBT(base64.decode(psbt))
          } catch {
            throw new WalletRpcError(INVALID_PARAMS, 'The psbt is not a valid PSBT')
          }
          const indexes = Array.isArray(signInputs)
            ? signInputs.map((input) => Number((input as { index?: unknown }).index))
            : [...Array(tx.inputsLength).keys()]
          return {
            summary: [
              { label: 'PSBT', value: shorten(psbt) },
              { label: 'Inputs to sign', value: indexes.join(', ') },
              { label: 'Signer', value: address },
            ],
            run: async () => {
              for (const index of indexes) tx.signIdx(privateKey, index)
              return { psbt: base64.encode(tx.toPSBT()) }
            },
          }
        }
        default:
          return undefined
      }
    },
  }
}
