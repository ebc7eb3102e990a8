import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { and, asc, eq, gt, max, sql } from 'drizzle-orm'
import type { JsonWebKeySet } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { authKeys, authSessions } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import { type Ed25519PublicJwk, jwkThumbprint } from './jws.ts'

/** What a key signs: session tokens (published in the JWKS) or nonce tokens (never published). */
export type KeyPurpose = 'session' | 'nonce'

/** A key that signs new tokens. */
export interface SigningKey {
  kid: string
  privateKey: KeyObject
}

/** The service's token keys: the active one of each purpose signs, every stored one of it verifies. */
export interface KeyStore {
  /**
   * The key new tokens of `purpose` are signed with. The database is read again at most every 10 s, so a
   * rotation made by the CLI reaches every instance within that.
   */
  signing(purpose: KeyPurpose): Promise<SigningKey>
  /** The public key named `kid` of that purpose (reading the database again for kids it does not know). */
  publicKey(kid: string, purpose: KeyPurpose): Promise<KeyObject | null>
  /**
   * The session public keys as a JSON Web Key Set, for `GET /auth/v1/keys`: the active key, and each
   * retired one while a session it signed has not expired.
   */
  jwks(): Promise<JsonWebKeySet>
}

interface StoredKey {
  kid: string
  purpose: KeyPurpose
  active: boolean
  privateKey: KeyObject
  publicKey: KeyObject
  publicJwk: Ed25519PublicJwk
}

function newKeyValues(purpose: KeyPurpose) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const exported = publicKey.export({ format: 'jwk' })
  const publicJwk: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: String(exported.x) }
  return {
    kid: jwkThumbprint(publicJwk),
    algorithm: 'EdDSA' as const,
    purpose,
    privateKey: String(privateKey.export({ format: 'pem', type: 'pkcs8' })),
    publicJwk: { ...publicJwk },
    active: true,
  }
}

async function readKeys(db: Db): Promise<StoredKey[]> {
  const rows = await db
    .select()
    .from(authKeys)
    .where(eq(authKeys.algorithm, 'EdDSA'))
    .orderBy(asc(authKeys.createdAt), asc(authKeys.kid))
  return rows.map((row) => {
    const publicJwk: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: String(row.publicJwk.x) }
    return {
      kid: row.kid,
      purpose: row.purpose,
      active: row.active,
      privateKey: createPrivateKey(row.privateKey),
      publicKey: createPublicKey({ key: { ...publicJwk }, format: 'jwk' }),
      publicJwk,
    }
  })
}

/** The retired session keys that signed a session still unexpired at `now`. */
async function keysInUse(db: Db, now: number): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ kid: authSessions.keyId })
    .from(authSessions)
    .innerJoin(authKeys, eq(authKeys.kid, authSessions.keyId))
    .where(
      and(
        eq(authKeys.purpose, 'session'),
        eq(authKeys.active, false),
        gt(authSessions.expiresAt, new Date(now)),
      ),
    )
  return new Set(rows.map((row) => row.kid))
}

/** Creates the active key of each purpose that has none; instances starting together agree on one. */
async function ensureActiveKeys(db: Db, logger: ServiceLogger | undefined): Promise<void> {
  const stored = await readKeys(db)
  for (const purpose of ['session', 'nonce'] as const) {
    if (stored.some((key) => key.purpose === purpose && key.active)) continue
    // The table allows one active key per purpose, so a second instance's insert is dropped.
    const inserted = await db
      .insert(authKeys)
      .values(newKeyValues(purpose))
      .onConflictDoNothing()
      .returning({ kid: authKeys.kid })
    const kid = inserted[0]?.kid
    if (kid !== undefined) logger?.info({ kid, purpose }, `Created the sign-in ${purpose} token signing key`)
  }
}

const reloadIntervalMs = 10_000

/**
 * Loads the service's Ed25519 token keys from the database, creating the first session key and the nonce
 * key on first start. Private keys stay in the database and the service.
 *
 * @example
 * const keys = await openKeyStore(db, { logger })
 * const signing = await keys.signing('session')
 * const token = signJws({ typ: 'JWT', kid: signing.kid }, claims, signing.privateKey)
 */
export async function openKeyStore(
  db: Db,
  options: { logger?: ServiceLogger; now?: () => number } = {},
): Promise<KeyStore> {
  const now = options.now ?? Date.now
  await ensureActiveKeys(db, options.logger)
  let keys: StoredKey[] = []
  let inUse = new Set<string>()
  let lastRead = Number.NEGATIVE_INFINITY
  let reading: Promise<void> | undefined

  const reload = async (force: boolean) => {
    if (!force && now() - lastRead < reloadIntervalMs) return
    reading ??= (async () => {
      const time = now()
      ;[keys, inUse] = await Promise.all([readKeys(db), keysInUse(db, time)])
      lastRead = time
    })().finally(() => {
      reading = undefined
    })
    await reading
  }
  await reload(true)

  return {
    async signing(purpose) {
      await reload(false)
      const key = keys.find((stored) => stored.purpose === purpose && stored.active)
      if (!key) throw new Error(`No active ${purpose} token signing key in auth_keys`)
      return { kid: key.kid, privateKey: key.privateKey }
    },
    async publicKey(kid, purpose) {
      let key = keys.find((stored) => stored.kid === kid)
      if (!key && now() - lastRead >= 1000) {
        // A key made by another instance's rotation since the last read; at most one read a second.
        await reload(true)
        key = keys.find((stored) => stored.kid === kid)
      }
      return key?.purpose === purpose ? key.publicKey : null
    },
    async jwks() {
      await reload(false)
      return {
        keys: keys
          .filter((key) => key.purpose === 'session' && (key.active || inUse.has(key.kid)))
          .map((key) => ({ ...key.publicJwk, kid: key.kid, alg: 'EdDSA' as const, use: 'sig' as const })),
      }
    },
  }
}

/** What {@link rotateSessionKey} did. */
export interface KeyRotation {
  /** The new active session key. */
  kid: string
  /** The key it replaced (null on a database without one). */
  retiredKid: string | null
  /** When the last session the retired key signed ends: until then it stays in the JWKS. */
  retiredKeyNeededUntil: Date | null
}

/**
 * Rotates the session signing key: the active one is retired (it keeps verifying, and stays in the JWKS
 * until the last session it signed expires) and a new one signs from then on. Running instances pick
 * the new key up within 10 s.
 *
 * @example
 * const { kid, retiredKid } = await rotateSessionKey(db)
 */
export async function rotateSessionKey(db: Db): Promise<KeyRotation> {
  const values = newKeyValues('session')
  const retiredKid = await db.transaction(async (tx) => {
    const retired = await tx
      .update(authKeys)
      .set({ active: false, retiredAt: sql`now()` })
      .where(and(eq(authKeys.purpose, 'session'), eq(authKeys.active, true)))
      .returning({ kid: authKeys.kid })
    await tx.insert(authKeys).values(values)
    return retired[0]?.kid ?? null
  })
  let retiredKeyNeededUntil: Date | null = null
  if (retiredKid !== null) {
    const [last] = await db
      .select({ value: max(authSessions.expiresAt) })
      .from(authSessions)
      .where(eq(authSessions.keyId, retiredKid))
    retiredKeyNeededUntil = last?.value ?? null
  }
  return { kid: values.kid, retiredKid, retiredKeyNeededUntil }
}
