/**
 * `wallet_sendCalls`' `paymasterService` capability (ERC-7677) in the embedded wallet: honoured only when
 * its URL is the project's own paymaster endpoint (`PAYMASTER_PUBLIC_URL?projectId=…`), on a smart account;
 * any other paymaster is refused (EIP-5792 5700) unless the dapp marked it optional, when it is ignored.
 */
import * as z from 'zod/mini'
import { EmbeddedError } from '../errors.ts'
import type { Sponsorship } from '../smartAccounts.ts'
import type { MethodContext } from './types.ts'

const capability = z.object({
  url: z.string().check(z.maxLength(2048)),
  context: z.optional(z.record(z.string(), z.unknown())),
  optional: z.optional(z.boolean()),
})

/** EIP-5792: a non-optional capability the wallet does not honour refuses the batch. */
const unsupported = (why: string) =>
  new EmbeddedError(400, 'BAD_REQUEST', `Unsupported non-optional capability: paymasterService (${why})`, {
    rpcCode: 5700,
  })

/** Whether `given` is the project's own endpoint: the same origin and path, and the project's id. */
function isOwnEndpoint(given: string, own: string): boolean {
  let url: URL
  try {
    url = new URL(given)
  } catch {
    return false
  }
  const expected = new URL(own)
  return (
    url.origin === expected.origin &&
    url.pathname.replace(/\/$/, '') === expected.pathname.replace(/\/$/, '') &&
    url.searchParams.get('projectId') === expected.searchParams.get('projectId')
  )
}

/**
 * The sponsorship a batch asks for through its `paymasterService` capability: the project's when the URL
 * is its own endpoint and the request goes through the smart account; null when there is none or it is
 * optional and cannot be honoured; refused (5700) otherwise.
 *
 * @example
 * const sponsor = paymasterServiceOf(ctx, batch.capabilities, evm.smart)
 * await ctx.smart.prepareCalls(ctx.userId, ctx.chainId, calls, sponsor ?? undefined)
 */
export function paymasterServiceOf(
  ctx: Pick<MethodContext, 'projectId' | 'paymasterUrl'>,
  capabilities: Record<string, unknown> | undefined,
  smartAccount: boolean,
): Sponsorship | null {
  const raw = capabilities?.paymasterService
  if (raw === undefined) return null
  const parsed = z.safeParse(capability, raw)
  const optional = (raw as { optional?: unknown } | null)?.optional === true
  if (!parsed.success) {
    if (optional) return null
    throw new EmbeddedError(
      400,
      'BAD_REQUEST',
      'Invalid paymasterService capability: expected { url, context?, optional? }',
      {
        rpcCode: -32602,
      },
    )
  }
  if (!isOwnEndpoint(parsed.data.url, ctx.paymasterUrl)) {
    if (optional) return null
    throw unsupported("this wallet takes only its project's own paymaster")
  }
  if (!smartAccount) {
    if (optional) return null
    throw unsupported('an EOA pays its own gas; switch to the smart account')
  }
  return { projectId: ctx.projectId, ...(parsed.data.context ? { context: parsed.data.context } : {}) }
}
