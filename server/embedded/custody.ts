/**
 * Custody of the embedded wallet's data keys, and of the keys the service itself made for users before the
 * frame made them (legacy keys). Each user has a data key, AES-256-GCM-wrapped by the key-encryption key
 * (KEK), which stays outside the database; what the service keeps of a person's keys (their auth share, and
 * in operator custody the recovery share: shareSets.ts) is AES-256-GCM ciphertext under that data key, with
 * additional data naming what it is (a ciphertext moved to another row does not open). Rotating the KEK
 * re-wraps the data keys only.
 *
 * Legacy keys (`wallet_keys`, made here by `createKeys` before the person's keys moved to the frame) are
 * opened once more by `withKey` when the frame takes them over (`POST keys/migrate`), then deleted.
 */
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { and, asc, eq, gt, ne } from 'drizzle-orm'
import { bytesToHex } from 'viem'
import { evmAddressOf } from '../../src/protocol/embedded/signer.ts'
import { encodeBase58 } from '../../src/protocol/siwx/base58.ts'
import type { Db } from '../db/database.ts'
import { walletDataKeys, walletKeys, walletShareSets } from '../db/schema.ts'
import { EmbeddedError } from './errors.ts'
import type { KekRing } from './kek.ts'

export type Curve = 'secp256k1' | 'ed25519'

/** The namespace each curve serves. */
export const curveOf = { eip155: 'secp256k1', solana: 'ed25519' } as const satisfies Record<string, Curve>

/** Format version of wrapped data keys and encrypted private keys. */
const FORMAT_VERSION = 1
const IV_BYTES = 12
const TAG_BYTES = 16

/** Thrown when a key cannot be opened (its KEK is not configured, or the data were altered). */
export class CustodyError extends Error {
  override name = 'CustodyError'
}

const dataKeyAad = (dataKeyId: string, userId: string) =>
  Buffer.from(`wallet-elements:data-key:v${FORMAT_VERSION}:${dataKeyId}:${userId}`)
const privateKeyAad = (userId: string, curve: Curve) =>
  Buffer.from(`wallet-elements:private-key:v${FORMAT_VERSION}:${userId}:${curve}`)

/** AES-256-GCM: iv, ciphertext and tag in one buffer. */
export function seal(key: Buffer, plaintext: Uint8Array, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([iv, body, cipher.getAuthTag()])
}

/** Opens what {@link seal} made with the same key and additional data, or throws {@link CustodyError}. */
export function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new CustodyError('A sealed key is too short')
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES))
  decipher.setAAD(aad)
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES))
  try {
    return Buffer.concat([
      decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
      decipher.final(),
    ])
  } catch (cause) {
    throw new CustodyError('A sealed key does not open: wrong key, or the data were altered', { cause })
  }
}

/** The public side of a new key. */
export interface PublicAccount {
  address: string
  publicKey: string
}

function publicAccount(curve: Curve, secret: Uint8Array): PublicAccount {
  if (curve === 'secp256k1') {
    return {
      address: evmAddressOf(secret),
      publicKey: bytesToHex(secp256k1.getPublicKey(secret, true)),
    }
  }
  const publicKey = encodeBase58(ed25519.getPublicKey(secret))
  return { address: publicKey, publicKey }
}

/** A user who has no keys yet (state `none`): the frame sets them up before anything is signed. */
export const noKeysYet = () =>
  new EmbeddedError(409, 'NOT_AVAILABLE', 'This wallet has no keys yet: the wallet sets them up first')

export interface Custody {
  /**
   * Creates a user's data key and both private keys (inside the caller's transaction): legacy custody,
   * from before the frame made the keys, kept for the tests that write a database as the old code did.
   */
  createKeys(tx: Db, userId: string): Promise<Record<Curve, PublicAccount>>
  /**
   * The user's accounts: their share set's addresses, else their legacy keys' (not migrated yet); a
   * user with neither has none yet ({@link noKeysYet}).
   */
  accounts(userId: string): Promise<Record<Curve, PublicAccount>>
  /** Whether the user still has legacy keys (`wallet_keys`). */
  hasLegacyKeys(tx: Db, userId: string): Promise<boolean>
  /**
   * The user's data key (created under the current KEK when they have none), handed to `use` and
   * zeroed afterwards; `id` is what a sealed share records.
   */
  withDataKey<T>(tx: Db, userId: string, use: (key: Buffer, id: string) => Promise<T> | T): Promise<T>
  /**
   * Opens one legacy private key, hands it to `use`, and zeroes it afterwards: only for the one
   * migration of a legacy user's keys to the frame (`POST keys/migrate`).
   */
  withKey<T>(userId: string, curve: Curve, use: (secret: Uint8Array) => Promise<T> | T): Promise<T>
  /** Re-wraps every data key not under the current KEK; keys and accounts stay as they are. */
  rewrap(): Promise<{ rewrapped: number; missingKek: string[] }>
  /** How many data keys each KEK wraps. */
  status(): Promise<{ kekId: string; dataKeys: number; current: boolean; configured: boolean }[]>
}

/**
 * Custody on the database with a KEK ring.
 *
 * @example
 * const custody = createCustody(db, await loadKekRing(config.embedded))
 * const signature = await custody.withKey(userId, 'secp256k1', (secret) => sign(secret))
 */
