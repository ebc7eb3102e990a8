/** The preview's rows of EVM calls, decoded from the bytes that will be sent. */
import { type Address, type Hex, isHex } from 'viem'
import type { ApprovalPreview } from '../preview.ts'
import { type ContractReader, decodeEvmCall } from './evmCalls.ts'

/** One call as it is sent (a transaction, a call of a batch or of a UserOperation). */
export interface PreviewedCall {
  to?: string | null | undefined
  value?: string | bigint | undefined
  data?: string | undefined
}

/** A hex quantity or bigint as a decimal string. */
const decimal = (value: string | bigint | undefined) => BigInt(value ?? 0).toString()

/**
 * A contract reader that asks `call` (an `eth_call` on the request's network) once per question.
 *
 * @example
 * const read = cachedReader((to, data) => upstream.call(chainId, 'eth_call', [{ to, data }, 'latest']))
 */
export function cachedReader(call: (to: Address, data: Hex) => Promise<unknown>): ContractReader {
  const reads = new Map<string, Promise<Hex | undefined>>()
  return (to, data) => {
    const key = `${to}:${data}`
    let answer = reads.get(key)
    if (!answer) {
      answer = call(to, data).then(
        (result) => (typeof result === 'string' && isHex(result) ? result : undefined),
        () => undefined,
      )
      reads.set(key, answer)
    }
    return answer
  }
}

/**
 * The rows of a preview's calls: receiver, amount in base units, data size, and the data decoded
 * from the bytes that will be sent (token metadata read on the chain through `read`).
 *
 * @example
 * const transfers = await callsPreview(read, [{ to, value: '0x1', data: '0x' }])
 */
export function callsPreview(
  read: ContractReader,
  calls: readonly PreviewedCall[],
): Promise<NonNullable<ApprovalPreview['transfers']>> {
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
