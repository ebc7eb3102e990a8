import * as z from 'zod/mini'

// Answers of WalletConnect's polkadot methods (the wallet signs; the page submits).

const HexSchema = z.string().check(z.regex(/^0x[0-9a-fA-F]+$/, { error: 'Invalid hex string' }))

/**
 * `polkadot_signMessage`'s answer: the signature, hex.
 *
 * @example
 * PolkadotSignMessageResultSchema.parse({ signature: '0x00ab…' })
 */
export const PolkadotSignMessageResultSchema = z.object({ signature: HexSchema })

/**
 * `polkadot_signTransaction`'s answer: the request's id and the signature (MultiSignature: its type
 * byte, then the signature), hex.
 *
 * @example
 * PolkadotSignTransactionResultSchema.parse({ id: 1, signature: '0x00ab…' })
 */
export const PolkadotSignTransactionResultSchema = z.object({
  id: z.optional(z.number()),
  signature: HexSchema,
})
