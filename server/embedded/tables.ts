import {
  bigint,
  boolean,
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
import { bytea, createdAt, updatedAt } from '../db/columns.ts'
import { projects } from '../projects/tables.ts'

// The embedded wallet: users, custody, login ways, sessions and requests.
// Part of the one Drizzle schema (server/db/schema.ts); the SQL is in server/db/migrations.

/**
 * Embedded-wallet users: one per e-mail address and project; a user who signed in socially without a
 * verified e-mail has none (`email` null).
 */
export const walletUsers = pgTable(
  'wallet_users',
  {
    id: uuid('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** Lower case, trimmed; null for a social identity without a verified e-mail. */
    email: text('email'),
    /** `eoa` or `smartAccount`: which EVM account the person uses (SPEC 4); EOA unless they switch. */
    preferredAccountType: text('preferred_account_type', { enum: ['eoa', 'smartAccount'] })
      .notNull()
      .default('eoa'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('wallet_users_project_email_unique').on(table.projectId, table.email)],
)

/** Each user's data key, wrapped (AES-256-GCM) by the key-encryption key named `kek_id`. */
export const walletDataKeys = pgTable(
  'wallet_data_keys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .unique()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    kekId: text('kek_id').notNull(),
    /** Format of `wrapped` (1: iv, ciphertext, tag; AAD binds the data key id and the user). */
    version: integer('version').notNull().default(1),
    wrapped: bytea('wrapped').notNull(),
    createdAt: createdAt(),
    rewrappedAt: timestamp('rewrapped_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_data_keys_kek_idx').on(table.kekId)],
)

/** A user's private keys (secp256k1 for EVM, ed25519 for Solana), encrypted under the user's data key. */
export const walletKeys = pgTable(
  'wallet_keys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    curve: text('curve', { enum: ['secp256k1', 'ed25519'] }).notNull(),
    address: text('address').notNull(),
    publicKey: text('public_key').notNull(),
    dataKeyId: uuid('data_key_id')
      .notNull()
      .references(() => walletDataKeys.id),
    /** Format of `encrypted` (1: iv, ciphertext, tag; AAD binds the user and the curve). */
    version: integer('version').notNull().default(1),
    encrypted: bytea('encrypted').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('wallet_keys_user_curve_unique').on(table.userId, table.curve)],
)

/** When each address last got a sign-in e-mail, and how many this hour (the service's cooldown). */
export const walletEmailThrottle = pgTable(
  'wallet_email_throttle',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }).notNull(),
    windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
    windowCount: integer('window_count').notNull(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.email], name: 'wallet_email_throttle_pk' })],
)

/** One-time codes: the HMAC of the code, tries so far, single use, 10 minutes. */
export const walletCodes = pgTable(
  'wallet_codes',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    purpose: text('purpose', {
      enum: ['login', 'update-primary', 'update-secondary', 'export', 'delete'],
    }).notNull(),
    codeHash: bytea('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    deviceId: text('device_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    voidedAt: timestamp('voided_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_codes_expires_idx').on(table.expiresAt)],
)

/** Browsers (the frame's device id) a user approved. */
export const walletDevices = pgTable(
  'wallet_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.deviceId], name: 'wallet_devices_pk' })],
)

/** A new browser waiting for its user to follow the mailed approval link. */
export const walletDeviceApprovals = pgTable(
  'wallet_device_approvals',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    tokenHash: bytea('token_hash').notNull().unique(),
    site: text('site').notNull(),
    browser: text('browser').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
    deniedAt: timestamp('denied_at', { withTimezone: true, mode: 'date' }),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_device_approvals_expires_idx').on(table.expiresAt)],
)

/** Sessions of the wallet frame: the SHA-256 of its bearer token. */
export const walletSessions = pgTable(
  'wallet_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    deviceId: text('device_id').notNull(),
    /** The site (origin) the frame was embedded in when the session began. */
    site: text('site').notNull(),
    tokenHash: bytea('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** The absolute end (30 days); a week without use ends it sooner (`lastUsedAt`). */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** The last request it authorised (written at most once a minute); null: not used since issued. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    /**
     * The browser's own ECDSA P-256 public key (SPKI, URL-safe base64): every request of the session
     * is signed with its non-extractable private key. Null: an older session, refused.
     */
    publicKey: text('public_key'),
  },
  (table) => [index('wallet_sessions_user_idx').on(table.userId)],
)

/** Nonces of signed session requests, kept while their timestamp is acceptable: each is used once. */
export const walletSessionNonces = pgTable(
  'wallet_session_nonces',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => walletSessions.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.sessionId, table.nonce] }),
    index('wallet_session_nonces_expires_idx').on(table.expiresAt),
  ],
)

