/** `eth_sendUserOperation`: the page's UserOperation for the person's smart account, checked, shown, then signed here. */
import * as z from 'zod/mini'
import { notAvailable, requestRefused } from '../errors.ts'
import { checkUserOperation, type PageUserOperation } from '../userOperations.ts'
import { viaSmartAccount } from './accountChecks.ts'
import { callsPreview } from './callsPreview.ts'
import { approvalMethod } from './types.ts'

const method = 'eth_sendUserOperation'

export const sendUserOperation = approvalMethod({
  method,
  // Checked by checkUserOperation, after the account: an EOA hears `Not available` whatever it sent, and
  // a refusal names the fields that are wrong.
  params: z.unknown(),
  async preview(ctx, params) {
    const evm = await ctx.evmAccount()
    if (!evm.smart) throw notAvailable()
    const { userOperation, calls, maxCost } = checkUserOperation(params, {
      own: evm.address,
      owner: ctx.own.evm,
    })
    return {
      shown: {
        from: evm.address,
        transfers: await callsPreview(ctx, calls),
        ...(maxCost === undefined ? {} : { fee: maxCost.toString() }),
      },
      prepared: { smartAccount: true as const, userOperation },
    }
  },
  async execute(ctx, _params, prepared: { smartAccount: true; userOperation: PageUserOperation }) {
    // Only the smart account sends UserOperations; the owner key never signs one as a transaction.
    if (!viaSmartAccount(prepared)) throw requestRefused(method)
    return ctx.smart.sendOperation(ctx.userId, ctx.chainId, prepared.userOperation)
  },
})
