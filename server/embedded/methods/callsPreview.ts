/** The preview's rows of EVM calls on the service (token metadata read through its upstream). */
import type { ApprovalPreview } from '../../../src/protocol/embedded/index.ts'
import {
  cachedReader,
  type PreviewedCall,
  callsPreview as rowsOf,
} from '../../../src/protocol/embedded/preview/calls.ts'
import type { MethodContext } from './types.ts'

export type { PreviewedCall }

/**
 * The rows of a preview's calls, as the frame will build them from what it signs.
 *
 * @example
 * const transfers = await callsPreview(ctx, [{ to, value: '0x1', data: '0x' }])
 */
export function callsPreview(
  ctx: MethodContext,
  calls: readonly PreviewedCall[],
): Promise<NonNullable<ApprovalPreview['transfers']>> {
  const read = cachedReader((to, data) =>
    ctx.upstream.call(ctx.chainId, 'eth_call', [{ to, data }, 'latest']),
  )
  return rowsOf(read, calls)
}
