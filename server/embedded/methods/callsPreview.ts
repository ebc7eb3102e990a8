/** The preview's rows of EVM calls, decoded from the bytes that will be sent. */
import { type Hex, isHex } from 'viem'
import type { ApprovalPreview } from '../../../src/protocol/embedded/index.ts'
import { type ContractReader, decodeEvmCall } from '../preview/evmCalls.ts'
import type { MethodContext } from './types.ts'

/** One call as the page gave it (a transaction, a call of a batch or of a UserOperation). */
export interface PreviewedCall {
  to?: string | null | undefined
  value?: string | bigint | undefined
  data?: string | undefined
}

/** A hex quantity as a decimal string. */
const decimal = (value: string | bigint | undefined) => BigInt(value ?? 0).toString()

/**
 * The rows of a preview's calls: receiver, amount in base units, data size, and the data decoded
 * from the bytes that will be sent (token metadata read on the chain, each read once).
 *
 * @example
 * const transfers = await callsPreview(ctx, [{ to, value: '0x1', data: '0x' }])
 */
export async function callsPreview(
  ctx: MethodContext,
  calls: readonly PreviewedCall[],
): Promise<NonNullable<ApprovalPreview['transfers']>> {
  const reads = new Map<string, Promise<Hex | undefined>>()
  const read: ContractReader = (to, data) => {
    const key = `${to}:${data}`
    let answer = reads.get(key)
    if (!answer) {
      answer = (ctx.upstream.call(ctx.chainId, 'eth_call', [{ to, data }, 'latest']) as Promise<Hex>).then(
        (result) => (isHex(result) ? result : undefined),
        () => undefined,
      )
      reads.set(key, answer)
    }
    return answer
  }
  return Promise.all(
    calls.map(async (call) => {
      const action = await decodeEvmCall(read, call.to, call.data)
      return {
        to: call.to ?? '',
        value: decimal(call.value),
        dataBytes: Math.max(0, ((call.data ?? '0x').length - 2) / 2),
        ...(action ? { action } : {}),
      }
    }),
  )
}
