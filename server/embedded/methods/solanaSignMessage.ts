/** `solana_signMessage`: raw ed25519 over the message bytes, never over bytes a transaction could carry. */
import { ed25519 } from '@noble/curves/ed25519.js'
import * as z from 'zod/mini'
import { decodeBase58, encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { isSolanaTransactionShaped } from '../solanaWire.ts'
import { foreignAccount } from './accountChecks.ts'
import { messagePreview } from './messages.ts'
import { base58, invalidParams } from './params.ts'
import { approvalMethod } from './types.ts'

const params = z.object({ message: base58, pubkey: z.optional(base58) })

/**
 * `solana_signMessage` of bytes a Solana transaction could carry as its message: the signature would be
 * the transaction's, so it is refused (the wallet signs messages as raw ed25519, as Wallet Standard's
 * `solana:signMessage` verifiers and sign-in with Solana expect).
 */
export const transactionAsMessageMessage =
  'These bytes are a Solana transaction, not a message: use solana_signTransaction'

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
    return { shown: { from: ctx.own.solana, message: messagePreview(messageBytes(message)) }, prepared: null }
  },
  async execute(ctx, { message }) {
    // Checked again where the key signs.
    const bytes = messageBytes(message)
    const signature = await ctx.withKey('ed25519', (secret) => ed25519.sign(bytes, secret))
    return { signature: encodeBase58(signature) }
  },
})
