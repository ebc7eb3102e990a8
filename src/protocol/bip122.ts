import * as z from 'zod/mini'

// Answers of WalletConnect's bip122 methods: the names every Bitcoin connection answers
// (`getProvider('bip122')`). Amounts in satoshis as decimal strings; PSBTs base64.

const Base64Schema = z.string().check(z.regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'Invalid base64' }))

/**
 * `getAccountAddresses`'s answer: the account's addresses, the first external one first.
 *
 * @example
 * Bip122AddressesSchema.parse([{ address: 'bcrt1q…', publicKey: '02ab…', path: "m/84'/1'/0'/0/0", intention: 'payment' }])
 */
export const Bip122AddressesSchema = z.array(
  z.object({
    address: z.string().check(z.minLength(1)),
    publicKey: z.optional(z.string()),
    path: z.optional(z.string()),
    intention: z.optional(z.string()),
  }),
)

/**
 * `signMessage`'s answer: the signing address and the signature (base64: BIP-137 for ecdsa,
 * BIP-322 for bip322), with the message's hash when the wallet gives it.
 *
 * @example
 * Bip122SignMessageResultSchema.parse({ address: 'bcrt1q…', signature: 'J+…' })
 */
export const Bip122SignMessageResultSchema = z.object({
  address: z.string().check(z.minLength(1)),
  signature: Base64Schema,
  messageHash: z.optional(z.string()),
})

/**
 * `signPsbt`'s answer: the signed PSBT (base64), and the transaction id when the wallet broadcast it.
 *
 * @example
 * Bip122SignPsbtResultSchema.parse({ psbt: 'cHNidP8B…' })
 */
export const Bip122SignPsbtResultSchema = z.object({ psbt: Base64Schema, txid: z.optional(z.string()) })

/**
 * `sendTransfer`'s answer: the id of the transaction the wallet sent.
 *
 * @example
 * Bip122SendTransferResultSchema.parse({ txid: 'f4184fc5…' })
 */
export const Bip122SendTransferResultSchema = z.object({
  txid: z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, { error: 'Invalid transaction id' })),
})
