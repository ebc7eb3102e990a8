/** The embedded wallet's `wallet_sendCalls` batches: what was sent under an id, for `wallet_getCallsStatus`. */
import { and, eq } from 'drizzle-orm'
import { bytesToHex } from 'viem'
import type { Db } from '../db/database.ts'
import { walletCallBatches } from '../db/schema.ts'

/** One batch as stored: the EOA's transactions one after another, or one UserOperation of a smart account. */
export interface CallBatch {
  chainId: string
  txHashes: string[]
  userOpHash?: string | null
}

/** Where batches are kept, per person. */
export interface CallBatches {
  /** Stores a batch and answers its new id (32 random bytes in hex, as EIP-5792 ids go). */
  record(userId: string, batch: CallBatch): Promise<string>
  /** The person's batch of that id, or undefined (another person's batch is not found either). */
  find(userId: string, id: string): Promise<CallBatch | undefined>
}

/**
 * The batches in the database.
 *
 * @example
 * const batches = createCallBatches(db, Date.now)
 * const id = await batches.record(userId, { chainId: 'eip155:1', txHashes: [hash] })
 */
export function createCallBatches(db: Db, now: () => number): CallBatches {
  return {
    async record(userId, batch) {
      const id = bytesToHex(crypto.getRandomValues(new Uint8Array(32)))
      await db.insert(walletCallBatches).values({
        id,
        userId,
        chainId: batch.chainId,
        txHashes: batch.txHashes,
        ...(batch.userOpHash ? { userOpHash: batch.userOpHash } : {}),
        createdAt: new Date(now()),
      })
      return id
    },
    async find(userId, id) {
      const [batch] = await db
        .select()
        .from(walletCallBatches)
        .where(and(eq(walletCallBatches.id, id), eq(walletCallBatches.userId, userId)))
        .limit(1)
      return batch
    },
  }
}
