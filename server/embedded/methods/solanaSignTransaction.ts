/** `solana_signTransaction`: signs the page's transaction and answers it signed, without sending it. */
import { encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import {
  previewSolanaTransaction,
  signedSolanaTransaction,
  solanaTransactionParams,
} from './solanaTransactions.ts'
import { approvalMethod } from './types.ts'

export const solanaSignTransaction = approvalMethod({
  method: 'solana_signTransaction',
  params: solanaTransactionParams,
  preview: (ctx, { transaction }) => previewSolanaTransaction(ctx, transaction),
  async execute(ctx, { transaction }, prepared, signatures) {
    const { signature, signed } = await signedSolanaTransaction(ctx, transaction, prepared, signatures)
    return { signature: encodeBase58(signature), transaction: signed }
  },
})
