import { boolean, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core'
import { createdAt, updatedAt } from '../db/columns.ts'

// Projects and their allowed origins.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/** Projects: an id given to the modal (`project-id`), a name, and per-project settings. */
export const projects = pgTable('projects', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  analyticsEnabled: boolean('analytics_enabled').notNull().default(true),
  /** Partial `ProjectFeatures`; missing keys take the defaults. */
  features: jsonb('features').$type<Record<string, unknown>>().notNull().default({}),
  /** Who can recover a wallet without the person: `user` (nobody) or `operator` (the service). */
  custody: text('custody', { enum: ['user', 'operator'] })
    .notNull()
    .default('user'),
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
