/** `signPsbt` (bip122): the page's PSBT, shown from its bytes; only the inputs of the person's address are signed. */
import { SigHash } from '@scure/btc-signer'
import * as z from 'zod/mini'
import { foreignInputMessage } from '../../../src/protocol/embedded/bitcoinSigner.ts'
import { accountParam, bitcoinAccountOf, psbtPreview, signedTransaction } from './bitcoinTransactions.ts'
import { base64, invalidParams } from './params.ts'
import { approvalMethod } from './types.ts'

const params = z.object({
  account: accountParam,
  psbt: base64,
  signInputs: z.optional(
    z
      .array(
        z.object({
          address: z.string().check(z.maxLength(100)),
          index: z.number().check(z.int(), z.nonnegative()),
          sighashTypes: z.optional(z.array(z.number().check(z.int()))),
        }),
      )
      .check(z.maxLength(1000)),
  ),
  broadcast: z.optional(z.boolean()),
})

/** A sighash type other than ALL: the preview would not bind what is signed. */
export const sighashTypesMessage = 'This wallet signs with SIGHASH_ALL only'

export const bitcoinSignPsbt = approvalMethod({
  method: 'signPsbt',
  params,
  async preview(ctx, { account, psbt, signInputs }) {
    const own = await bitcoinAccountOf(ctx, account)
    for (const input of signInputs ?? []) {
      // An input the page asks signed by another address is never signed with this key.
      if (input.address !== own.address) throw invalidParams(foreignInputMessage(input.index))
      if (input.sighashTypes?.some((type) => type !== SigHash.ALL)) throw invalidParams(sighashTypesMessage)
    }
    return psbtPreview(
      own,
      psbt,
      signInputs?.map((input) => input.index),
    )
  },
  async execute(ctx, { broadcast }, prepared, signatures) {
    const tx = await signedTransaction(ctx, prepared, signatures)
    const psbt = Buffer.from(tx.toPSBT()).toString('base64')
    if (!broadcast) return { psbt }
    if (!tx.isFinal) throw invalidParams('This PSBT has inputs of other signers: it cannot be broadcast yet')
    const account = await bitcoinAccountOf(ctx)
    await account.node.broadcast(ctx.chainId, tx.hex)
    return { psbt, txid: tx.id }
  },
})
