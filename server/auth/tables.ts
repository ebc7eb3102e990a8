import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from '../db/columns.ts'
import { projects } from '../projects/tables.ts'

// Sign-in: signing keys, nonces and sessions.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/**
 * The service's keys for signing sign-in tokens (Ed25519), one active per purpose: `session` keys sign
 * session tokens (published in the JWKS; a retired one verifies until its last session ends), the
 * `nonce` key signs nonce tokens and is never published.
 */
export const authKeys = pgTable(
  'auth_keys',
  {
    /** RFC 7638 thumbprint of the public key, the JWS `kid`. */
    kid: text('kid').primaryKey(),
    algorithm: text('algorithm', { enum: ['EdDSA'] }).notNull(),
    /** PKCS #8 PEM; never leaves the database and the service. */
    privateKey: text('private_key').notNull(),
    publicJwk: jsonb('public_jwk').$type<Record<string, string>>().notNull(),
    active: boolean('active').notNull().default(true),
    purpose: text('purpose', { enum: ['session', 'nonce'] })
      .notNull()
      .default('session'),
    /** When a rotation replaced it; null while active. */
    retiredAt: timestamp('retired_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('auth_keys_one_active_per_purpose_idx').on(table.purpose).where(sql`${table.active}`),
  ],
)

/** Sign-in nonces handed out by `GET /auth/v1/nonce`: used once, within their lifetime. */
export const authNonces = pgTable(
  'auth_nonces',
  {
    id: uuid('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('auth_nonces_expires_idx').on(table.expiresAt)],
)

/** Sign-in sessions issued by `POST /auth/v1/authenticate`; `revoked_at` is set by sign-out. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    nonceId: uuid('nonce_id').notNull().unique(),
    chainId: text('chain_id').notNull(),
    address: text('address').notNull(),
    domain: text('domain').notNull(),
    uri: text('uri').notNull(),
    message: text('message').notNull(),
    signature: text('signature').notNull(),
    signatureType: text('signature_type').notNull(),
    /** The message's fields (SPEC section 3). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    keyId: text('key_id').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('auth_sessions_project_address_idx').on(table.projectId, table.address),
    index('auth_sessions_expires_idx').on(table.expiresAt),
    index('auth_sessions_key_expires_idx').on(table.keyId, table.expiresAt),
  ],
)
