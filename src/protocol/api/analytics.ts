import * as z from 'zod/mini'
import { apiLimits } from './limits.ts'

/** The latest timestamp accepted, in ms (the last millisecond of year 9999), so it fits a date. */
const maxTimestamp = 253_402_300_799_999

/**
 * One analytics event, the body of `POST /e` (SPEC section 7). `timestamp` is in milliseconds since the
 * epoch; `props.event` is the event name (for example `MODAL_OPEN`); `props.address` is the connected
 * address when there is one.
 *
 * @example
 * analyticsEvent.parse({
 *   eventId: crypto.randomUUID(),
 *   url: location.href,
 *   domain: location.hostname,
 *   timestamp: Date.now(),
 *   props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } },
 * })
 */
export const analyticsEvent = z.object({
  eventId: z.uuid(),
  url: z.url().check(z.maxLength(2048, 'Expected at most 2048 characters')),
  domain: z
    .string()
    .check(z.minLength(1, 'Expected a domain'), z.maxLength(253, 'Expected at most 253 characters')),
  timestamp: z
    .int()
    .check(
      z.gte(0, 'Expected a time in milliseconds'),
      z.lte(maxTimestamp, 'Expected a time in milliseconds'),
    ),
  props: z.object({
    type: z
      .string()
      .check(z.minLength(1, 'Expected an event type'), z.maxLength(32, 'Expected at most 32 characters')),
    event: z
      .string()
      .check(z.minLength(1, 'Expected an event name'), z.maxLength(64, 'Expected at most 64 characters')),
    properties: z.optional(z.record(z.string(), z.unknown())),
    address: z.optional(z.string().check(z.maxLength(128, 'Expected at most 128 characters'))),
  }),
})

export type AnalyticsEvent = z.infer<typeof analyticsEvent>

/**
 * A batch of 1 to 100 analytics events.
 *
 * @example
 * analyticsEventBatch.parse([event1, event2])
 */
export const analyticsEventBatch = z
  .array(analyticsEvent)
  .check(
    z.minLength(1, 'Expected at least one event'),
    z.maxLength(apiLimits.maxAnalyticsBatch, `Expected at most ${apiLimits.maxAnalyticsBatch} events`),
  )

/**
 * Body of `POST /e`: one event, or a batch of up to 100 events (the modal batches and flushes on
 * `pagehide`).
 *
 * @example
 * analyticsRequestBody.parse([event1, event2])
 */
export const analyticsRequestBody = z.union([analyticsEvent, analyticsEventBatch])

export type AnalyticsRequestBody = z.infer<typeof analyticsRequestBody>

/** Events the modal never sends and the service never stores (SPEC section 7). */
export const skippedAnalyticsEvents: readonly string[] = ['MODAL_CREATED']
