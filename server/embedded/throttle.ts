import { and, eq, sql } from 'drizzle-orm'
import { embeddedLimits } from '../../src/protocol/embedded/index.ts'
import type { Db } from '../db/database.ts'
import { walletEmailThrottle } from '../db/schema.ts'
import { emailCooldown } from './errors.ts'

const HOUR_MS = 60 * 60_000
/** The key of a project's own budget row: not an address (addresses always have an `@`). */
const PROJECT_KEY = '#project'

/**
 * The sign-in mail throttle, kept in the database so it holds across instances and under concurrent
 * requests: one address gets at most one mail per 30 s (SPEC 5, 9) and `emailsPerHour` per hour.
 * `take` claims a slot atomically (one upsert whose update only applies when the address may be
 * mailed), or throws `Please try again after N seconds`; `release` gives the slot back when the mail
 * could not be sent. `takeProject` does the same for the project's hourly budget of sign-in mails, all
 * addresses together (against many clients mailing many addresses), on a row of the same
 * table whose key is no address.
 *
 * @example
 * const sentAt = await throttle.take(project.id, email, now())
 * try { await mailer.send(mail) } catch (error) { await throttle.release(project.id, email, sentAt); throw error }
 */
export function createEmailThrottle(db: Db) {
  const table = walletEmailThrottle

  /**
   * Claims one mail on the row `key` at `time` in one upsert: its hourly window holds fewer than
   * `perHour` (a window older than an hour starts again) and, with `cooldownMs`, the last mail is that
   * old. Answers nothing when claimed, else the row as it stands (to say how long to wait).
   */
  async function claim(projectId: string, key: string, time: number, perHour: number, cooldownMs = 0) {
    const sentAt = new Date(time)
    const hourAgo = new Date(time - HOUR_MS)
    const windowOpen = sql`(${table.windowStart} <= ${hourAgo} or ${table.windowCount} < ${perHour})`
    const claimed = await db
      .insert(table)
      .values({ projectId, email: key, lastSentAt: sentAt, windowStart: sentAt, windowCount: 1 })
      .onConflictDoUpdate({
        target: [table.projectId, table.email],
        set: {
          lastSentAt: sentAt,
          windowStart: sql`case when ${table.windowStart} <= ${hourAgo} then ${sentAt} else ${table.windowStart} end`,
          windowCount: sql`case when ${table.windowStart} <= ${hourAgo} then 1 else ${table.windowCount} + 1 end`,
        },
        setWhere:
          cooldownMs > 0
            ? sql`${table.lastSentAt} <= ${new Date(time - cooldownMs)} and ${windowOpen}`
            : windowOpen,
      })
      .returning({ lastSentAt: table.lastSentAt })
    if (claimed.length > 0) return { claimed: true as const }
    const [row] = await db
      .select()
      .from(table)
      .where(and(eq(table.projectId, projectId), eq(table.email, key)))
      .limit(1)
    return { claimed: false as const, row }
  }

  /** `Please try again after N seconds`, N until the row's hourly window ends. */
  const untilWindowEnds = (row: { windowStart: Date } | undefined, time: number) =>
    emailCooldown(((row ? row.windowStart.getTime() + HOUR_MS : time + 1000) - time) / 1000)

  return {
    /**
     * Claims one mail for `email` (a row key); `cooldown: false` counts it in the hour without the 30 s
     * wait (mails that only follow one that had it, such as a new browser's approval link after its code).
     */
    async take(projectId: string, email: string, time: number, { cooldown = true } = {}): Promise<Date> {
      const result = await claim(
        projectId,
        email,
        time,
        embeddedLimits.emailsPerHour,
        cooldown ? embeddedLimits.emailCooldownMs : 0,
      )
      if (result.claimed) return new Date(time)
      const { row } = result
      const cooldownLeft = row ? row.lastSentAt.getTime() + embeddedLimits.emailCooldownMs - time : 1000
      if (cooldownLeft > 0) throw emailCooldown(cooldownLeft / 1000)
      // Over the hourly number: the same message, with the wait until the hour's window ends.
      throw untilWindowEnds(row, time)
    },

    /**
     * Counts one mail against the project's hourly budget (`perHour`; 0 is no budget, answered with
     * `undefined`), or throws `Please try again after N seconds` until the hour's window ends.
     */
    async takeProject(projectId: string, perHour: number, time: number): Promise<Date | undefined> {
      if (perHour <= 0) return undefined
      const result = await claim(projectId, PROJECT_KEY, time, perHour)
      if (result.claimed) return new Date(time)
      throw untilWindowEnds(result.row, time)
    },

    /** Gives back one mail of the project's budget (the mail taken at `sentAt` failed). */
    async releaseProject(projectId: string, sentAt: Date): Promise<void> {
      await db
        .update(table)
        .set({ windowCount: sql`greatest(${table.windowCount} - 1, 0)` })
        .where(
          and(
            eq(table.projectId, projectId),
            eq(table.email, PROJECT_KEY),
            sql`${table.windowStart} <= ${sentAt}`,
          ),
        )
    },

    /** Gives back a slot taken at `sentAt` (the mail failed), unless a later one was taken since. */
    async release(projectId: string, email: string, sentAt: Date): Promise<void> {
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
