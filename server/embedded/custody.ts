/**
 * Custody of the embedded wallet's keys. Each user gets a secp256k1 key (EVM) and an ed25519 key
 * (Solana), generated here and never sent anywhere. At rest every private key is AES-256-GCM ciphertext
 * under the user's data key, with the user and the curve as additional data (a ciphertext moved to
 * another row does not open); each data key is AES-256-GCM-wrapped by the key-encryption key (KEK),
 * which stays outside the database. Rotating the KEK re-wraps the data keys and leaves the keys, and so
 * the accounts, unchanged.
 */
import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { and, asc, eq, gt, ne } from 'drizzle-orm'
import { bytesToHex } from 'viem'
import { evmAddressOf } from '../../src/protocol/embedded/signer.ts'
import { encodeBase58 } from '../../src/protocol/siwx/base58.ts'
import type { Db } from '../db/database.ts'
import { walletDataKeys, walletKeys } from '../db/schema.ts'
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
function seal(key: Buffer, plaintext: Uint8Array, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([iv, body, cipher.getAuthTag()])
}

function open(key: Buffer, sealed: Buffer, aad: Buffer): Buffer {
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

export interface Custody {
  /** Creates a user's data key and both private keys (inside the caller's transaction). */
  createKeys(tx: Db, userId: string): Promise<Record<Curve, PublicAccount>>
  /** The user's accounts, read from the keys' public columns. */
  accounts(userId: string): Promise<Record<Curve, PublicAccount>>
  /**
   * Opens one private key, hands it to `use`, and zeroes it afterwards. The key exists in memory only
   * for that call.
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
      const rows = await db.select().from(walletKeys).where(eq(walletKeys.userId, userId))
      const accounts = {} as Record<Curve, PublicAccount>
      for (const row of rows) accounts[row.curve] = { address: row.address, publicKey: row.publicKey }
      if (!accounts.secp256k1 || !accounts.ed25519) throw new CustodyError('A wallet user has no keys')
      return accounts
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
