import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { ChainCall, ChainReader } from '../blockchain/chainReader.ts'
import type { Db } from '../db/database.ts'
import { historyNetworks, historyTransfers } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import {
  type Hex,
  type RpcBlock,
  type RpcLog,
  type RpcTransaction,
  resultOf,
  topicAddress,
} from './evmRpc.ts'
import { createTracer } from './traces.ts'

/** keccak256('Transfer(address,address,uint256)'): ERC-20 (3 topics) and ERC-721 (4 topics) alike. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/** Blocks read per round: one JSON-RPC batch of blocks plus one `eth_getLogs`. */
const blocksPerRound = 50

export interface HistoryNetwork {
  chainId: string
  /** Transactions to this contract (the swap router) are marked as swaps. */
  swapRouter?: string
  /** Native or token transfers from these accounts (the on-ramp's) are marked as on-ramp deliveries. */
  onrampSenders?: readonly string[]
}

export interface HistoryIndexerOptions {
  db: Db
  reader: ChainReader
  networks: readonly HistoryNetwork[]
  /** Between rounds once caught up, in ms. */
  pollMs: number
  /** How long a lease lasts without renewal; another instance takes the network over after that. */
  leaseMs: number
  logger?: ServiceLogger
}

export interface HistoryIndexer {
  /** This instance's id, the `holder` of the leases it takes. */
  readonly id: string
  /** Blocks and transfers this instance has stored, over all its networks (for tests and the bench). */
  readonly indexed: { readonly blocks: number; readonly transfers: number }
  /** Stops the rounds and gives the leases back, so another instance takes over at once. */
  stop(): Promise<void>
  /** Stops the rounds without giving the leases back, as a process that dies does (tests). */
  halt(): Promise<void>
}

type TransferRow = typeof historyTransfers.$inferInsert

/**
 * The history indexer of EVM networks: reads blocks in order (native transfers from the transactions'
 * values, with their receipts' status) and ERC-20 `Transfer` logs, and stores them with the block's
 * time, marking swaps (transactions to the swap router) and on-ramp deliveries. It follows new blocks
 * every `pollMs`, resumes from the database after a restart, and, when the block before its next one
 * has another hash than it recorded (the chain was reset), deletes the network's history and indexes
 * it again from block 0.
 *
 * With several instances on one database, each round first takes or renews the network's lease (a row
 * of `history_networks`, timed by the database's clock); only the holder indexes, and a holder that dies
 * is replaced once its lease runs out. Each round's writes check, in their transaction, that the lease
 * and the position are still the ones the round started from, so nothing is indexed twice.
 *
 * @example
 * const indexer = startHistoryIndexer({ db, reader, networks: [{ chainId: 'eip155:31337' }], pollMs: 1000, leaseMs: 15_000 })
 * await indexer.stop()
 */
