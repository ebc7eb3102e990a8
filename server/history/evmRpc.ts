// The EVM JSON-RPC shapes the history indexer reads (blocks, transactions, logs) and a batch answer's result.
import type { ChainReader } from '../blockchain/chainReader.ts'

export type Hex = `0x${string}`

export interface RpcTransaction {
  hash: Hex
  from: Hex
  to: Hex | null
  value: Hex
  input: Hex
  transactionIndex: Hex
}

export interface RpcBlock {
  number: Hex
  hash: Hex
  parentHash: Hex
  timestamp: Hex
  transactions: RpcTransaction[]
}

export interface RpcLog {
  address: Hex
  topics: Hex[]
  data: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  blockNumber: Hex
  removed?: boolean
}

/** The address in a log topic (the last 20 of its 32 bytes), lowercase. */
export const topicAddress = (topic: Hex) => `0x${topic.slice(26)}`.toLowerCase()

/** Result of one call of a batch, or an error naming the method (never the upstream). */
export function resultOf<T>(
  answer: Awaited<ReturnType<ChainReader['batch']>>[number] | undefined,
  method: string,
): T {
  if (!answer?.ok) throw new Error(`${method} failed: ${answer ? answer.message : 'no answer'}`)
  return answer.result as T
}
