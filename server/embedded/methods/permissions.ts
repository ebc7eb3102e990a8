/**
 * `wallet_grantPermissions`, `wallet_requestExecutionPermissions` (ERC-7715) and
 * `wallet_revokePermissions`: a grant is one UserOperation of the person's smart account to itself,
 * `grantSession(key, policy)`, signed by the owner after approval, the key being the frame's own; a
 * revocation is `revokeSession(key)`. These are the only requests that may make the account call itself
 * (signingRules.ts), and the frame checks the call against the page's request before it signs.
 */
import { type Address, encodeFunctionData, type Hex } from 'viem'
import * as z from 'zod/mini'
import {
  contextOfKey,
  type GrantMethod,
  grantOfRequest,
  permissionsPreviewOf,
  policyOfGrant,
  readPermissionRequest,
  revokedKey,
  type SessionGrant,
} from '../../../src/protocol/embedded/permissions.ts'
import { readTokenInfo } from '../../../src/protocol/embedded/preview/evmCalls.ts'
import { EmbeddedError } from '../errors.ts'
import { walletAccountSessionAbi } from '../walletAccount.ts'
import {
  mustBeOwn,
  preparedOperation,
  refuseIfUnprepared,
  type ViaSmartAccount,
  viaSmartAccount,
} from './accountChecks.ts'
import { evmChainId, invalidParams } from './params.ts'
import { siteRecord } from './permissionRecords.ts'
import { type Planned, verifiedSignature } from './plan.ts'
import { approvalMethod, type MethodContext } from './types.ts'

/** The params as given (each method's own shape is read by `grantOfRequest`). */
const params = z.array(z.unknown()).check(z.minLength(1), z.maxLength(16))

/** Permissions need the person's smart account on the network (an EOA cannot hold a session). */
const needsSmartAccount = () =>
  new EmbeddedError(400, 'BAD_REQUEST', 'Permissions need the smart account: switch to it on this network', {
    rpcCode: 4200,
  })

/** A permission request read for this wallet, or -32602 with the reason. */
const grantOf = (method: GrantMethod, given: unknown, now: number): SessionGrant =>
  readPermissionRequest(() => grantOfRequest(method, given, now), invalidParams)

/** The key of a revocation's context, or -32602. */
const revokeKeyOf = (given: unknown): Address => readPermissionRequest(() => revokedKey(given), invalidParams)

/**
 * The tokens' symbols and decimals by lower-case address, read on the chain (what the person sees beside
 * the amounts).
 *
 * @example
 * const names = await tokenNames(ctx, grant.tokens.map(({ token }) => token))
 */
export async function tokenNames(ctx: MethodContext, tokens: readonly Address[]) {
  const read = (to: Address, data: Hex) =>
    (ctx.upstream.call(ctx.chainId, 'eth_call', [{ to, data }, 'latest']) as Promise<Hex>).catch(
      () => undefined,
    )
  const names: Record<string, { symbol?: string; decimals?: number }> = {}
  for (const token of new Set(tokens)) names[token.toLowerCase()] = await readTokenInfo(read, token)
  return names
}

/** The person's smart account on this network, the one that grants and revokes. */
async function smartAccountOf(ctx: MethodContext, named?: string): Promise<Address> {
  const evm = await ctx.evmAccount()
  if (!evm.smart) throw needsSmartAccount()
  mustBeOwn(named, evm.address)
  return evm.address
}

/**
 * The preview of a grant or a revocation: the account's one call to itself (`grantSession` or
 * `revokeSession`) prepared as a UserOperation, shown as the permission in words.
 */
async function selfCallPreview(
  ctx: MethodContext,
  account: Address,
  data: Hex,
  grant: SessionGrant,
  kind: 'grant' | 'revoke',
) {
  const prepared = await preparedOperation(() =>
    ctx.smart.prepareCalls(ctx.userId, ctx.chainId, [{ to: account, value: 0n, data }]),
  )
  const names = await tokenNames(
    ctx,
    grant.tokens.map(({ token }) => token),
  )
  return {
    shown: { from: account, permissions: permissionsPreviewOf(grant, kind, names) },
    prepared: prepared as ViaSmartAccount | Planned,
  }
}

