/**
 * A viem account over the user's secp256k1 key as bytes, for the smart-account paths that still sign
 * through viem's bundler client inside `custody.withKey`. The key goes to the one signer's primitives
 * (src/protocol/embedded/signer.ts) as those bytes and is never turned into a hex string.
 */
import {
  hashMessage,
  hashTypedData,
  keccak256,
  type LocalAccount,
  parseSignature,
  serializeTransaction,
  type TypedDataDefinition,
} from 'viem'
import { toAccount } from 'viem/accounts'
import { evmAddressOf, signHash } from '../../src/protocol/embedded/signer.ts'

export { evmAddressOf, signHash }

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
    signMessage: async ({ message }) => signHash(hashMessage(message), secret),
    signTypedData: async (typedData) => signHash(hashTypedData(typedData as TypedDataDefinition), secret),
    signTransaction: async (transaction) =>
      serializeTransaction(
        transaction,
        parseSignature(signHash(keccak256(serializeTransaction(transaction)), secret)),
      ),
  })
  return { ...account, sign: async ({ hash }) => signHash(hash, secret) }
}
