/** `wallet_getCallsStatus` (EIP-5792): a batch's receipts and its status code, by the id `wallet_sendCalls` answered. */
import type { Hex } from 'viem'
import * as z from 'zod/mini'
import { callsStatusOf } from '../../../src/protocol/rules.ts'
import { EmbeddedError } from '../errors.ts'
import { evmChainHex, hex } from './params.ts'
import { walletMethod } from './types.ts'

export const getCallsStatus = walletMethod({
  method: 'wallet_getCallsStatus',
  params: z.tuple([hex]),
  async answer(ctx, [id]) {
    const batch = await ctx.batches.find(ctx.userId, id)
    if (!batch) throw new EmbeddedError(404, 'BAD_REQUEST', 'No matching bundle found', { rpcCode: 5730 })
    const chainId = evmChainHex(batch.chainId)
    if (batch.userOpHash) {
      // A smart account's batch: one UserOperation, so one receipt and one outcome for every call.
      const found = await ctx.smart.receipt(batch.chainId, batch.userOpHash as Hex)
      return {
        version: '2.0.0',
        id,
        chainId,
        status: found === null ? 100 : found.success ? 200 : 500,
        atomic: true,
        receipts: found?.receipt ? [found.receipt] : [],
      }
    }
    const receipts = (await Promise.all(
      batch.txHashes.map((hash) => ctx.upstream.call(batch.chainId, 'eth_getTransactionReceipt', [hash])),
    )) as ({ status?: string } | null)[]
    return {
      version: '2.0.0',
      id,
      chainId,
      status: callsStatusOf(receipts),
      atomic: false,
      receipts: receipts.filter((receipt) => receipt !== null),
    }
  },
})
