import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import type { JsonWebKeySet } from '../../src/protocol/api/index.ts'
import type { Db } from '../db/database.ts'
import { authKeys } from '../db/schema.ts'
import type { ServiceLogger } from '../logger.ts'
import { type Ed25519PublicJwk, jwkThumbprint } from './jws.ts'

/** The key that signs new tokens. */
export interface SigningKey {
  kid: string
  privateKey: KeyObject
}

/** The service's token keys: the active one signs, every stored one verifies. */
export interface KeyStore {
  /** The key new tokens are signed with. */
  readonly signing: SigningKey
  /** The public key named `kid`, reading the database again (at most every 10 s) for kids it does not know. */
  publicKey(kid: string): Promise<KeyObject | null>
  /** The public keys as a JSON Web Key Set, for `GET /auth/v1/keys`. */
  jwks(): JsonWebKeySet
}

interface StoredKey {
  kid: string
  active: boolean
  privateKey: string
  publicJwk: Ed25519PublicJwk
}

function newKeyRow(): StoredKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  const exported = publicKey.export({ format: 'jwk' })
  const publicJwk: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: String(exported.x) }
  return {
    kid: jwkThumbprint(publicJwk),
    active: true,
    privateKey: String(privateKey.export({ format: 'pem', type: 'pkcs8' })),
    publicJwk,
  }
}

async function readKeys(db: Db): Promise<StoredKey[]> {
  const rows = await db
    .select()
    .from(authKeys)
    .where(eq(authKeys.algorithm, 'EdDSA'))
    .orderBy(asc(authKeys.createdAt), asc(authKeys.kid))
  return rows.map((row) => ({
    kid: row.kid,
    active: row.active,
    privateKey: row.privateKey,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x: String(row.publicJwk.x) },
  }))
}

const reloadIntervalMs = 10_000

/**
 * Loads the service's Ed25519 token keys from the database, creating the first one on first start. Several
 * instances starting together agree on one: the table allows a single active key, so a second insert is
 * dropped and every instance reads the winner back. Private keys stay in the database.
 *
 * @example
 * const keys = await openKeyStore(db, logger)
 * const token = signJws({ typ: 'JWT', kid: keys.signing.kid }, claims, keys.signing.privateKey)
 */
export async function openKeyStore(db: Db, logger?: ServiceLogger): Promise<KeyStore> {
  let stored = await readKeys(db)
  if (!stored.some((key) => key.active)) {
    const row = newKeyRow()
    const inserted = await db
      .insert(authKeys)
      .values({
        kid: row.kid,
        algorithm: 'EdDSA',
        privateKey: row.privateKey,
        publicJwk: { ...row.publicJwk },
        active: true,
      })
      .onConflictDoNothing()
      .returning({ kid: authKeys.kid })
    if (inserted.length > 0) logger?.info({ kid: row.kid }, 'Created the sign-in token signing key')
    stored = await readKeys(db)
  }
  const active = stored.find((key) => key.active)
  if (!active) throw new Error('No active sign-in signing key in auth_keys')
  const signing: SigningKey = { kid: active.kid, privateKey: createPrivateKey(active.privateKey) }

  let publicKeys = new Map<string, KeyObject>()
  let jwks: JsonWebKeySet = { keys: [] }
  const index = (keys: StoredKey[]) => {
    publicKeys = new Map(
      keys.map((key) => [key.kid, createPublicKey({ key: { ...key.publicJwk }, format: 'jwk' })]),
    )
    jwks = {
      keys: keys.map((key) => ({
        ...key.publicJwk,
        kid: key.kid,
        alg: 'EdDSA' as const,
        use: 'sig' as const,
      })),
    }
  }
  index(stored)
  let lastRead = Date.now()

  return {
    signing,
    async publicKey(kid) {
      const known = publicKeys.get(kid)
      if (known || Date.now() - lastRead < reloadIntervalMs) return known ?? null
      lastRead = Date.now()
      index(await readKeys(db))
      return publicKeys.get(kid) ?? null
    },
    jwks: () => jwks,
  }
}
