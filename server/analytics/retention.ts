import { lt, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { analyticsEvents } from '../db/schema.ts'

/** Rows one delete statement takes at most, so the retention job never holds long locks. */
const batchSize = 5000

/**
 * The rows the retention job deletes: events received before `before` (served by the
 * `analytics_events_received_idx` index), a batch at a time.
 *
 * @example
 * await db.execute(sql`EXPLAIN ${oldEventsQuery(cutoff)}`)
 */
export function oldEventsQuery(before: Date) {
  return sql`DELETE FROM ${analyticsEvents} WHERE ctid IN (SELECT ctid FROM ${analyticsEvents} WHERE ${lt(analyticsEvents.receivedAt, before)} LIMIT ${batchSize})`
}

/**
 * Deletes analytics events received before `before`, in batches, and resolves to how many.
 *
 * @example
 * await deleteOldAnalyticsEvents(db, new Date(Date.now() - 90 * 86_400_000))
 */
export async function deleteOldAnalyticsEvents(db: Db, before: Date): Promise<number> {
  let deleted = 0
  for (;;) {
    const result = await db.execute(oldEventsQuery(before))
    const count = Number(
      (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ??
        (result as { affectedRows?: number }).affectedRows ??
        0,
    )
    deleted += count
    if (count < batchSize) return deleted
  }
}
