/** One step of `debug_traceTransaction`'s default (struct log) tracer: the fields read here. */
export interface StructLog {
  op: string
  depth: number
  /** Hex words, the top of the stack last. */
  stack?: string[]
}

/** ETH a contract sent during a transaction (an internal transfer), in wei. */
export interface InternalTransfer {
  from: string
  to: string
  value: bigint
}

interface Frame {
  /** The account whose code runs (a DELEGATECALL or CALLCODE runs another's code as this one). */
  address: string
  /** Value moved by this frame and its finished calls; dropped if the frame reverts. */
  transfers: InternalTransfer[]
}

const word = (hex: string | undefined) => BigInt(hex?.startsWith('0x') ? hex : `0x${hex ?? '0'}`)
const address = (hex: string | undefined) => `0x${word(hex).toString(16).padStart(40, '0').slice(-40)}`

/**
 * The ETH that moved inside a successful transaction, from its struct-log trace: each `CALL` (or
 * `CALLCODE`) with a value whose call succeeded (the caller's next step finds 1 on its stack), kept only
 * if every frame above it finished without reverting. The top-level value is not in it (the block scan
 * has it); neither are value sent with `CREATE`/`CREATE2` nor `SELFDESTRUCT` balances.
 *
 * @example
 * internalTransfers(trace.structLogs, transaction.to) // [{ from: router, to: alice, value: 3n * 10n ** 15n }]
 */
export function internalTransfers(logs: readonly StructLog[], to: string): InternalTransfer[] {
  const frames: Frame[] = [{ address: to.toLowerCase(), transfers: [] }]
  /** Per depth, the call waiting for its result: its value transfer, if it carries one. */
  const pending = new Map<number, InternalTransfer | null>()
  for (const log of logs) {
    // Back in a frame whose call was waiting: the top of the stack says whether it succeeded (1, or the
    // new contract's address after a CREATE; 0 when it failed).
    const waiting = pending.get(log.depth)
    if (waiting !== undefined) {
      pending.delete(log.depth)
      const children = frames.splice(log.depth)
      if (word(log.stack?.[log.stack.length - 1]) !== 0n) {
        const parent = frames[log.depth - 1] as Frame
        if (waiting) parent.transfers.push(waiting)
        for (const frame of children) parent.transfers.push(...frame.transfers)
      }
    }
    const current = frames[log.depth - 1]
    if (!current) continue
    const stack = log.stack ?? []
    const top = (index: number) => stack[stack.length - 1 - index]
    if (log.op === 'CALL' || log.op === 'CALLCODE') {
      const value = word(top(2))
      const target = address(top(1))
      pending.set(log.depth, value > 0n ? { from: current.address, to: target, value } : null)
      frames[log.depth] = { address: log.op === 'CALL' ? target : current.address, transfers: [] }
    } else if (log.op === 'DELEGATECALL') {
      pending.set(log.depth, null)
      frames[log.depth] = { address: current.address, transfers: [] }
    } else if (log.op === 'STATICCALL') {
      pending.set(log.depth, null)
      frames[log.depth] = { address: address(top(1)), transfers: [] }
    } else if (log.op === 'CREATE' || log.op === 'CREATE2') {
      // The new contract's address is known only on return; what its constructor sends is from 0x0.
      pending.set(log.depth, null)
      frames[log.depth] = { address: `0x${'0'.repeat(40)}`, transfers: [] }
    } else if (log.op === 'REVERT' || log.op === 'INVALID') {
      current.transfers = []
    }
  }
  return frames[0]?.transfers ?? []
}
