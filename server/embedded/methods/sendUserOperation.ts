/** `eth_sendUserOperation`: the page's UserOperation for the person's smart account, checked, shown, prepared whole, then signed by plan. */
import * as z from 'zod/mini'
import { notAvailable, requestRefused } from '../errors.ts'
import { checkUserOperation } from '../userOperations.ts'
import {
  preparedOperation,
  refuseIfUnprepared,
  type ViaSmartAccount,
  viaSmartAccount,
} from './accountChecks.ts'
import { callsPreview } from './callsPreview.ts'
import { type Planned, verifiedSignature } from './plan.ts'
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
      // What the page left out is filled in now: the owner signs the UserOperation whole.
      prepared: (await preparedOperation(() =>
        ctx.smart.prepareOperation(ctx.userId, ctx.chainId, userOperation),
      )) as ViaSmartAccount & Planned,
    }
  },
  async execute(ctx, _params, prepared: ViaSmartAccount & Planned, signatures) {
    // Only the smart account sends UserOperations; the owner key never signs one as a transaction.
    if (!viaSmartAccount(prepared)) throw requestRefused(method)
    refuseIfUnprepared(prepared)
    return ctx.smart.sendSigned(ctx.chainId, ...(await verifiedSignature(ctx, prepared, signatures)))
  },
})
