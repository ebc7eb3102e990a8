import type { AnalyticsEvent, SdkQuery } from '../../src/protocol/api/index.ts'
import { skippedAnalyticsEvents } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { analyticsEvents } from '../db/schema.ts'

export interface StoreEventsParameters {
  projectId: string
  sdk: SdkQuery
  /** The page's `Origin` header; null for server-to-server calls. */
  origin: string | null
  events: readonly AnalyticsEvent[]
}

/**
 * Stores analytics events. An event id already stored for the project is ignored (the modal's HTTP
 * client retries), and events the modal must never send (`MODAL_CREATED`) are dropped. Resolves to the
 * number of events written.
 *
 * @example
 * await storeEvents(db, { projectId: 'dev-project', sdk: { st: 'wallet-elements', sv: '0.1.0' }, origin, events })
 */
export async function storeEvents(db: Db, parameters: StoreEventsParameters): Promise<number> {
  const rows = parameters.events
    .filter((event) => !skippedAnalyticsEvents.includes(event.props.event))
    .map((event) => ({
      projectId: parameters.projectId,
      eventId: event.eventId,
      sdkType: parameters.sdk.st,
      sdkVersion: parameters.sdk.sv,
      origin: parameters.origin,
      url: event.url,
      domain: event.domain,
      eventType: event.props.type,
      eventName: event.props.event,
      properties: event.props.properties ?? null,
      address: event.props.address ?? null,
      clientTimestamp: new Date(event.timestamp),
    }))
  if (rows.length === 0) return 0
  const written = await db
    .insert(analyticsEvents)
    .values(rows)
    .onConflictDoNothing()
    .returning({ eventId: analyticsEvents.eventId })
  return written.length
}
