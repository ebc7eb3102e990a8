/**
 * Signing with the user's secp256k1 key as bytes. The key comes from `custody.withKey` as a
 * `Uint8Array` that custody zeroes after the call; it is handed to `@noble/curves` as those bytes and
 * never turned into a hex string (`privateKeyToAccount(bytesToHex(secret))` made immutable string
 * copies that nothing can zero). viem only hashes and serializes here; the key never reaches it.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import {
  type Address,
  getAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  keccak256,
  type LocalAccount,
  type SignableMessage,
  serializeTransaction,
  type TransactionSerializable,
  type TypedDataDefinition,
} from 'viem'
import { toAccount } from 'viem/accounts'

/** The signature of a 32-byte hash as r, s and the recovery bit. */
function signDigest(hash: Hex, secret: Uint8Array) {
  const digest = hexToBytes(hash)
  try {
    const signature = secp256k1.sign(digest, secret, { lowS: true, extraEntropy: false })
    return {
      r: `0x${signature.r.toString(16).padStart(64, '0')}` as Hex,
      s: `0x${signature.s.toString(16).padStart(64, '0')}` as Hex,
      yParity: signature.recovery,
    }
  } finally {
    digest.fill(0)
  }
}

/** A 65-byte signature (r, s, v = 27 or 28) of a 32-byte hash. */
export function signHash(hash: Hex, secret: Uint8Array): Hex {
  const { r, s, yParity } = signDigest(hash, secret)
  return `0x${r.slice(2)}${s.slice(2)}${yParity ? '1c' : '1b'}`
}

/**
 * The EVM address of a secp256k1 key given as bytes.
 *
 * @example
 * evmAddressOf(secret) // '0xf39F…'
 */
export function evmAddressOf(secret: Uint8Array): Address {
  const point = secp256k1.getPublicKey(secret, false)
  return getAddress(`0x${keccak256(point.subarray(1)).slice(-40)}`)
}

/**
 * An EIP-191 signature of `message` (`personal_sign`).
 *
 * @example
 * signEvmMessage({ raw: bytes }, secret)
 */
export const signEvmMessage = (message: SignableMessage, secret: Uint8Array): Hex =>
  signHash(hashMessage(message), secret)

/**
 * An EIP-712 signature of typed data.
 *
 * @example
 * signEvmTypedData({ domain, types, primaryType, message }, secret)
 */
export const signEvmTypedData = (typedData: TypedDataDefinition, secret: Uint8Array): Hex =>
  signHash(hashTypedData(typedData), secret)

/**
 * A signed, serialized transaction.
 *
 * @example
 * const raw = signEvmTransaction({ chainId: 1, to, value, type: 'eip1559', ... }, secret)
 */
export function signEvmTransaction(transaction: TransactionSerializable, secret: Uint8Array): Hex {
  const signature = signDigest(keccak256(serializeTransaction(transaction)), secret)
  return serializeTransaction(transaction, signature)
}

/**
 * A viem account over the key bytes, for code that wants an owner account (the smart account's
 * UserOperation signatures). Valid only inside the `custody.withKey` call that gave `secret`.
 *
 * @example
 * await custody.withKey(userId, 'secp256k1', (secret) => toWalletAccount({ client, owner: byteAccount(secret) }))
 */
export function byteAccount(secret: Uint8Array): LocalAccount {
  const account = toAccount({
    address: evmAddressOf(secret),
    signMessage: async ({ message }) => signEvmMessage(message, secret),
    signTypedData: async (typedData) => signEvmTypedData(typedData as TypedDataDefinition, secret),
    signTransaction: async (transaction) => signEvmTransaction(transaction, secret),
  })
  return { ...account, sign: async ({ hash }) => signHash(hash, secret) }
}
