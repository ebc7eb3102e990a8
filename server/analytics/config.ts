import { z } from 'zod'
import { integer } from '../config/env.ts'

/** The analytics' slice of the service configuration. */
export interface AnalyticsConfig {
  /** Analytics events are deleted this many days after they arrive; 0 keeps them (`ANALYTICS_RETENTION_DAYS`). */
  analyticsRetentionDays: number
}

/** The analytics' variable: `ANALYTICS_RETENTION_DAYS`. */
export const analyticsEnv = z.object({
  ANALYTICS_RETENTION_DAYS: integer('ANALYTICS_RETENTION_DAYS', 0, 36_500, 90),
})

/**
 * The analytics slice.
 *
 * @example
 * const analytics = analyticsConfig(analyticsEnv.parse({})) // 90 days
 */
export function analyticsConfig(values: z.output<typeof analyticsEnv>): AnalyticsConfig {
  return { analyticsRetentionDays: values.ANALYTICS_RETENTION_DAYS }
}
