// The person's Bitcoin public keys (BIP-84): sent once by the frame, vouched for by the set's EVM key.
import { eq } from 'drizzle-orm'
import { type Hex, isAddressEqual, recoverMessageAddress } from 'viem'
import type { BitcoinPublicKeys } from '../../src/protocol/embedded/bitcoin.ts'
import {
  type BitcoinKeysRequest,
  type BitcoinKeysResponse,
  bitcoinKeysProofMessage,
} from '../../src/protocol/embedded/keys.ts'
import type { Db } from '../db/database.ts'
import { walletBitcoinKeys, walletShareSets } from '../db/schema.ts'
import { EmbeddedError } from './errors.ts'
import type { WalletSession } from './sessions.ts'

/** A Bitcoin request before the frame sent the person's Bitcoin keys. */
export const bitcoinKeysMissingMessage =
  "This wallet's Bitcoin account is not set up yet: open the wallet again"

/**
 * The Bitcoin keys of each user.
 *
 * @example
 * const bitcoinKeys = createBitcoinKeys(db)
 * const keys = await bitcoinKeys.of(userId) // { bitcoin: '02…', bitcoinTest: '03…' } or undefined
 */
export function createBitcoinKeys(db: Db) {
  async function of(userId: string): Promise<BitcoinPublicKeys | undefined> {
    const [row] = await db
      .select()
      .from(walletBitcoinKeys)
      .where(eq(walletBitcoinKeys.userId, userId))
      .limit(1)
    return row ? { bitcoin: row.mainnetPublicKey, bitcoinTest: row.testPublicKey } : undefined
  }

  return {
    of,

    /** `GET keys/bitcoin`. */
    async state(session: WalletSession): Promise<BitcoinKeysResponse> {
      return { publicKeys: (await of(session.userId)) ?? null }
    },

    /**
     * `POST keys/bitcoin`: kept once the proof recovers to the current set's EVM address. Keys never
     * change for a person (the same secret); other keys than the kept ones are refused.
     */
    async register(session: WalletSession, body: BitcoinKeysRequest): Promise<BitcoinKeysResponse> {
      const [set] = await db
        .select({ setId: walletShareSets.setId, evmAddress: walletShareSets.evmAddress })
        .from(walletShareSets)
        .where(eq(walletShareSets.userId, session.userId))
        .limit(1)
      if (!set || set.setId !== body.setId)
        throw new EmbeddedError(409, 'FORBIDDEN', 'This key set is not the current one')
      const message = bitcoinKeysProofMessage({
        projectId: session.projectId,
        setId: body.setId,
        publicKeys: body.publicKeys,
      })
      const signer = await recoverMessageAddress({ message, signature: body.proof as Hex }).catch(
        () => undefined,
      )
      if (!signer || !isAddressEqual(signer, set.evmAddress as Hex))
        throw new EmbeddedError(403, 'FORBIDDEN', 'The Bitcoin keys are not vouched for by this wallet')
      await db
        .insert(walletBitcoinKeys)
        .values({
          userId: session.userId,
          mainnetPublicKey: body.publicKeys.bitcoin,
          testPublicKey: body.publicKeys.bitcoinTest,
        })
        .onConflictDoNothing()
      const kept = await of(session.userId)
      if (kept?.bitcoin !== body.publicKeys.bitcoin || kept.bitcoinTest !== body.publicKeys.bitcoinTest)
        throw new EmbeddedError(409, 'FORBIDDEN', 'This wallet has other Bitcoin keys')
      return { publicKeys: kept }
    },
  }
}

export type BitcoinKeys = ReturnType<typeof createBitcoinKeys>
