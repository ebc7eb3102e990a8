// The device share at rest: in the frame origin's IndexedDB, under a non-extractable AES-GCM key kept beside it.
import * as z from 'zod/mini'
import { keyStore } from '../storage.ts'
import { buffer, open, seal } from './aead.ts'
import { DeviceShareUnreadableError } from './errors.ts'

const RECORD_VERSION = 1

/** Where a user's record lives in the key store (one record per user id). */
const recordKey = (userId: string) => `device-share:${userId}`
/** Additional data: a record moved to another user id does not open. */
const aadOf = (userId: string) => `wallet-elements:device-share:v${RECORD_VERSION}:${userId}`

const isWrappingKey = (value: unknown) =>
  value instanceof CryptoKey &&
  value.type === 'secret' &&
  value.extractable === false &&
  value.algorithm.name === 'AES-GCM'

/** The record as stored: the wrapping key (structured clone of a CryptoKey), the IV and the ciphertext. */
const DeviceShareRecord = z.object({
  version: z.literal(RECORD_VERSION),
  key: z.custom<CryptoKey>(isWrappingKey),
  iv: z.instanceof(Uint8Array),
  ciphertext: z.instanceof(Uint8Array),
})
export type DeviceShareRecord = z.infer<typeof DeviceShareRecord>

/** This browser's device shares, one per user id. */
export interface DeviceShareStore {
  /** The user's device share, or undefined when this browser has none; throws {@link DeviceShareUnreadableError}. */
  load(userId: string): Promise<Uint8Array | undefined>
  /** Wraps the share under a new non-extractable key and keeps both, replacing the user's record. */
  save(userId: string, share: Uint8Array): Promise<void>
  /** Forgets the user's record (the share set was retired, or the person signed this browser out). */
  delete(userId: string): Promise<void>
}

/**
 * The device-share store on an IndexedDB factory (the frame's `indexedDB`). The wrapping key is made
 * in the frame with `extractable: false`: script on the frame's origin can ask it to decrypt, but
 * nothing can read it out, and a copy of the database files alone does not open the share.
 *
 * @example
 * const store = deviceShareStore(indexedDB)
 * await store.save(userId, shares.device)
 * const device = await store.load(userId)
 */
export function deviceShareStore(indexedDb: IDBFactory): DeviceShareStore {
  return {
    async load(userId) {
      const kept = await keyStore(indexedDb, 'readonly', (store) => store.get(recordKey(userId)))
      if (kept === undefined) return undefined
      const record = z.safeParse(DeviceShareRecord, kept)
      if (!record.success)
        throw new DeviceShareUnreadableError({ details: 'The stored record is not in a known format' })
      const share = await open(record.data.key, record.data, aadOf(userId))
      if (!share)
        throw new DeviceShareUnreadableError({
          details: 'The stored record does not open: altered, or another user’s',
        })
      return share
    },

    async save(userId, share) {
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
        'encrypt',
        'decrypt',
      ])
      const sealed = await seal(key, share, aadOf(userId))
      const record: DeviceShareRecord = {
        version: RECORD_VERSION,
        key,
        iv: buffer(sealed.iv),
        ciphertext: buffer(sealed.ciphertext),
      }
      await keyStore(indexedDb, 'readwrite', (store) => store.put(record, recordKey(userId)))
    },

    async delete(userId) {
      await keyStore(indexedDb, 'readwrite', (store) => store.delete(recordKey(userId)))
    },
  }
}
