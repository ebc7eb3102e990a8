/**
 * What the permission methods read alike (ERC-7715): this site's own permission of a session key, from
 * the index, and the chain's time, which decides a permission's period and state (not the service's clock).
 */
import type { Address } from 'viem'
import { EmbeddedError } from '../errors.ts'
import type { PermissionRecord } from '../permissionIndex.ts'
import type { MethodContext } from './types.ts'

/**
 * The person's permission of `key` on the request's network, granted to the site that asks; another
 * site's permission, or none, is 403/4100.
 *
 * @example
 * const record = await siteRecord(ctx, key)
 */
export async function siteRecord(ctx: MethodContext, key: Address): Promise<PermissionRecord> {
  const record = await ctx.permissions.find(ctx.userId, ctx.chainId, key)
  if (!record || record.projectId !== ctx.projectId)
    throw new EmbeddedError(403, 'FORBIDDEN', 'This site holds no permission of that context here', {
      rpcCode: 4100,
    })
  return record
}

/**
 * The latest block's timestamp in seconds, or the service's clock when the node gives none.
 *
 * @example
 * const period = sessionPeriod(policy, await chainTime(ctx))
 */
export async function chainTime(ctx: MethodContext): Promise<number> {
  const block = (await ctx.upstream.call(ctx.chainId, 'eth_getBlockByNumber', ['latest', false])) as {
    timestamp?: string
  } | null
  return block?.timestamp ? Number(BigInt(block.timestamp)) : ctx.nowSeconds()
}
