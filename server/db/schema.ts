import { sql } from 'drizzle-orm'
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

/** `bytea`, read back as a Buffer from both drivers (PGlite gives a Uint8Array, pg a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength),
})

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

/** Projects: an id given to the modal (`project-id`), a name, and per-project settings. */
export const projects = pgTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  analyticsEnabled: boolean('analytics_enabled').notNull().default(true),
  /** Partial `ProjectFeatures`; missing keys take the defaults. */
  features: jsonb('features').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
})

/** Allowed origins of a project, patterns with `*` wildcards (server/projects/origins.ts). */
export const projectOrigins = pgTable(
  'project_origins',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.origin] })],
)

/** The wallet catalogue (SPEC section 3), seeded from server/data/seed and extended with the CLI. */
export const wallets = pgTable(
  'wallets',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    imageId: text('image_id').notNull(),
    chains: text('chains').array().notNull().default(sql`'{}'::text[]`),
    mobileLink: text('mobile_link'),
    desktopLink: text('desktop_link'),
    webappLink: text('webapp_link'),
    rdns: text('rdns'),
    homepage: text('homepage'),
    badgeType: text('badge_type', { enum: ['none', 'certified'] })
      .notNull()
      .default('none'),
    /** Catalogue order: lower first, then id. */
    position: integer('position').notNull(),
    /** `seed` or `custom` (added with the CLI). */
    source: text('source', { enum: ['seed', 'custom'] })
      .notNull()
      .default('seed'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('wallets_position_idx').on(table.position, table.id),
    uniqueIndex('wallets_rdns_idx').on(table.rdns).where(sql`${table.rdns} is not null`),
  ],
)

/** Binary images served by the image endpoints, by family and id. */
export const images = pgTable(
  'images',
  {
    kind: text('kind', { enum: ['wallet', 'asset', 'currency', 'token'] }).notNull(),
    id: text('id').notNull(),
    contentType: text('content_type').notNull(),
    /** Strong ETag, quoted, derived from the bytes. */
    etag: text('etag').notNull(),
    data: bytea('data').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.id] })],
)

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
  ],
)

export const schema = { projects, projectOrigins, wallets, images, analyticsEvents }
