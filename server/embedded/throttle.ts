import { and, eq, sql } from 'drizzle-orm'
import { embeddedLimits } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletEmailThrottle } from '../db/schema.ts'
import { emailCooldown } from './errors.ts'

const HOUR_MS = 60 * 60_000

/**
 * The sign-in mail throttle, kept in the database so it holds across instances and under concurrent
 * requests: one address gets at most one mail per 30 s (SPEC 5, 9) and `emailsPerHour` per hour.
 * `take` claims a slot atomically (one upsert whose update only applies when the address may be
 * mailed), or throws `Please try again after N seconds`; `release` gives the slot back when the mail
 * could not be sent.
 *
 * @example
 * const sentAt = await throttle.take(project.id, email, now())
 * try { await mailer.send(mail) } catch (error) { await throttle.release(project.id, email, sentAt); throw error }
 */
export function createEmailThrottle(db: Db) {
  return {
    async take(projectId: string, email: string, time: number): Promise<Date> {
      const sentAt = new Date(time)
      const cooldownEnd = new Date(time - embeddedLimits.emailCooldownMs)
      const hourAgo = new Date(time - HOUR_MS)
      const table = walletEmailThrottle
      const claimed = await db
        .insert(table)
        .values({ projectId, email, lastSentAt: sentAt, windowStart: sentAt, windowCount: 1 })
        .onConflictDoUpdate({
          target: [table.projectId, table.email],
          set: {
            lastSentAt: sentAt,
            windowStart: sql`case when ${table.windowStart} <= ${hourAgo} then ${sentAt} else ${table.windowStart} end`,
            windowCount: sql`case when ${table.windowStart} <= ${hourAgo} then 1 else ${table.windowCount} + 1 end`,
          },
          setWhere: sql`${table.lastSentAt} <= ${cooldownEnd} and (${table.windowStart} <= ${hourAgo} or ${table.windowCount} < ${embeddedLimits.emailsPerHour})`,
        })
        .returning({ lastSentAt: table.lastSentAt })
      if (claimed.length > 0) return sentAt
      const [row] = await db
        .select()
        .from(table)
        .where(and(eq(table.projectId, projectId), eq(table.email, email)))
        .limit(1)
      const cooldownLeft = row ? row.lastSentAt.getTime() + embeddedLimits.emailCooldownMs - time : 1000
      if (cooldownLeft > 0) throw emailCooldown(cooldownLeft / 1000)
      // Over the hourly number: the same message, with the wait until the hour's window ends.
      throw emailCooldown(((row ? row.windowStart.getTime() + HOUR_MS : time + 1000) - time) / 1000)
    },

    /** Gives back a slot taken at `sentAt` (the mail failed), unless a later one was taken since. */
    async release(projectId: string, email: string, sentAt: Date): Promise<void> {
      const table = walletEmailThrottle
      await db
        .update(table)
        .set({
          lastSentAt: new Date(0),
          windowCount: sql`greatest(${table.windowCount} - 1, 0)`,
        })
        .where(and(eq(table.projectId, projectId), eq(table.email, email), eq(table.lastSentAt, sentAt)))
    },
  }
}

export type EmailThrottle = ReturnType<typeof createEmailThrottle>
