/**
 * The `bip122` (Bitcoin) requests every connection answers, whatever the way in (a browser wallet, a
 * WalletConnect session, the embedded wallet): WalletConnect's Bitcoin JSON-RPC methods, with the same
 * names and shapes. Amounts are satoshis as decimal strings, PSBTs base64, transaction ids hex.
 *
 * - `getAccountAddresses` `{ account, intentions? }` → `[{ address, publicKey?, path?, intention? }]`
 * - `signMessage` `{ account, message, address?, protocol? }` → `{ address, signature, messageHash? }`
 * - `signPsbt` `{ account, psbt, signInputs, broadcast? }` → `{ psbt, txid? }`
 * - `sendTransfer` `{ account, recipientAddress, amount, memo?, changeAddress? }` → `{ txid }`
 */
import * as z from 'zod/mini'

/** The Bitcoin request methods, by name. */
export const Bip122Method = {
  getAccountAddresses: 'getAccountAddresses',
  signMessage: 'signMessage',
  signPsbt: 'signPsbt',
  sendTransfer: 'sendTransfer',
} as const
export type Bip122MethodName = (typeof Bip122Method)[keyof typeof Bip122Method]

/** What an address is for: paying (BTC) or holding ordinals. */
export const AddressIntentionSchema = z.enum(['payment', 'ordinal'])

/** Satoshis as a decimal string without sign or fraction. */
export const SatoshisSchema = z.string().check(z.regex(/^(0|[1-9]\d{0,15})$/, { error: 'Invalid amount' }))

/** A transaction id: 64 hex characters. */
export const TxidSchema = z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, { error: 'Invalid transaction id' }))

/** A base64 string (a PSBT), not empty. */
export const PsbtBase64Schema = z
  .string()
  .check(z.regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'Invalid PSBT: base64 expected' }))

/**
 * `getAccountAddresses` params.
 *
 * @example
 * GetAccountAddressesParamsSchema.parse({ account: 'bcrt1q…', intentions: ['payment'] })
 */
export const GetAccountAddressesParamsSchema = z.object({
  account: z.string(),
  intentions: z.optional(z.array(AddressIntentionSchema)),
})
export type GetAccountAddressesParams = z.infer<typeof GetAccountAddressesParamsSchema>

/** One address of an account, as `getAccountAddresses` answers. */
export const AccountAddressSchema = z.object({
  address: z.string().check(z.minLength(1)),
  publicKey: z.optional(z.string()),
  path: z.optional(z.string()),
  intention: z.optional(AddressIntentionSchema),
})
export type AccountAddress = z.infer<typeof AccountAddressSchema>
export const GetAccountAddressesResultSchema = z.array(AccountAddressSchema)

/** `signMessage` params: a text message, signed by `address` (the account's when absent). */
export const SignMessageParamsSchema = z.object({
  account: z.string(),
  message: z.string(),
  address: z.optional(z.string()),
  protocol: z.optional(z.enum(['ecdsa', 'bip322'])),
})
export type Bip122SignMessageParams = z.infer<typeof SignMessageParamsSchema>
/** `signMessage` result: the signature base64 (a BIP-137 compact signature for `ecdsa`). */
export const SignMessageResultSchema = z.object({
  address: z.string(),
  signature: z.string().check(z.minLength(1)),
  messageHash: z.optional(z.string()),
})
export type Bip122SignMessageResult = z.infer<typeof SignMessageResultSchema>

/** One input to sign: its index, the address whose key signs it, the sighash types allowed. */
export const SignInputSchema = z.object({
  address: z.string(),
  index: z.int().check(z.nonnegative()),
  sighashTypes: z.optional(z.array(z.int())),
})
/** `signPsbt` params: the PSBT base64, the inputs to sign, whether to broadcast once signed. */
export const SignPsbtParamsSchema = z.object({
  account: z.string(),
  psbt: PsbtBase64Schema,
  signInputs: z.array(SignInputSchema),
  broadcast: z.optional(z.boolean()),
})
export type SignPsbtParams = z.infer<typeof SignPsbtParamsSchema>
/** `signPsbt` result: the signed PSBT, and the transaction id when it was broadcast. */
export const SignPsbtResultSchema = z.object({ psbt: PsbtBase64Schema, txid: z.optional(TxidSchema) })
export type SignPsbtResult = z.infer<typeof SignPsbtResultSchema>

/** `sendTransfer` params: one payment the wallet builds, signs and broadcasts. */
export const SendTransferParamsSchema = z.object({
  account: z.string(),
  recipientAddress: z.string().check(z.minLength(1)),
  amount: SatoshisSchema,
  memo: z.optional(z.string()),
  changeAddress: z.optional(z.string()),
})
export type SendTransferParams = z.infer<typeof SendTransferParamsSchema>
export const SendTransferResultSchema = z.object({ txid: TxidSchema })
export type SendTransferResult = z.infer<typeof SendTransferResultSchema>

/**
 * The `bip122` provider `getProvider(config, 'bip122')` returns: a request-based provider whose
 * methods are the ones above.
 *
 * @example
 * const [first] = await provider.request({ method: 'getAccountAddresses', params: { account } })
 */
export interface Bip122Provider {
  request(args: {
    method: 'getAccountAddresses'
    params: GetAccountAddressesParams
  }): Promise<AccountAddress[]>
  request(args: { method: 'signMessage'; params: Bip122SignMessageParams }): Promise<Bip122SignMessageResult>
  request(args: { method: 'signPsbt'; params: SignPsbtParams }): Promise<SignPsbtResult>
  request(args: { method: 'sendTransfer'; params: SendTransferParams }): Promise<SendTransferResult>
  request(args: { method: string; params?: unknown }): Promise<unknown>
}
