// ETH that contracts sent inside indexed transactions, read from `debug_traceTransaction` where the upstream has it.
import type { ChainReader } from '../blockchain/chainReader.ts'
import type { ServiceLogger } from '../logger.ts'
import type { RpcTransaction } from './evmRpc.ts'
import { internalTransfers, type StructLog } from './internalTransfers.ts'

/**
 * The internal transfers of transactions, per network; a network whose upstream has no
 * `debug_traceTransaction` is remembered and not asked again.
 *
 * @example
 * const tracedTransfers = createTracer(reader, logger)
 * const [transfers] = await tracedTransfers('eip155:31337', [transaction])
 */
export function createTracer(reader: ChainReader, logger: ServiceLogger | undefined) {
  /** Networks whose upstream has no `debug_traceTransaction`: their internal ETH transfers are not read. */
  const untraceable = new Set<string>()

  /**
   * ETH moved inside the contract calls among `calls` (succeeded or not: a failed trace has none), from
   * `debug_traceTransaction` with the default tracer, one request each; nothing once the upstream says
   * it has no such method.
   */
  async function tracedTransfers(chainId: string, calls: readonly RpcTransaction[]) {
    if (untraceable.has(chainId)) return calls.map(() => [])
    return Promise.all(
      calls.map(async (transaction) => {
        const [answer] = await reader.batch(chainId, [
          {
            method: 'debug_traceTransaction',
            params: [
              transaction.hash,
              { disableStorage: true, disableMemory: true, enableReturnData: false },
            ],
          },
        ])
        if (!answer?.ok) {
          if (
            answer &&
            /not (supported|found|available)|does not exist|unknown method/i.test(answer.message)
          ) {
            untraceable.add(chainId)
            logger?.info(
              { chainId },
              `${chainId} has no debug_traceTransaction: ETH sent by contracts is not indexed`,
            )
            return []
          }
          throw new Error(`debug_traceTransaction failed: ${answer ? answer.message : 'no answer'}`)
        }
        const trace = answer.result as { failed?: boolean; structLogs?: StructLog[] }
        if (trace.failed || !transaction.to) return []
        return internalTransfers(trace.structLogs ?? [], transaction.to)
      }),
    )
  }

  return tracedTransfers
}
