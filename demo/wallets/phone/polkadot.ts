// The Demo Phone Wallet's Polkadot account. Polkadot wallets use sr25519; this stand-in uses an
// ed25519 key (SLIP-0010 from the dev mnemonic's seed, m/44'/354'/0'/0'/0'), which Polkadot accepts
// too (MultiSignature's Ed25519 variant). polkadot_signMessage signs `<Bytes>message</Bytes>` as
// browser extensions do; polkadot_signTransaction signs the SCALE-encoded payload (its BLAKE2b-256
// hash when over 256 bytes). Signatures carry the MultiSignature type byte (0x00, ed25519).
import { ed25519 } from '@noble/curves/ed25519'
import { blake2b } from '@noble/hashes/blake2'
import { hmac } from '@noble/hashes/hmac'
import { sha512 } from '@noble/hashes/sha2'
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base58 } from '@scure/base'
import { INVALID_PARAMS, UNAUTHORIZED, WalletRpcError } from './errors.ts'
import { shorten } from './readable.ts'
import { type NamespaceSigner, paramsObject } from './signer.ts'

export const POLKADOT_PATH = "m/44'/354'/0'/0'/0'"
/** SS58 address prefixes of the relay chains this wallet knows (CAIP-2 reference -> prefix). */
const SS58_PREFIX: Record<string, number> = {
  '91b171bb158e2d3848fa23a9f1c25182': 0, // Polkadot
  b0a8d493285c2df73290dfb7e61f870f: 2, // Kusama
  e143f23803ac50e8f6f8e62695d1ce9e: 42, // Westend
}

/** SLIP-0010 ed25519 derivation (hardened steps only). */
function slip10(seed: Uint8Array, path: string): Uint8Array {
  let digest = hmac(sha512, utf8ToBytes('ed25519 seed'), seed)
  for (const step of path.split('/').slice(1)) {
    const index = (Number.parseInt(step, 10) | 0x80000000) >>> 0
    const data = concatBytes(
      Uint8Array.of(0),
      digest.slice(0, 32),
      Uint8Array.of(index >>> 24, (index >>> 16) & 0xff, (index >>> 8) & 0xff, index & 0xff),
    )
    digest = hmac(sha512, digest.slice(32), data)
  }
  return digest.slice(0, 32)
}

/** An SS58 address (one-byte prefix) of a 32-byte public key. */
export function ss58(publicKey: Uint8Array, prefix: number): string {
  const body = concatBytes(Uint8Array.of(prefix), publicKey)
  const checksum = blake2b(concatBytes(utf8ToBytes('SS58PRE'), body), { dkLen: 64 }).slice(0, 2)
  return base58.encode(concatBytes(body, checksum))
}

/** SCALE compact encoding of a non-negative integer. */
export function compact(value: bigint): Uint8Array {
  if (value < 1n << 6n) return Uint8Array.of(Number(value << 2n))
  if (value < 1n << 14n) {
    const n = Number((value << 2n) | 1n)
    return Uint8Array.of(n & 0xff, n >> 8)
  }
  if (value < 1n << 30n) {
    const n = Number((value << 2n) | 2n)
    return Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24)
  }
  const bytes: number[] = []
  for (let rest = value; rest > 0n; rest >>= 8n) bytes.push(Number(rest & 0xffn))
  return Uint8Array.of(((bytes.length - 4) << 2) | 3, ...bytes)
}

const u32 = (value: bigint) => {
  const n = Number(value)
  return Uint8Array.of(n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24)
}

const hexField = (fields: Record<string, unknown>, name: string): Uint8Array => {
  const value = fields[name]
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))
    throw new WalletRpcError(INVALID_PARAMS, `transactionPayload.${name} must be hex`)
  return hexToBytes(value.slice(2))
}

/**
 * The bytes a Polkadot signer signs for a SignerPayloadJSON: method, era, nonce and tip (compact),
 * spec and transaction versions (u32), genesis and block hashes; BLAKE2b-256 of them when over 256 bytes.
 *
 * @example
 * const bytes = signingPayload(request.transactionPayload)
 */
export function signingPayload(fields: Record<string, unknown>): Uint8Array {
  const number = (name: string) => BigInt(`0x${bytesToHex(hexField(fields, name)) || '0'}`)
  const payload = concatBytes(
    hexField(fields, 'method'),
    hexField(fields, 'era'),
    compact(number('nonce')),
    compact(number('tip')),
    u32(number('specVersion')),
    u32(number('transactionVersion')),
    hexField(fields, 'genesisHash'),
    hexField(fields, 'blockHash'),
  )
  return payload.length > 256 ? blake2b(payload, { dkLen: 32 }) : payload
}

/** The message bytes polkadot_signMessage signs: hex as its bytes, text as UTF-8, wrapped in <Bytes>. */
export function wrappedMessage(message: string): Uint8Array {
  const bytes = /^0x([0-9a-fA-F]{2})*$/.test(message) ? hexToBytes(message.slice(2)) : utf8ToBytes(message)
  return concatBytes(utf8ToBytes('<Bytes>'), bytes, utf8ToBytes('</Bytes>'))
}

/**
 * The wallet's polkadot namespace: its ed25519 account from the dev mnemonic's seed.
 *
 * @example
 * polkadotSigner(seed).addressOn('polkadot:91b171bb158e2d3848fa23a9f1c25182') // '1…'
 */
export function polkadotSigner(seed: Uint8Array): NamespaceSigner {
  const privateKey = slip10(seed, POLKADOT_PATH)
  const publicKey = ed25519.getPublicKey(privateKey)
  const addresses = new Set(Object.values(SS58_PREFIX).map((prefix) => ss58(publicKey, prefix)))
  const sign = (bytes: Uint8Array) => `0x00${bytesToHex(ed25519.sign(bytes, privateKey))}`
  const checkAddress = (value: unknown) => {
    if (typeof value !== 'string' || !addresses.has(value))
      throw new WalletRpcError(UNAUTHORIZED, `${String(value)} is not this wallet's account`)
  }

  return {
    namespace: 'polkadot',
    addressOn: (chain) => {
      const prefix = SS58_PREFIX[chain.split(':')[1] ?? '']
      return chain.startsWith('polkadot:') && prefix !== undefined ? ss58(publicKey, prefix) : undefined
    },
    methods: ['polkadot_signMessage', 'polkadot_signTransaction'],
    events: [],
    actionFor(method, params, chainId, id) {
      const fields = paramsObject(params)
      if (method === 'polkadot_signMessage') {
        checkAddress(fields.address)
        const { message } = fields
        if (typeof message !== 'string')
          throw new WalletRpcError(INVALID_PARAMS, 'polkadot_signMessage needs a message')
        return {
          summary: [
            { label: 'Message', value: message },
            { label: 'Signer', value: String(fields.address) },
          ],
          run: async () => ({ signature: sign(wrappedMessage(message)) }),
        }
      }
      if (method === 'polkadot_signTransaction') {
        checkAddress(fields.address)
        const payload = paramsObject(fields.transactionPayload)
        const bytes = signingPayload(payload)
        return {
          summary: [
            { label: 'Network', value: chainId },
            { label: 'Call', value: shorten(String(payload.method)) },
            { label: 'Signer', value: String(fields.address) },
          ],
          run: async () => ({ id, signature: sign(bytes) }),
        }
      }
      return undefined
    },
  }
}