export function startHistoryIndexer(options: HistoryIndexerOptions): HistoryIndexer {
  const id = randomUUID()
  const { db, reader, logger } = options
  let running = true
  const loops: Promise<void>[] = []
  const wakers = new Set<() => void>()
  const indexed = { blocks: 0, transfers: 0 }
  const tracedTransfers = createTracer(reader, logger)

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        wakers.delete(wake)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      wakers.add(wake)
    })

  /** Takes or renews the lease; resolves to the network's position when this instance holds it. */
  async function takeLease(chainId: string): Promise<{ nextBlock: number; lastHash: string | null } | null> {
    const result = await db.execute(sql`
      INSERT INTO history_networks (chain_id, holder, lease_until)
      VALUES (${chainId}, ${id}, now() + ${options.leaseMs} * interval '1 millisecond')
      ON CONFLICT (chain_id) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
      WHERE history_networks.holder = excluded.holder OR history_networks.holder IS NULL
        OR history_networks.lease_until IS NULL OR history_networks.lease_until < now()
      RETURNING next_block, last_hash`)
    const row = (result as unknown as { rows: { next_block: string | number; last_hash: string | null }[] })
      .rows[0]
    return row ? { nextBlock: Number(row.next_block), lastHash: row.last_hash } : null
  }

  /**
   * Writes a round's transfers and moves the position, if the lease and the position are still the
   * round's; false when another instance took over meanwhile (nothing is written then).
   */
  async function commit(
    chainId: string,
    from: number,
    to: { nextBlock: number; lastHash: string | null },
    rows: TransferRow[],
    wipe: boolean,
  ): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [held] = await tx
        .select({ nextBlock: historyNetworks.nextBlock })
        .from(historyNetworks)
        .where(and(eq(historyNetworks.chainId, chainId), eq(historyNetworks.holder, id)))
        .for('update')
      if (!held || held.nextBlock !== from) return false
      if (wipe) await tx.delete(historyTransfers).where(eq(historyTransfers.chainId, chainId))
      for (let start = 0; start < rows.length; start += 500) {
        await tx
          .insert(historyTransfers)
          .values(rows.slice(start, start + 500))
          .onConflictDoNothing()
      }
      await tx
        .update(historyNetworks)
        .set({ nextBlock: to.nextBlock, lastHash: to.lastHash, updatedAt: new Date() })
        .where(eq(historyNetworks.chainId, chainId))
      return true
    })
  }

  /** One round on one network; resolves to true when there may be more blocks to read at once. */
  async function round(network: HistoryNetwork): Promise<boolean> {
    const { chainId } = network
    const position = await takeLease(chainId)
    if (!position) return false
    const { nextBlock } = position
    const [headAnswer, previousAnswer] = await reader.batch(chainId, [
      { method: 'eth_blockNumber', params: [] },
      ...(nextBlock > 0
        ? [{ method: 'eth_getBlockByNumber', params: [`0x${(nextBlock - 1).toString(16)}`, false] }]
        : []),
    ])
    const head = Number(BigInt(resultOf<Hex>(headAnswer, 'eth_blockNumber')))
    if (nextBlock > 0) {
      const previous = resultOf<RpcBlock | null>(previousAnswer, 'eth_getBlockByNumber')
      if (previous?.hash !== position.lastHash) {
        logger?.warn(
          { chainId, block: nextBlock - 1 },
          `The chain ${chainId} was reset (block ${nextBlock - 1} changed): indexing its history again`,
        )
        await commit(chainId, nextBlock, { nextBlock: 0, lastHash: null }, [], true)
        return true
      }
    }
    if (head < nextBlock) return false
    const last = Math.min(head, nextBlock + blocksPerRound - 1)
    const blockCalls: ChainCall[] = []
    for (let number = nextBlock; number <= last; number++)
      blockCalls.push({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, true] })
    const answers = await reader.batch(chainId, [
      ...blockCalls,
      {
        method: 'eth_getLogs',
        params: [
          {
            fromBlock: `0x${nextBlock.toString(16)}`,
            toBlock: `0x${last.toString(16)}`,
            topics: [TRANSFER_TOPIC],
          },
        ],
      },
    ])
    const blocks = answers
      .slice(0, blockCalls.length)
      .map((answer) => resultOf<RpcBlock | null>(answer, 'eth_getBlockByNumber'))
    const logs = resultOf<RpcLog[]>(answers[blockCalls.length], 'eth_getLogs')
    // Blocks must follow on from what is stored and from each other, else the chain moved under us.
    let expectedParent = position.lastHash
    for (const block of blocks) {
      if (!block || (expectedParent !== null && block.parentHash !== expectedParent)) return true
      expectedParent = block.hash
    }
    const verified = blocks as RpcBlock[]

    const swapRouter = network.swapRouter?.toLowerCase()
    const onrampSenders = new Set((network.onrampSenders ?? []).map((address) => address.toLowerCase()))
    const transactions = new Map<string, { block: RpcBlock; transaction: RpcTransaction }>()
    for (const block of verified)
      for (const transaction of block.transactions) transactions.set(transaction.hash, { block, transaction })
    const kindOf = (transaction: RpcTransaction, from: string): TransferRow['kind'] => {
      if (swapRouter !== undefined && transaction.to?.toLowerCase() === swapRouter) return 'swap'
      if (onrampSenders.has(from)) return 'onramp'
      return 'transfer'
    }

    // Native value moves only when the transaction succeeded: its receipt says.
    const valued = [...transactions.values()].filter(({ transaction }) => BigInt(transaction.value) > 0n)
    const receipts = await reader.batch(
      chainId,
      valued.map(({ transaction }) => ({ method: 'eth_getTransactionReceipt', params: [transaction.hash] })),
    )
    const rows: TransferRow[] = []
    valued.forEach(({ block, transaction }, index) => {
      const receipt = resultOf<{ status?: Hex } | null>(receipts[index], 'eth_getTransactionReceipt')
      if (receipt?.status !== '0x1') return
      const from = transaction.from.toLowerCase()
      rows.push({
        chainId,
        blockNumber: Number(BigInt(block.number)),
        txIndex: Number(BigInt(transaction.transactionIndex)),
        logIndex: -1,
        txHash: transaction.hash,
        minedAt: new Date(Number(BigInt(block.timestamp)) * 1000),
        kind: kindOf(transaction, from),
        token: 'native',
        fromAddress: from,
        // A contract creation's value goes to the new contract; it is not a transfer to anyone named.
        toAddress: (transaction.to ?? '0x0000000000000000000000000000000000000000').toLowerCase(),
        amount: BigInt(transaction.value).toString(),
      })
    })
    // ETH that contracts sent while running (a swap's ETH out of the router, for one): traced.
    const calls = [...transactions.values()].filter(
      ({ transaction }) => transaction.to !== null && transaction.input !== '0x',
    )
    const traced = await tracedTransfers(
      chainId,
      calls.map(({ transaction }) => transaction),
    )
    calls.forEach(({ block, transaction }, index) => {
      ;(traced[index] ?? []).forEach((internal, position) => {
        rows.push({
          chainId,
          blockNumber: Number(BigInt(block.number)),
          txIndex: Number(BigInt(transaction.transactionIndex)),
          logIndex: -2 - position,
          txHash: transaction.hash,
          minedAt: new Date(Number(BigInt(block.timestamp)) * 1000),
          kind: kindOf(transaction, internal.from),
          token: 'native',
          fromAddress: internal.from,
          toAddress: internal.to,
          amount: internal.value.toString(),
        })
      })
    })
    for (const log of logs) {
      // ERC-721 transfers have the token id as a fourth topic and no data: not fungible, left out.
      if (log.removed || log.topics.length !== 3 || !/^0x[0-9a-fA-F]{64}$/.test(log.data)) continue
      const found = transactions.get(log.transactionHash)
      if (!found) continue
      const from = topicAddress(log.topics[1] as Hex)
      rows.push({
        chainId,
        blockNumber: Number(BigInt(log.blockNumber)),
        txIndex: Number(BigInt(log.transactionIndex)),
        logIndex: Number(BigInt(log.logIndex)),
        txHash: log.transactionHash,
        minedAt: new Date(Number(BigInt(found.block.timestamp)) * 1000),
        kind: kindOf(found.transaction, from),
        token: log.address.toLowerCase(),
        fromAddress: from,
        toAddress: topicAddress(log.topics[2] as Hex),
        amount: BigInt(log.data).toString(),
      })
    }
    const lastBlock = verified[verified.length - 1] as RpcBlock
    const moved = await commit(
      chainId,
      nextBlock,
      { nextBlock: last + 1, lastHash: lastBlock.hash },
      rows,
      false,
    )
    if (moved) {
      indexed.blocks += verified.length
      indexed.transfers += rows.length
    }
    return moved && last < head
  }

  async function loop(network: HistoryNetwork): Promise<void> {
    let failures = 0
    while (running) {
      let more = false
      try {
        more = await round(network)
        failures = 0
      } catch (error) {
        failures++
        // Once per failure streak at warn; the chain or the database may simply be restarting.
        if (failures === 1 && running)
          logger?.warn(
            { err: error, chainId: network.chainId },
            `History indexing of ${network.chainId} failed`,
          )
      }
      if (running && !more) await sleep(options.pollMs * Math.min(2 ** Math.max(0, failures - 1), 30))
    }
  }

  for (const network of options.networks) loops.push(loop(network))

  async function halt(): Promise<void> {
    running = false
    for (const wake of [...wakers]) wake()
    await Promise.all(loops)
  }

  return {
    id,
    indexed,
    halt,
    async stop() {
      await halt()
      await db
        .update(historyNetworks)
        .set({ leaseUntil: null, holder: null })
        .where(eq(historyNetworks.holder, id))
        .catch((error: unknown) => logger?.warn({ err: error }, 'Could not give back the history leases'))
    },
  }
}
