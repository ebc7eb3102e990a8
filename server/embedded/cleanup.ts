/** The embedded wallet's housekeeping: rows long expired (codes, links, sign-ins, sessions) deleted. */
import { lt } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import {
  walletCodes,
  walletDeviceApprovals,
  walletEmailUpdates,
  walletFarcasterLogins,
  walletPasskeyCeremonies,
  walletRequests,
  walletSessionNonces,
  walletSessions,
  walletSocialLogins,
} from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'

/**
 * A sweep that deletes what expired a day ago (session nonces as soon as they expire), at most once a
 * minute however often it is called.
 *
 * @example
 * const cleanUp = createCleanup(db, logger)
 * await cleanUp(Date.now())
 */
export function createCleanup(db: Db, logger?: ServiceLogger) {
  let lastCleanup = Number.NEGATIVE_INFINITY
  return async function cleanUp(time: number): Promise<void> {
    if (time - lastCleanup < 60_000) return
    lastCleanup = time
    const dayAgo = new Date(time - 24 * 60 * 60_000)
    try {
      await db.delete(walletCodes).where(lt(walletCodes.expiresAt, dayAgo))
      await db.delete(walletDeviceApprovals).where(lt(walletDeviceApprovals.expiresAt, dayAgo))
      await db.delete(walletEmailUpdates).where(lt(walletEmailUpdates.expiresAt, dayAgo))
      await db.delete(walletRequests).where(lt(walletRequests.expiresAt, dayAgo))
      await db.delete(walletSessions).where(lt(walletSessions.expiresAt, dayAgo))
      await db.delete(walletSessionNonces).where(lt(walletSessionNonces.expiresAt, new Date(time)))
      await db.delete(walletSocialLogins).where(lt(walletSocialLogins.expiresAt, dayAgo))
      await db.delete(walletFarcasterLogins).where(lt(walletFarcasterLogins.expiresAt, dayAgo))
      await db.delete(walletPasskeyCeremonies).where(lt(walletPasskeyCeremonies.expiresAt, dayAgo))
    } catch (error) {
      logger?.warn({ err: error }, 'Could not delete expired embedded-wallet rows')
    }
  }
}
