import * as z from 'zod/mini'
import { apiLimits } from './limits.ts'

/** The latest timestamp accepted, in ms (the last millisecond of year 9999), so it fits a date. */
const maxTimestamp = 253_402_300_799_999

// C0 controls and DEL (NUL included, which PostgreSQL text cannot hold); tab is allowed in property text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const controlCharacters = /[\u0000-\u001f\u007f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const controlCharactersButTab = /[\u0000-\u0008\u000a-\u001f\u007f]/
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const noControls = z.refine<string>(
  (text) => !controlCharacters.test(text),
  'Control characters are not allowed',
)

/**
 * The first problem of a `props.properties` value, or null: nesting, names, size and text that the
 * service would store badly (control characters, lone surrogates, which `jsonb` refuses).
 */
function propertiesProblem(value: unknown): { path: (string | number)[]; message: string } | null {
  const limits = apiLimits.analyticsProperties
  let names = 0
  const textProblem = (text: string) =>
    controlCharactersButTab.test(text)
      ? 'Control characters are not allowed'
      : loneSurrogate.test(text)
        ? 'Expected well-formed Unicode text'
        : null
  const walk = (
    node: unknown,
    path: (string | number)[],
    depth: number,
  ): ReturnType<typeof propertiesProblem> => {
    if (typeof node === 'string') {
      const message = textProblem(node)
      return message === null ? null : { path, message }
    }
    if (node === null || typeof node !== 'object') return null
    if (depth > limits.maxDepth) {
      return { path, message: `Expected at most ${limits.maxDepth} levels of nesting` }
    }
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? [...node.entries()]
      : Object.entries(node)
    for (const [key, child] of entries) {
      if (typeof key === 'string') {
        names++
        const message = textProblem(key)
        if (message !== null) return { path, message }
      }
      const problem = walk(child, [...path, key], depth + 1)
      if (problem) return problem
    }
    return null
  }
  const problem = walk(value, [], 1)
  if (problem) return problem
  if (names > limits.maxNames)
    return { path: [], message: `Expected at most ${limits.maxNames} property names` }
  if (new TextEncoder().encode(JSON.stringify(value)).length > limits.maxBytes) {
    return { path: [], message: `Expected at most ${limits.maxBytes} bytes of JSON` }
  }
  return null
}

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
  url: z.url().check(z.maxLength(2048, 'Expected at most 2048 characters'), noControls),
  domain: z
    .string()
    .check(
      z.minLength(1, 'Expected a domain'),
      z.maxLength(253, 'Expected at most 253 characters'),
      noControls,
    ),
  timestamp: z
    .int()
    .check(
      z.gte(0, 'Expected a time in milliseconds'),
      z.lte(maxTimestamp, 'Expected a time in milliseconds'),
    ),
  props: z.object({
    type: z
      .string()
      .check(
        z.minLength(1, 'Expected an event type'),
        z.maxLength(32, 'Expected at most 32 characters'),
        noControls,
      ),
    event: z
      .string()
      .check(
        z.minLength(1, 'Expected an event name'),
        z.maxLength(64, 'Expected at most 64 characters'),
        noControls,
      ),
    properties: z.optional(
      z.record(z.string(), z.unknown()).check(
        z.superRefine((value, context) => {
          const problem = propertiesProblem(value)
          if (problem)
            context.addIssue({ code: 'custom', message: problem.message, path: problem.path, input: value })
        }),
      ),
    ),
    address: z.optional(z.string().check(z.maxLength(128, 'Expected at most 128 characters'), noControls)),
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
