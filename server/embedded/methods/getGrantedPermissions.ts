/**
 * `wallet_getGrantedExecutionPermissions` (ERC-7715): the permissions the person gave this
 * site on this network, each read from the chain (what the account stores for its key, the calls made,
 * what it spent this period, whether it is revoked) with the service's index (which site asked, for what).
 * The chain decides the state: a permission stopped by its call limit or this period's allowance says why.
 */
import { type Address, decodeFunctionResult, encodeFunctionData, type Hex } from 'viem'
import * as z from 'zod/mini'
import type { GrantedPermission, PermissionState } from '../../../src/protocol/embedded/grantedPermissions.ts'
import {
  contextOfKey,
  permissionsPreviewOf,
  policyOfGrant,
} from '../../../src/protocol/embedded/permissions.ts'
import type { PermissionRecord } from '../permissionIndex.ts'
import { walletAccountSessionAbi } from '../walletAccount.ts'
import { evmChainHex } from './params.ts'
import { chainTime } from './permissionRecords.ts'
import { tokenNames } from './permissions.ts'
import { type MethodContext, walletMethod } from './types.ts'

/** The account's session views for `key`, by eth_call: the session as stored, and its use this period. */
async function sessionViews(ctx: MethodContext, account: Address, key: Address) {
  const call = (data: Hex) =>
    ctx.upstream.call(ctx.chainId, 'eth_call', [{ to: account, data }, 'latest']) as Promise<Hex>
  const [session, use] = await Promise.all([
    call(encodeFunctionData({ abi: walletAccountSessionAbi, functionName: 'session', args: [key] })),
    call(encodeFunctionData({ abi: walletAccountSessionAbi, functionName: 'sessionUse', args: [key] })),
  ])
  return [
    decodeFunctionResult({ abi: walletAccountSessionAbi, functionName: 'session', data: session }),
    decodeFunctionResult({ abi: walletAccountSessionAbi, functionName: 'sessionUse', data: use }),
  ] as const
}

/** One indexed permission as the chain has it now (`chainTime`: the latest block's timestamp). */
async function onChain(
  ctx: MethodContext,
  record: PermissionRecord,
  chainTime: number,
  names: Record<string, { symbol?: string; decimals?: number }>,
): Promise<GrantedPermission> {
  const [[, grant, callsMade, revoked], [, , spent]] = await sessionViews(
    ctx,
    record.account,
    record.sessionKey,
  )
  const policy = policyOfGrant(record.grant)
  const used = record.grant.tokens.map((token, index) => ({
    address: token.token,
    spent: (spent[index] ?? 0n).toString(),
  }))
  const usedUp = record.grant.tokens.findIndex((token, index) => (spent[index] ?? 0n) >= token.amount)
  const period = policy.allowances[0]?.period ?? 0
  let state: PermissionState = 'active'
  if (revoked || grant === 0n) state = 'revoked'
  else if (chainTime >= policy.validUntil) state = 'expired'
  else if (chainTime < policy.validAfter) state = 'notStarted'
  else if (policy.callLimit > 0 && callsMade >= policy.callLimit) state = 'callLimitReached'
  else if (usedUp >= 0) state = 'allowanceUsed'
  return {
    context: contextOfKey(record.sessionKey),
    chainId: evmChainHex(record.chainId),
    address: record.account,
    state,
    ...(state === 'allowanceUsed' && period > 0
      ? { resetsAt: Math.min((Math.floor(chainTime / period) + 1) * period, policy.validUntil) }
      : {}),
    allows: permissionsPreviewOf(record.grant, 'grant', names),
    used: { calls: callsMade, tokens: used },
  }
}

export const getGrantedPermissions = walletMethod({
  method: 'wallet_getGrantedExecutionPermissions',
  namespace: 'eip155',
  // Answers this site's permissions on the request's network whatever the page asks.
  params: z.unknown(),
  async answer(ctx) {
    const records = (await ctx.permissions.list(ctx.userId, ctx.chainId)).filter(
      (record) => record.projectId === ctx.projectId,
    )
    if (records.length === 0) return []
    const now = await chainTime(ctx)
    const names = await tokenNames(
      ctx,
      records.flatMap((record) => record.grant.tokens.map(({ token }) => token)),
    )
    return Promise.all(records.map((record) => onChain(ctx, record, now, names)))
  },
})
