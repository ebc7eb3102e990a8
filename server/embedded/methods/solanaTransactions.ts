/** What `solana_signTransaction` and `solana_signAndSendTransaction` share: reading, previewing and signing a transaction. */
import { hexToBytes } from 'viem'
import * as z from 'zod/mini'
import { solanaInstructionsPreview } from '../../../src/protocol/embedded/preview/solanaInstructions.ts'
import {
  readSolanaTransaction,
  type SolanaTransaction,
  writeSolanaTransaction,
} from '../../../src/protocol/embedded/solanaWire.ts'
import { actionNotAllowed } from '../errors.ts'
import { base64, invalidParams } from './params.ts'
import { type Planned, verifiedSignature } from './plan.ts'
import type { Built, MethodContext } from './types.ts'

/** `{ transaction, sendOptions? }`: a serialized transaction in base64. */
export const solanaTransactionParams = z.object({
  transaction: base64,
  sendOptions: z.optional(z.record(z.string(), z.unknown())),
})

/** A Solana transaction the person's key must sign, and where its signature goes. */
function transactionFor(encoded: string, own: string) {
  let tx: SolanaTransaction
  try {
    tx = readSolanaTransaction(Buffer.from(encoded, 'base64'))
  } catch {
    throw invalidParams('The transaction could not be read')
  }
  const index = tx.staticAccountKeys.slice(0, tx.numRequiredSignatures).indexOf(own)
  if (index === -1) throw invalidParams("This transaction does not need this wallet's signature")
  return { tx, index }
}

/** The most the network will charge for the message, in lamports; undefined when it does not say. */
async function solanaFee(ctx: MethodContext, tx: SolanaTransaction): Promise<string | undefined> {
  const answer = (await ctx.upstream
    .call(ctx.chainId, 'getFeeForMessage', [
      Buffer.from(tx.message).toString('base64'),
      { commitment: 'confirmed' },
    ])
    .catch(() => undefined)) as { value?: number | null } | undefined
  return typeof answer?.value === 'number' ? String(answer.value) : undefined
}

/** The preview of a transaction: its instructions parsed from the message that will be signed, and the fee. */
export async function previewSolanaTransaction(ctx: MethodContext, encoded: string): Promise<Built<Planned>> {
  const { tx } = transactionFor(encoded, ctx.own.solana)
  const fee = await solanaFee(ctx, tx)
  return {
    shown: {
      from: ctx.own.solana,
      ...solanaInstructionsPreview(tx),
      ...(fee === undefined ? {} : { fee }),
    },
    prepared: {
      plan: [{ kind: 'solana-transaction', message: Buffer.from(tx.message).toString('base64') }],
    },
  }
}

/**
 * Puts the person's checked signature of the transaction's message in its slot: the signature and the
 * signed transaction in base64.
 */
export async function signedSolanaTransaction(
  ctx: MethodContext,
  encoded: string,
  prepared: unknown,
  signatures: readonly string[],
) {
  const { tx, index } = transactionFor(encoded, ctx.own.solana)
  const [request, checked] = await verifiedSignature(ctx, prepared, signatures)
  // The plan is the transaction's own message: a signature of anything else never goes into its slot.
  if (request.kind !== 'solana-transaction' || request.message !== Buffer.from(tx.message).toString('base64'))
    throw actionNotAllowed()
  const signature = hexToBytes(checked)
  tx.signatures[index] = signature
  return { signature, signed: Buffer.from(writeSolanaTransaction(tx)).toString('base64') }
}
