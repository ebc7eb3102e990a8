// The Demo Phone Wallet's Cosmos account: secp256k1 at m/44'/118'/0'/0/0 of the dev mnemonic.
// cosmos_signDirect signs the SHA-256 of the protobuf SignDoc; cosmos_signAmino the SHA-256 of the
// sign doc's canonical JSON (keys sorted, <>& escaped as the Cosmos SDK does).
import { secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base64, bech32 } from '@scure/base'
import type { HDKey } from '@scure/bip32'
import { INVALID_PARAMS, UNAUTHORIZED, WalletRpcError } from './errors.ts'
import { type NamespaceSigner, paramsObject } from './signer.ts'

export const COSMOS_PATH = "m/44'/118'/0'/0/0"
/** Bech32 prefixes of the chains this wallet knows (CAIP-2 reference -> prefix). */
const PREFIX: Record<string, string> = { 'cosmoshub-4': 'cosmos', provider: 'cosmos', 'osmosis-1': 'osmo' }

const varint = (value: bigint): Uint8Array => {
  const bytes: number[] = []
  let rest = value
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80)
    rest >>= 7n
  }
  bytes.push(Number(rest))
  return Uint8Array.from(bytes)
}
const field = (tag: number, bytes: Uint8Array) =>
  bytes.length === 0 ? new Uint8Array() : concatBytes(Uint8Array.of(tag), varint(BigInt(bytes.length)), bytes)

/**
 * The protobuf encoding of a SignDoc (body_bytes = 1, auth_info_bytes = 2, chain_id = 3,
 * account_number = 4; proto3 leaves out empty fields).
 *
 * @example
 * signDocBytes({ bodyBytes, authInfoBytes, chainId: 'cosmoshub-4', accountNumber: 7n })
 */
export function signDocBytes(doc: {
  bodyBytes: Uint8Array
  authInfoBytes: Uint8Array
  chainId: string
  accountNumber: bigint
}): Uint8Array {
  return concatBytes(
    field(0x0a, doc.bodyBytes),
    field(0x12, doc.authInfoBytes),
    field(0x1a, utf8ToBytes(doc.chainId)),
    doc.accountNumber === 0n ? new Uint8Array() : concatBytes(Uint8Array.of(0x20), varint(doc.accountNumber)),
  )
}

const sortKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortKeys)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
        )
      : value

/** The canonical JSON of an amino sign doc, as bytes. */
export function aminoSignBytes(doc: unknown): Uint8Array {
  const json = JSON.stringify(sortKeys(doc))
    .replace(/&/g, '\\u0026')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
  return utf8ToBytes(json)
}

const base64Field = (fields: Record<string, unknown>, name: string): Uint8Array => {
  const value = fields[name]
  try {
    if (typeof value === 'string') return base64.decode(value)
  } catch {}
  throw new WalletRpcError(INVALID_PARAMS, `signDoc.${name} must be base64`)
}

/**
 * The wallet's cosmos namespace: its secp256k1 account from the dev mnemonic's root.
 *
 * @example
 * cosmosSigner(root).addressOn('cosmos:cosmoshub-4') // 'cosmos1…'
 */
export function cosmosSigner(root: HDKey): NamespaceSigner {
  const key = root.derive(COSMOS_PATH)
  const privateKey = key.privateKey as Uint8Array
  const publicKey = key.publicKey as Uint8Array
  const hash = ripemd160(sha256(publicKey))
  const addressFor = (prefix: string) => bech32.encode(prefix, bech32.toWords(hash))
  const addresses = new Set<string>(Object.values(PREFIX).map(addressFor))
  const pubKey = { type: 'tendermint/PubKeySecp256k1', value: base64.encode(publicKey) }
  const sign = (bytes: Uint8Array) => ({
    pub_key: pubKey,
    signature: base64.encode(secp256k1.sign(sha256(bytes), privateKey).toCompactRawBytes()),
  })
  const checkSigner = (value: unknown) => {
    if (typeof value !== 'string' || !addresses.has(value))
      throw new WalletRpcError(UNAUTHORIZED, `${String(value)} is not this wallet's account`)
  }

  return {
    namespace: 'cosmos',
    addressOn: (chain) => {
      const prefix = PREFIX[chain.split(':')[1] ?? '']
      return chain.startsWith('cosmos:') && prefix ? addressFor(prefix) : undefined
    },
    methods: ['cosmos_getAccounts', 'cosmos_signDirect', 'cosmos_signAmino'],
    events: [],
    actionFor(method, params, chainId) {
      const fields = paramsObject(params)
      switch (method) {
        case 'cosmos_getAccounts': {
          const address = addressFor(PREFIX[chainId.split(':')[1] ?? ''] ?? 'cosmos')
          return {
            summary: [{ label: 'Share account', value: address }],
            run: async () => [{ algo: 'secp256k1', address, pubkey: pubKey.value }],
          }
        }
        case 'cosmos_signDirect': {
          checkSigner(fields.signerAddress)
          const doc = paramsObject(fields.signDoc)
          const chain = String(doc.chainId ?? '')
          let accountNumber: bigint
          try {
            accountNumber = BigInt(String(doc.accountNumber ?? '0'))
          } catch {
            throw new WalletRpcError(INVALID_PARAMS, 'signDoc.accountNumber must be an integer')
          }
          const bytes = signDocBytes({
            bodyBytes: base64Field(doc, 'bodyBytes'),
            authInfoBytes: base64Field(doc, 'authInfoBytes'),
            chainId: chain,
            accountNumber,
          })
          return {
            summary: [
              { label: 'Chain', value: chain },
              { label: 'Account number', value: accountNumber.toString() },
              { label: 'Signer', value: String(fields.signerAddress) },
            ],
            run: async () => ({ signature: sign(bytes), signed: doc }),
          }
        }
        case 'cosmos_signAmino': {
          checkSigner(fields.signerAddress)
          const doc = paramsObject(fields.signDoc)
          return {
            summary: [
              { label: 'Chain', value: String(doc.chain_id ?? '') },
              { label: 'Memo', value: String(doc.memo ?? '') },
              { label: 'Signer', value: String(fields.signerAddress) },
            ],
            run: async () => ({ signature: sign(aminoSignBytes(doc)), signed: doc }),
          }
        }
        default:
          return undefined
      }
    },
  }
}
