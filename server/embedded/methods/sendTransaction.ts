/** `eth_sendTransaction`: one transaction from the EOA, or one UserOperation of the smart account. */
import { EmbeddedError } from '../errors.ts'
import {
  mustBeOwn,
  preparedOperation,
  refuseIfUnprepared,
  smartCall,
  type ViaSmartAccount,
  viaSmartAccount,
} from './accountChecks.ts'
import { callsPreview } from './callsPreview.ts'
import {
  dataOf,
  maxFeeOf,
  pendingNonce,
  plannedTransaction,
  prepareTransaction,
  sendSigned,
  transactionParams,
} from './evmTransactions.ts'
import { type Planned, verifiedSignature } from './plan.ts'
import { approvalMethod } from './types.ts'

export const sendTransaction = approvalMethod({
  method: 'eth_sendTransaction',
  params: transactionParams,
  async preview(ctx, [tx]) {
    const call = { ...tx, data: dataOf(tx) }
    const evm = await ctx.evmAccount()
    if (evm.smart) {
      mustBeOwn(tx.from, evm.address)
      // The UserOperation is prepared whole now (nonce, gas, fees): the owner signs exactly it.
      const calls = [smartCall(call)]
      return {
        shown: { from: evm.address, transfers: await callsPreview(ctx, [call]) },
        prepared: (await preparedOperation(() => ctx.smart.prepareCalls(ctx.userId, ctx.chainId, calls))) as
          | ViaSmartAccount
          | Planned,
      }
    }
    mustBeOwn(tx.from, ctx.own.evm)
    const prepared = await prepareTransaction(ctx, ctx.own.evm, tx)
    return {
      shown: {
        from: ctx.own.evm,
        transfers: await callsPreview(ctx, [call]),
        fee: maxFeeOf(prepared).toString(),
      },
      prepared: { plan: [plannedTransaction(ctx, tx, prepared, await pendingNonce(ctx, ctx.own.evm))] },
    }
  },
  async execute(ctx, _params, prepared, signatures) {
    if (viaSmartAccount(prepared)) {
      refuseIfUnprepared(prepared)
      const hash = await ctx.smart.sendSigned(
        ctx.chainId,
        ...(await verifiedSignature(ctx, prepared, signatures)),
      )
      const receipt = await ctx.smart.waitForReceipt(ctx.chainId, hash)
      if (!receipt.success)
        throw new EmbeddedError(400, 'UPSTREAM_ERROR', 'The transaction reverted', {
          rpcCode: -32521,
          rpcData: { userOpHash: hash, transactionHash: receipt.receipt.transactionHash },
        })
      return receipt.receipt.transactionHash
    }
    return sendSigned(ctx, ...(await verifiedSignature(ctx, prepared, signatures)))
  },
})
