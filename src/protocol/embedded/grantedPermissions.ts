/**
 * What `wallet_getGrantedExecutionPermissions` answers (ERC-7715): the modal's Account list reads it,
 * so it lives apart from the grant's rules (permissions.ts), which need viem: the page's types and chunks
 * stay free of it.
 */
import * as z from 'zod/mini'
import { permissionsPreview } from './preview.ts'

/**
 * Why a granted permission cannot act now (the Account view says it in words): revoked, expired, not
 * started, all its calls made, or this period's allowance of a token used up (until the next period).
 */
export const permissionStates = [
  'active',
  'revoked',
  'expired',
  'notStarted',
  'callLimitReached',
  'allowanceUsed',
] as const
export type PermissionState = (typeof permissionStates)[number]

/**
 * One permission of `wallet_getGrantedExecutionPermissions`: the site's own
 * permissions on this network, read from the chain (what it allows, what it used, whether it can act)
 * with the service's index (which request granted it).
 */
export const grantedPermission = z.object({
  /** The context the site passes in `wallet_sendCalls` (and `wallet_revokePermissions`). */
  context: z.string(),
  chainId: z.string(),
  /** The smart account. */
  address: z.string(),
  state: z.enum(permissionStates),
  /** `allowanceUsed`: when the next period starts (unix seconds). */
  resetsAt: z.optional(z.number()),
  /** What it allows, as the approval showed it. */
  allows: permissionsPreview,
  /** What it used: calls in all, and per token what it spent in the current period. */
  used: z.object({
    calls: z.number(),
    tokens: z.array(z.object({ address: z.string(), spent: z.string() })),
  }),
  grantedAt: z.optional(z.string()),
})
export type GrantedPermission = z.infer<typeof grantedPermission>

/** `wallet_getGrantedExecutionPermissions`' answer. */
export const grantedPermissionsResponse = z.array(grantedPermission)
