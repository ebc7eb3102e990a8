import { sql } from 'drizzle-orm'
import { index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core'
import { bytea, createdAt, updatedAt } from '../db/columns.ts'

// The wallet catalogue and its images.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

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
    /** The wallet's page in Apple's App Store (https). */
    appStore: text('app_store'),
    /** The wallet's page in Google Play (https). */
    playStore: text('play_store'),
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
