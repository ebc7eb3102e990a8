import * as z from 'zod/mini'

// Answers of WalletConnect's cosmos methods (the wallet signs; the page broadcasts).

const Base64Schema = z.string().check(z.regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'Invalid base64' }))

/**
 * `cosmos_getAccounts`'s answer: the wallet's key pairs, each with its algorithm, bech32 address
 * and public key (base64).
 *
 * @example
 * CosmosAccountsSchema.parse([{ algo: 'secp256k1', address: 'cosmos1…', pubkey: 'AgSE…' }])
 */
export const CosmosAccountsSchema = z.array(
  z.object({ algo: z.string(), address: z.string().check(z.minLength(1)), pubkey: Base64Schema }),
)

/** A StdSignature: the signer's public key (amino JSON) and the signature (base64, r ‖ s). */
const StdSignatureSchema = z.object({
  pub_key: z.object({ type: z.string(), value: Base64Schema }),
  signature: Base64Schema,
})

/**
 * `cosmos_signDirect`'s and `cosmos_signAmino`'s answer: the signature and the document signed
 * (which a wallet may have changed, the fee say).
 *
 * @example
 * CosmosSignResultSchema.parse({ signature: { pub_key: { type: 'tendermint/PubKeySecp256k1', value: 'AgSE…' }, signature: 'MEUC…' }, signed: signDoc })
 */
export const CosmosSignResultSchema = z.object({
  signature: StdSignatureSchema,
  signed: z.record(z.string(), z.unknown()),
})
