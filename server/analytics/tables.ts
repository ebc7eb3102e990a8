import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { projects } from '../projects/tables.ts'

// Analytics events.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/** Analytics events received on `POST /e`. */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').notNull(),
    sdkType: text('sdk_type').notNull(),
    sdkVersion: text('sdk_version').notNull(),
    origin: text('origin'),
    url: text('url').notNull(),
    domain: text('domain').notNull(),
    eventType: text('event_type').notNull(),
    eventName: text('event_name').notNull(),
    properties: jsonb('properties').$type<Record<string, unknown>>(),
    address: text('address'),
    clientTimestamp: timestamp('client_timestamp', { withTimezone: true, mode: 'date' }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.projectId, table.eventId] }),
    index('analytics_events_project_received_idx').on(table.projectId, table.receivedAt),
    // What the retention job deletes by.
    index('analytics_events_received_idx').on(table.receivedAt),
  ],
)