/** An e-mail change: a code to the current address, then one to the new address. */
export const walletEmailUpdates = pgTable('wallet_email_updates', {
  id: text('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => walletUsers.id, { onDelete: 'cascade' }),
  newEmail: text('new_email').notNull(),
  primaryCodeId: text('primary_code_id').notNull(),
  /** Set once the current address's code was right. */
  primaryVerifiedAt: timestamp('primary_verified_at', { withTimezone: true, mode: 'date' }),
  secondaryCodeId: text('secondary_code_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
})

/** A social provider's identity (provider and its user id), belonging to one user. */
export const walletIdentities = pgTable(
  'wallet_identities',
  {
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    username: text('username'),
    /** The profile picture the provider gave (Farcaster's pfpUrl), https. */
    pictureUrl: text('picture_url'),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.projectId, table.provider, table.subject], name: 'wallet_identities_pk' }),
    index('wallet_identities_user_idx').on(table.userId),
  ],
)

/**
 * A social sign-in in progress: the SHA-256 of its `state`, its nonce and PKCE verifier, the browser
 * and site that started it; then what the provider's callback gave (a user or an error), used once.
 */
export const walletSocialLogins = pgTable(
  'wallet_social_logins',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    stateHash: bytea('state_hash').notNull().unique(),
    nonce: text('nonce').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    deviceId: text('device_id').notNull(),
    site: text('site').notNull(),
    /** SHA-256 of the starting frame's binding secret: finishing needs the secret. */
    bindingHash: bytea('binding_hash'),
    /** SHA-256 of the handover secret the callback page gave the browser the provider sent back. */
    handoverHash: bytea('handover_hash'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    callbackAt: timestamp('callback_at', { withTimezone: true, mode: 'date' }),
    userId: uuid('user_id').references(() => walletUsers.id, { onDelete: 'cascade' }),
    username: text('username'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_social_logins_expires_idx').on(table.expiresAt)],
)

/**
 * A Farcaster sign-in in progress: the relay channel's token (to ask the relay about it; none for a
 * sign-in through the Farcaster app the page runs in, a mini app), our nonce the approval must name,
 * the browser and site that opened it; used once.
 */
export const walletFarcasterLogins = pgTable(
  'wallet_farcaster_logins',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    channelToken: text('channel_token'),
    nonce: text('nonce').notNull(),
    deviceId: text('device_id').notNull(),
    site: text('site').notNull(),
    /** SHA-256 of the starting frame's binding secret: finishing needs the secret. */
    bindingHash: bytea('binding_hash'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_farcaster_logins_expires_idx').on(table.expiresAt)],
)

/** A passkey (WebAuthn credential on the frame's origin): a way into one user, like an e-mail. */
export const walletPasskeys = pgTable(
  'wallet_passkeys',
  {
    /** The credential id, URL-safe base64. */
    credentialId: text('credential_id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    /** COSE public key. */
    publicKey: bytea('public_key').notNull(),
    /** The last signature counter seen (a lower one is refused). */
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: text('transports').array().notNull(),
    backedUp: boolean('backed_up').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_passkeys_user_idx').on(table.userId)],
)

/**
 * A passkey ceremony in progress: its challenge, the browser and site that started it and the hash of
 * that frame's binding secret; the signed-in user a link is for; used once.
 */
export const walletPasskeyCeremonies = pgTable(
  'wallet_passkey_ceremonies',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['register', 'link', 'login'] }).notNull(),
    challenge: text('challenge').notNull(),
    deviceId: text('device_id').notNull(),
    site: text('site').notNull(),
    bindingHash: bytea('binding_hash').notNull(),
    userId: uuid('user_id').references(() => walletUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_passkey_ceremonies_expires_idx').on(table.expiresAt)],
)

/** Requests that need approval: stored as asked, so what is signed is what the person saw. */
export const walletRequests = pgTable(
  'wallet_requests',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => walletUsers.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').notNull(),
    chainId: text('chain_id').notNull(),
    method: text('method').notNull(),
    params: jsonb('params').$type<unknown>().notNull(),
    /** What the preview filled in (a transaction's gas and fees). */
    prepared: jsonb('prepared').$type<Record<string, unknown>>(),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_requests_expires_idx').on(table.expiresAt)],
)

/**
 * `wallet_sendCalls` batches by id: an EOA's transactions sent one after another (`tx_hashes`), or a
 * smart account's one UserOperation (`user_op_hash`, `tx_hashes` empty).
 */
export const walletCallBatches = pgTable('wallet_call_batches', {
  id: text('id').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => walletUsers.id, { onDelete: 'cascade' }),
  chainId: text('chain_id').notNull(),
  txHashes: text('tx_hashes').array().notNull(),
  userOpHash: text('user_op_hash'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
})

/**
 * That a user's keys were shown to them (an export): when, by which session; never a key. No
 * foreign key on the user: the record outlives the wallet's deletion (`deleted_at`), which it allows.
 */
export const walletExports = pgTable(
  'wallet_exports',
  {
    id: uuid('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    sessionId: uuid('session_id').notNull(),
    exportedAt: timestamp('exported_at', { withTimezone: true, mode: 'date' }).notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [index('wallet_exports_user_idx').on(table.userId)],
)
