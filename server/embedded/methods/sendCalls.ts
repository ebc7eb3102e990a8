/** `wallet_sendCalls` (EIP-5792): from an EOA one transaction after another; from a smart account one UserOperation. */
import { isAddress, isAddressEqual } from 'viem'
import * as z from 'zod/mini'
import { embeddedLimits } from '../../../src/protocol/embedded/index.ts'
import { readPermissionRequest, sessionOfCalls } from '../../../src/protocol/embedded/permissions.ts'
import { ownAccountCallMessage } from '../../../src/protocol/embedded/signingRules.ts'
import { CallListSchema, unhonouredCapability } from '../../../src/protocol/rules.ts'
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
  callAsTransaction,
  maxFeeOf,
  type PreparedTransaction,
  pendingNonce,
  plannedTransaction,
  prepareTransaction,
  sendSigned,
} from './evmTransactions.ts'
import { address, evmChainId, invalidParams, quantity } from './params.ts'
import { paymasterServiceOf } from './paymasterService.ts'
import { type Planned, verifiedSignature, verifiedSignatures } from './plan.ts'
import { isSessionPrepared, prepareSessionCalls, sendSessionCalls } from './sessionCalls.ts'
import { approvalMethod } from './types.ts'

/** The session key a batch names through the `permissions` capability, or -32602 for a malformed one. */
function sessionKeyOf(capabilities: Record<string, unknown> | undefined) {
  return readPermissionRequest(() => sessionOfCalls(capabilities), invalidParams)
}

const params = z.tuple([
  z.object({
    version: z.optional(z.string()),
    chainId: z.optional(quantity),
    from: z.optional(address),
    atomicRequired: z.optional(z.boolean()),
    calls: CallListSchema.check(z.minLength(1), z.maxLength(embeddedLimits.maxCalls)),
    capabilities: z.optional(z.record(z.string(), z.unknown())),
  }),
])

/** The capabilities this wallet honours itself (`paymasterService`: see paymasterService.ts). */
const HONOURED = new Set(['paymasterService', 'permissions'])

/** Whether the prepared UserOperation carries a paymaster (what the person signs, not what was asked). */
function sponsoredPlan(prepared: unknown): boolean {
  const [request] = (prepared as Partial<Planned>).plan ?? []
  return request?.kind === 'evm-user-operation' && Boolean(request.userOperation.paymaster)
}

export const sendCalls = approvalMethod({
  method: 'wallet_sendCalls',
  params,
  async preview(ctx, [batch]) {
    if (batch.chainId !== undefined && Number(batch.chainId) !== evmChainId(ctx.chainId)) {
      throw invalidParams("The calls are for another chain than the wallet's network")
    }
    const unhonoured = unhonouredCapability(batch.capabilities, HONOURED)
    if (unhonoured)
      throw new EmbeddedError(400, 'BAD_REQUEST', `Unsupported non-optional capability: ${unhonoured}`, {
        rpcCode: 5700,
      })
    const evm = await ctx.evmAccount()
    const session = sessionKeyOf(batch.capabilities)
    if (session) {
      // A permission's calls (ERC-7715): signed by the frame's session key, without a prompt.
      if (!evm.smart) throw invalidParams('Permissions need the smart account: switch to it on this network')
      mustBeOwn(batch.from, evm.address)
      // A permission never calls the account itself (it would grant itself more): refused before the chain is asked.
      if (batch.calls.some((call) => isAddress(call.to) && isAddressEqual(call.to, evm.address)))
        throw new EmbeddedError(403, 'FORBIDDEN', ownAccountCallMessage, { rpcCode: 4100 })
      return {
        shown: { from: evm.address, transfers: await callsPreview(ctx, batch.calls) },
        prepared: await prepareSessionCalls(ctx, session, batch.calls.map(smartCall)),
      }
    }
    const sponsor = paymasterServiceOf(ctx, batch.capabilities, evm.smart)
    if (evm.smart) {
      mustBeOwn(batch.from, evm.address)
      const calls = batch.calls.map(smartCall)
      // Every call of the batch, in one UserOperation prepared whole now: all of them land, or none; with
      // the project's paymaster data when the site pays (the plan then shows it, and the fee is the site's).
      const prepared = await preparedOperation(() =>
        ctx.smart.prepareCalls(ctx.userId, ctx.chainId, calls, sponsor ?? undefined),
      )
      return {
        shown: {
          from: evm.address,
          transfers: await callsPreview(ctx, batch.calls),
          ...(sponsor && sponsoredPlan(prepared) ? { sponsored: true } : {}),
        },
        prepared: prepared as ViaSmartAccount | Planned,
      }
    }
    mustBeOwn(batch.from, ctx.own.evm)
    if (batch.atomicRequired) {
      throw new EmbeddedError(
        400,
        'BAD_REQUEST',
        'This wallet sends calls one after another, not atomically',
        {
          rpcCode: 5760,
        },
      )
    }
    const transactions: PreparedTransaction[] = []
    for (const call of batch.calls) {
      transactions.push(await prepareTransaction(ctx, ctx.own.evm, callAsTransaction(ctx.own.evm, call)))
    }
    // One after another, each with the next nonce (an EOA has no atomic batches), fixed now.
    const nonce = await pendingNonce(ctx, ctx.own.evm)
    const plan = batch.calls.map((call, index) =>
      plannedTransaction(
        ctx,
        callAsTransaction(ctx.own.evm, call),
        transactions[index] as PreparedTransaction,
        nonce + index,
      ),
    )
    return {
      shown: {
        from: ctx.own.evm,
        transfers: await callsPreview(ctx, batch.calls),
        fee: transactions.reduce((sum, prepared) => sum + maxFeeOf(prepared), 0n).toString(),
      },
      prepared: { plan },
    }
  },
  async execute(ctx, _params, prepared, signatures) {
    if (isSessionPrepared(prepared)) {
      const userOpHash = await sendSessionCalls(ctx, prepared, signatures)
      return { id: await ctx.batches.record(ctx.userId, { chainId: ctx.chainId, txHashes: [], userOpHash }) }
    }
    if (viaSmartAccount(prepared)) {
      refuseIfUnprepared(prepared)
      const [request, signature] = await verifiedSignature(ctx, prepared, signatures)
      const userOpHash = await ctx.smart.sendSigned(ctx.chainId, request, signature)
      return { id: await ctx.batches.record(ctx.userId, { chainId: ctx.chainId, txHashes: [], userOpHash }) }
    }
    const txHashes: string[] = []
    for (const [request, signature] of await verifiedSignatures(ctx, prepared, signatures))
      txHashes.push(await sendSigned(ctx, request, signature))
    return { id: await ctx.batches.record(ctx.userId, { chainId: ctx.chainId, txHashes }) }
  },
})
