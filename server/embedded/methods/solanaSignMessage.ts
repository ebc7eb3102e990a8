/** `solana_signMessage`: raw ed25519 over the message bytes, never over bytes a transaction could carry. */
import { hexToBytes } from 'viem'
import * as z from 'zod/mini'
import { messagePreview } from '../../../src/protocol/embedded/preview/messages.ts'
import { transactionAsMessageMessage } from '../../../src/protocol/embedded/signingRules.ts'
import { isSolanaTransactionShaped } from '../../../src/protocol/embedded/solanaWire.ts'
import { decodeBase58, encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { foreignAccount } from './accountChecks.ts'
import { base58, invalidParams } from './params.ts'
import { verifiedSignature } from './plan.ts'
import { approvalMethod } from './types.ts'

const params = z.object({ message: base58, pubkey: z.optional(base58) })

export { transactionAsMessageMessage }

/** The bytes that will be signed: the message's, refused when they are a transaction's. */
function messageBytes(message: string): Uint8Array {
  const bytes = decodeBase58(message)
  if (!bytes) throw invalidParams('Invalid base58')
  if (isSolanaTransactionShaped(bytes)) throw invalidParams(transactionAsMessageMessage)
  return bytes
}

export const solanaSignMessage = approvalMethod({
  method: 'solana_signMessage',
  params,
  async preview(ctx, { message, pubkey }) {
    if (pubkey !== undefined && pubkey !== ctx.own.solana) throw foreignAccount()
    const bytes = messageBytes(message)
    return {
      shown: { from: ctx.own.solana, message: messagePreview(bytes) },
      prepared: {
        plan: [{ kind: 'solana-message' as const, message: Buffer.from(bytes).toString('base64') }],
      },
    }
  },
  async execute(ctx, { message }, prepared, signatures) {
    // Checked again where the signature is relayed (the signer checks it where the key signs too).
    messageBytes(message)
    const [, signature] = await verifiedSignature(ctx, prepared, signatures)
    return { signature: encodeBase58(hexToBytes(signature)) }
  },
})
