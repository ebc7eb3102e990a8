/** `solana_signAndSendTransaction`: signs the page's transaction and sends it with the page's send options. */
import {
  previewSolanaTransaction,
  signedSolanaTransaction,
  solanaTransactionParams,
} from './solanaTransactions.ts'
import { approvalMethod } from './types.ts'

export const solanaSignAndSendTransaction = approvalMethod({
  method: 'solana_signAndSendTransaction',
  params: solanaTransactionParams,
  preview: (ctx, { transaction }) => previewSolanaTransaction(ctx, transaction),
  async execute(ctx, { transaction, sendOptions }, prepared, signatures) {
    const { signed } = await signedSolanaTransaction(ctx, transaction, prepared, signatures)
    const sent = (await ctx.upstream.call(ctx.chainId, 'sendTransaction', [
      signed,
      { encoding: 'base64', preflightCommitment: 'confirmed', ...sendOptions },
    ])) as string
    return { signature: sent }
  },
})