/** Sends the owner-signed grant or revocation and waits for it to land (a session is usable only then). */
async function sendAndWait(ctx: MethodContext, prepared: unknown, signatures: readonly string[]) {
  if (!viaSmartAccount(prepared)) throw needsSmartAccount()
  refuseIfUnprepared(prepared)
  const [request, signature] = await verifiedSignature(ctx, prepared, signatures)
  const hash = await ctx.smart.sendSigned(ctx.chainId, request, signature)
  const receipt = await ctx.smart.waitForReceipt(ctx.chainId, hash)
  if (!receipt.success)
    throw new EmbeddedError(502, 'UPSTREAM_ERROR', 'The UserOperation was included but reverted', {
      rpcCode: -32603,
    })
  return hash
}

/** A grant method's handler (both names share it; only their answers' shapes differ). */
const grantHandler = (method: GrantMethod) =>
  approvalMethod({
    method,
    params,
    async preview(ctx, given) {
      const grant = grantOf(method, given, ctx.nowSeconds())
      if (grant.chainId !== evmChainId(ctx.chainId))
        throw invalidParams("The permission is for another chain than the wallet's network")
      const account = await smartAccountOf(ctx, grant.account)
      if (!grant.key) throw invalidParams('The session key is missing')
      const data = encodeFunctionData({
        abi: walletAccountSessionAbi,
        functionName: 'grantSession',
        args: [grant.key, policyOfGrant(grant)],
      })
      return selfCallPreview(ctx, account, data, grant, 'grant')
    },
    async execute(ctx, given, prepared, signatures) {
      // Read again from the stored params (its expiry was checked at the preview).
      const grant = grantOf(method, given, 0)
      const account = await smartAccountOf(ctx, grant.account)
      const key = grant.key as Address
      const grantedOp = await sendAndWait(ctx, prepared, signatures)
      await ctx.permissions.record({
        userId: ctx.userId,
        projectId: ctx.projectId,
        chainId: ctx.chainId,
        account,
        sessionKey: key,
        grant,
        grantedOp,
      })
      const context = contextOfKey(key)
      const signer = { type: 'wallet' }
      if (method === 'wallet_grantPermissions') {
        const [request] = given as [Record<string, unknown>]
        return {
          chainId: `0x${grant.chainId.toString(16)}`,
          address: account,
          expiry: grant.expiry,
          signer,
          grantedPermissions: request.permissions,
          permissionsContext: context,
        }
      }
      return (given as Record<string, unknown>[]).map((entry) => ({
        ...entry,
        address: account,
        from: account,
        signer,
        context,
        dependencies: [],
      }))
    },
  })

export const grantPermissions = grantHandler('wallet_grantPermissions')
export const requestExecutionPermissions = grantHandler('wallet_requestExecutionPermissions')

export const revokePermissions = approvalMethod({
  method: 'wallet_revokePermissions',
  params,
  async preview(ctx, given) {
    const key = revokeKeyOf(given)
    const account = await smartAccountOf(ctx)
    const record = await siteRecord(ctx, key)
    const data = encodeFunctionData({
      abi: walletAccountSessionAbi,
      functionName: 'revokeSession',
      args: [key],
    })
    return selfCallPreview(ctx, account, data, record.grant, 'revoke')
  },
  async execute(ctx, given, prepared, signatures) {
    const key = revokeKeyOf(given)
    const revokedOp = await sendAndWait(ctx, prepared, signatures)
    await ctx.permissions.revoked(ctx.userId, ctx.chainId, key, revokedOp, new Date(ctx.nowSeconds() * 1000))
    return null
  },
})
