import { MAX_PENDING_TRANSACTIONS } from '../protocol/constants.ts'
import type { Config } from './config.ts'

/**
 * Tracks a sent transaction until it confirms (SPEC section 9: at most 99 per account). The 100th
 * replaces the oldest, with a warning in the client log. Returns the function that stops tracking
 * it; an account with nothing pending leaves no entry behind.
 *
 * @example
 * const settled = trackPending(config, account.caipAddress, hash)
 * try { await waitForReceipt(rpc, hash) } finally { settled() }
 */
export function trackPending(config: Config, caipAddress: string, hash: string): () => void {
  const pending = config.internal.pendingTransactions
  const list = pending.get(caipAddress) ?? []
  if (list.length >= MAX_PENDING_TRANSACTIONS) {
    const dropped = list.shift()
    config.logger.log(
      'warn',
      `More than ${MAX_PENDING_TRANSACTIONS} pending transactions: the oldest is no longer tracked`,
      {
        account: caipAddress,
        dropped,
      },
    )
  }
  list.push(hash)
  pending.set(caipAddress, list)
  return () => {
    const index = list.indexOf(hash)
    if (index >= 0) list.splice(index, 1)
    if (list.length === 0 && pending.get(caipAddress) === list) pending.delete(caipAddress)
  }
}