export function createCustody(db: Db, keks: KekRing): Custody {
  async function dataKey(tx: Db, dataKeyId: string, userId: string): Promise<Buffer> {
    const [row] = await tx.select().from(walletDataKeys).where(eq(walletDataKeys.id, dataKeyId)).limit(1)
    if (!row || row.userId !== userId) throw new CustodyError('The data key of a wallet key is missing')
    const kek = keks.find(row.kekId)
    if (!kek)
      throw new CustodyError(`The key-encryption key ${row.kekId} is not configured (WALLET_KEK_PREVIOUS)`)
    return open(kek.key, row.wrapped, dataKeyAad(row.id, row.userId))
  }

  return {
    async createKeys(tx, userId) {
      const dataKeyId = randomUUID()
      const key = randomBytes(32)
      try {
        await tx.insert(walletDataKeys).values({
          id: dataKeyId,
          userId,
          kekId: keks.current.id,
          version: FORMAT_VERSION,
          wrapped: seal(keks.current.key, key, dataKeyAad(dataKeyId, userId)),
        })
        const accounts = {} as Record<Curve, PublicAccount>
        for (const curve of ['secp256k1', 'ed25519'] as const) {
          const secret =
            curve === 'secp256k1' ? secp256k1.utils.randomPrivateKey() : ed25519.utils.randomPrivateKey()
          try {
            accounts[curve] = publicAccount(curve, secret)
            await tx.insert(walletKeys).values({
              id: randomUUID(),
              userId,
              curve,
              address: accounts[curve].address,
              publicKey: accounts[curve].publicKey,
              dataKeyId,
              version: FORMAT_VERSION,
              encrypted: seal(key, secret, privateKeyAad(userId, curve)),
            })
          } finally {
            secret.fill(0)
          }
        }
        return accounts
      } finally {
        key.fill(0)
      }
    },

    async accounts(userId) {
      const [set] = await db.select().from(walletShareSets).where(eq(walletShareSets.userId, userId)).limit(1)
      if (set)
        return {
          secp256k1: { address: set.evmAddress, publicKey: set.evmPublicKey },
          ed25519: { address: set.solanaAddress, publicKey: set.solanaAddress },
        }
      const rows = await db.select().from(walletKeys).where(eq(walletKeys.userId, userId))
      const accounts = {} as Record<Curve, PublicAccount>
      for (const row of rows) accounts[row.curve] = { address: row.address, publicKey: row.publicKey }
      if (!accounts.secp256k1 || !accounts.ed25519) throw noKeysYet()
      return accounts
    },

    async hasLegacyKeys(tx, userId) {
      const [row] = await tx
        .select({ id: walletKeys.id })
        .from(walletKeys)
        .where(eq(walletKeys.userId, userId))
        .limit(1)
      return row !== undefined
    },

    async withDataKey(tx, userId, use) {
      const [row] = await tx
        .select({ id: walletDataKeys.id })
        .from(walletDataKeys)
        .where(eq(walletDataKeys.userId, userId))
        .limit(1)
      let id = row?.id
      let key: Buffer
      if (id) {
        key = await dataKey(tx, id, userId)
      } else {
        id = randomUUID()
        key = randomBytes(32)
        await tx.insert(walletDataKeys).values({
          id,
          userId,
          kekId: keks.current.id,
          version: FORMAT_VERSION,
          wrapped: seal(keks.current.key, key, dataKeyAad(id, userId)),
        })
      }
      try {
        return await use(key, id)
      } finally {
        key.fill(0)
      }
    },

    async withKey(userId, curve, use) {
      const [row] = await db
        .select()
        .from(walletKeys)
        .where(and(eq(walletKeys.userId, userId), eq(walletKeys.curve, curve)))
        .limit(1)
      if (!row) throw new CustodyError('The wallet user has no key for this network')
      const key = await dataKey(db, row.dataKeyId, userId)
      let secret: Buffer | undefined
      try {
        secret = open(key, row.encrypted, privateKeyAad(userId, curve))
        // The stored address is what the person saw: a key that derives another one is not used.
        if (publicAccount(curve, secret).address !== row.address) {
          throw new CustodyError('A wallet key does not match its address')
        }
        return await use(secret)
      } finally {
        key.fill(0)
        secret?.fill(0)
      }
    },

    async rewrap() {
      let rewrapped = 0
      const missing = new Set<string>()
      let after = '00000000-0000-0000-0000-000000000000'
      for (;;) {
        const rows = await db
          .select()
          .from(walletDataKeys)
          .where(and(ne(walletDataKeys.kekId, keks.current.id), gt(walletDataKeys.id, after)))
          .orderBy(asc(walletDataKeys.id))
          .limit(500)
        if (rows.length === 0) break
        for (const row of rows) {
          after = row.id
          const kek = keks.find(row.kekId)
          if (!kek) {
            missing.add(row.kekId)
            continue
          }
          const aad = dataKeyAad(row.id, row.userId)
          const key = open(kek.key, row.wrapped, aad)
          try {
            // Only if no one re-wrapped it meanwhile (another instance running the same command).
            const updated = await db
              .update(walletDataKeys)
              .set({
                kekId: keks.current.id,
                wrapped: seal(keks.current.key, key, aad),
                rewrappedAt: new Date(),
              })
              .where(and(eq(walletDataKeys.id, row.id), eq(walletDataKeys.kekId, row.kekId)))
              .returning({ id: walletDataKeys.id })
            rewrapped += updated.length
          } finally {
            key.fill(0)
          }
        }
      }
      return { rewrapped, missingKek: [...missing] }
    },

    async status() {
      const rows = await db.select({ kekId: walletDataKeys.kekId }).from(walletDataKeys)
      const counts = new Map<string, number>()
      for (const row of rows) counts.set(row.kekId, (counts.get(row.kekId) ?? 0) + 1)
      for (const kek of keks.all) if (!counts.has(kek.id)) counts.set(kek.id, 0)
      return [...counts].map(([kekId, dataKeys]) => ({
        kekId,
        dataKeys,
        current: kekId === keks.current.id,
        configured: keks.find(kekId) !== undefined,
      }))
    },
  }
}
