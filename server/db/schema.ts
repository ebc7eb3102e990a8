import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
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
    // What the retention job deletes by.
    index('analytics_events_received_idx').on(table.receivedAt),
  ],
)

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

/**
 * Rate-limit counters shared by every instance on the database: a token bucket per limit, client and
 * project (server/http/rateLimit.ts). An unlogged table (migration 0002).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    tokens: doublePrecision('tokens').notNull(),
    /** Milliseconds since the epoch, the instance's clock. */
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
  },
  (table) => [index('rate_limits_updated_idx').on(table.updatedAt)],
)

/**
 * Per network, where the history indexer is (the next block, the hash of the one before) and which
 * instance holds the indexing lease until when (server/history/indexer.ts). Migration 0003.
 */
export const historyNetworks = pgTable('history_networks', {
  chainId: text('chain_id').primaryKey(),
  nextBlock: bigint('next_block', { mode: 'number' }).notNull().default(0),
  lastHash: text('last_hash'),
  holder: text('holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }),
  updatedAt: updatedAt(),
})

/**
 * Movements of value the indexer found: a transaction's native value (`logIndex` -1) or an ERC-20
 * `Transfer` log; addresses and tokens in lower case, `token` is `native` or the contract.
 */
export const historyTransfers = pgTable(
  'history_transfers',
  {
    chainId: text('chain_id').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    txIndex: integer('tx_index').notNull(),
    logIndex: integer('log_index').notNull(),
    txHash: text('tx_hash').notNull(),
    minedAt: timestamp('mined_at', { withTimezone: true, mode: 'date' }).notNull(),
    kind: text('kind', { enum: ['transfer', 'swap', 'onramp'] }).notNull(),
    token: text('token').notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    amount: numeric('amount', { precision: 78, scale: 0 }).notNull(),
  },
  (table) => [
    primaryKey({
      name: 'history_transfers_pk',
      columns: [table.chainId, table.blockNumber, table.txIndex, table.logIndex],
    }),
    index('history_transfers_from_idx').on(
      table.chainId,
      table.fromAddress,
      table.blockNumber,
      table.txIndex,
    ),
    index('history_transfers_to_idx').on(table.chainId, table.toAddress, table.blockNumber, table.txIndex),
  ],
)

export const schema = {
  projects,
  projectOrigins,
  wallets,
  images,
  analyticsEvents,
  authKeys,
  authNonces,
  authSessions,
  rateLimits,
  historyNetworks,
  historyTransfers,
}
