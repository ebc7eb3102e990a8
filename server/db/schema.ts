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
    purpose: text('purpose', { enum: ['login', 'update-primary', 'update-secondary'] }).notNull(),
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
     * is signed with its non-extractable private key (issue 23 item 6). Null: an older session, refused.
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

/** Requests that need approval: stored as asked, so what is signed is what the person saw. */
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
 * A Farcaster sign-in in progress: the relay channel's token (to ask the relay about it), our nonce the
 * approval must name, the browser and site that opened it; used once.
 */
export const walletFarcasterLogins = pgTable(
  'wallet_farcaster_logins',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    channelToken: text('channel_token').notNull(),
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
 * Wallet-side names (issue 17): one label per registry suffix, one name per address and suffix; the
 * latest registration's `Issued At`, so an older signed message cannot be replayed over a newer one.
 */
export const names = pgTable(
  'names',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    suffix: text('suffix').notNull(),
    /** Lower-cased. */
    label: text('label').notNull(),
    /** As signed; EVM addresses lower-cased. */
    address: text('address').notNull(),
    chainId: text('chain_id').notNull(),
    avatar: text('avatar'),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('names_suffix_label_unique').on(table.suffix, table.label),
    uniqueIndex('names_suffix_address_unique').on(table.suffix, table.address),
  ],
)

/** On-ramp purchases: recorded when the checkout URL is made, completed by the provider's signed webhook. */
export const onrampPurchases = pgTable(
  'onramp_purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    address: text('address').notNull(),
    network: text('network').notNull(),
    purchaseCurrency: text('purchase_currency').notNull(),
    paymentCurrency: text('payment_currency').notNull(),
    paymentMethod: text('payment_method').notNull(),
    /** Fiat, decimal string. */
    paymentAmount: text('payment_amount').notNull(),
    /** Tokens, decimal string, as quoted. */
    purchaseAmount: text('purchase_amount').notNull(),
    status: text('status', { enum: ['pending', 'completed', 'failed'] })
      .notNull()
      .default('pending'),
    txHash: text('tx_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('onramp_purchases_address_idx').on(table.address)],
)

/**
 * Per network, where the history indexer is (the next block, the hash of the one before) and which
 * instance holds the indexing lease until when (server/history/indexer.ts). Migration 0004.
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
  walletUsers,
  walletDataKeys,
  walletKeys,
  walletEmailThrottle,
  walletCodes,
  walletDevices,
  walletDeviceApprovals,
  walletSessions,
  walletSessionNonces,
  walletEmailUpdates,
  walletRequests,
  walletCallBatches,
  names,
  onrampPurchases,
  walletIdentities,
  walletSocialLogins,
  walletFarcasterLogins,
  historyNetworks,
  historyTransfers,
}
