import * as z from 'zod/mini'
import { ValidationError } from '../../errors/index.ts'
import type { EvmRpc } from './balances.ts'

/** How long to wait for an EVM receipt before giving up (the transaction may still land). */
const RECEIPT_TIMEOUT_MS = 60_000
const RECEIPT_POLL_MS = 500

const hex = z.string().check(z.regex(/^0x[0-9a-fA-F]*$/))

const receiptSchema = z.object({
  status: hex,
  logs: z.array(z.object({ address: hex, topics: z.array(hex), data: hex })),
})

/** The parts of a transaction receipt the modal reads. */
export type TransactionReceipt = z.infer<typeof receiptSchema>

/**
 * Waits for a transaction's receipt (polling every 500 ms, up to a minute); throws
 * `The transaction reverted` when it did, `The transaction was sent but not confirmed yet` on timeout.
 *
 * @example
 * const receipt = await waitForReceipt(rpc, hash)
 */
export async function waitForReceipt(rpc: EvmRpc, hash: string): Promise<TransactionReceipt> {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS
  while (Date.now() < deadline) {
    const answer = await rpc('eth_getTransactionReceipt', [hash])
    if (answer !== null && answer !== undefined) {
      const receipt = receiptSchema.safeParse(answer)
      if (!receipt.success) throw new ValidationError('The node answered a malformed receipt')
      if (receipt.data.status === '0x0')
        throw new ValidationError('The transaction reverted', { messageId: 'transactionReverted' })
      return receipt.data
    }
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS))
  }
  throw new ValidationError('The transaction was sent but not confirmed yet', {
    messageId: 'notConfirmedYet',
  })
}

/** topic0 of Uniswap V2's `Swap(address sender, uint amount0In, uint amount1In, uint amount0Out, uint amount1Out, address to)`. */
const SWAP_TOPIC = '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822'

/**
 * What a Uniswap V2 swap gave out: the amount out of the last pool's `Swap` event (the router hands the
 * native currency over unwrapped, the same amount). Undefined when the receipt has no such event.
 *
 * @example
 * const received = swapOutput(receipt) // 298802094n
 */
export function swapOutput(receipt: TransactionReceipt): bigint | undefined {
  const last = receipt.logs.findLast((log) => log.topics[0]?.toLowerCase() === SWAP_TOPIC)
  const data = last?.data.slice(2) ?? ''
  if (data.length !== 256) return undefined
  const amount0Out = BigInt(`0x${data.slice(128, 192)}`)
  const amount1Out = BigInt(`0x${data.slice(192, 256)}`)
  return amount0Out > amount1Out ? amount0Out : amount1Out
}
