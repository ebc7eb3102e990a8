import { deleteOldAnalyticsEvents } from './analytics/retention.ts'
import type { Db } from './db/database.ts'
import type { RateLimiter } from './http/rateLimit.ts'
import type { ServiceLogger } from './logger.ts'

/** What one maintenance run deleted. */
export interface MaintenanceReport {
  analyticsEventsDeleted: number
  rateLimitBucketsDeleted: number
}

export interface Maintenance {
  /** Runs the jobs now (the timer runs them every 10 minutes). */
  run(): Promise<MaintenanceReport>
  stop(): void
}

export interface MaintenanceOptions {
  db: Db
  limiter: RateLimiter
  /** Analytics events are kept this many days; 0 keeps them forever. */
  analyticsRetentionDays: number
  logger?: ServiceLogger
  now?: () => number
  /** Between runs; the first comes one interval after start, never during it. Default 10 minutes. */
  intervalMs?: number
}

const dayMs = 86_400_000

/**
 * The service's periodic jobs: analytics retention and idle rate-limit buckets. Every instance runs them;
 * they delete what is due, so several instances doing it is harmless.
 *
 * @example
 * const maintenance = startMaintenance({ db, limiter, analyticsRetentionDays: 90, logger })
 * app.addHook('onClose', async () => maintenance.stop())
 */
export function startMaintenance(options: MaintenanceOptions): Maintenance {
  const now = options.now ?? Date.now
  let running: Promise<MaintenanceReport> | undefined

  const run = () => {
    running ??= (async () => {
      const report: MaintenanceReport = { analyticsEventsDeleted: 0, rateLimitBucketsDeleted: 0 }
      if (options.analyticsRetentionDays > 0) {
        const before = new Date(now() - options.analyticsRetentionDays * dayMs)
        report.analyticsEventsDeleted = await deleteOldAnalyticsEvents(options.db, before)
      }
      report.rateLimitBucketsDeleted = await options.limiter.sweep()
      if (report.analyticsEventsDeleted > 0) {
        options.logger?.info({ ...report }, `Deleted ${report.analyticsEventsDeleted} old analytics events`)
      }
      return report
    })().finally(() => {
      running = undefined
    })
    return running
  }

  const timer = setInterval(
    () => {
      run().catch((error: unknown) =>
        options.logger?.warn({ err: error }, 'Maintenance failed; retrying later'),
      )
    },
    options.intervalMs ?? 10 * 60_000,
  )
  timer.unref()
  return { run, stop: () => clearInterval(timer) }
}
