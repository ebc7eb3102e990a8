// The permissions' session keys (ERC-7715): made in the frame, kept in its origin's IndexedDB under a non-extractable AES-GCM key.
import * as z from 'zod/mini'
import { keyStore } from '../storage.ts'
import { buffer, open, seal } from './aead.ts'

const RECORD_VERSION = 1

/** Where a session key lives in the key store: one record per user and key address. */
const recordKey = (userId: string, key: string) => `session-key:${userId}:${key.toLowerCase()}`
/** Additional data: a record moved to another user, key or site does not open. */
const aadOf = (userId: string, key: string, site: string) =>
  `wallet-elements:session-key:v${RECORD_VERSION}:${userId}:${key.toLowerCase()}:${site}`

const isWrappingKey = (value: unknown) =>
  value instanceof CryptoKey &&
  value.type === 'secret' &&
  value.extractable === false &&
  value.algorithm.name === 'AES-GCM'

const SessionKeyRecord = z.object({
  version: z.literal(RECORD_VERSION),
  /** The site that asked for the permission: only its requests may use the key. */
  site: z.string(),
  chainId: z.string(),
  account: z.string(),
  /** The page's permission request as approved (the grant is read from it again when needed). */
  method: z.string(),
  params: z.unknown(),
  wrapping: z.custom<CryptoKey>(isWrappingKey),
  iv: z.instanceof(Uint8Array),
  ciphertext: z.instanceof(Uint8Array),
})

/** A kept session key: what it was granted for, and its secret (32 bytes, zero it after use). */
export interface SessionKeyEntry {
  site: string
  chainId: string
  account: string
  method: string
  params: unknown
  secret: Uint8Array
}

/** This browser's session keys, per user. */
export interface SessionKeyStore {
  save(userId: string, key: string, entry: SessionKeyEntry): Promise<void>
  /** The entry of that key, or undefined (none here, or a record that does not open). */
  load(userId: string, key: string): Promise<SessionKeyEntry | undefined>
  delete(userId: string, key: string): Promise<void>
}

/**
 * The session-key store on an IndexedDB factory (the frame's `indexedDB`): a key's secret is sealed
 * under its own non-extractable AES-GCM key, bound to the user, the key's address and the site.
 *
 * @example
 * const keys = sessionKeyStore(indexedDB)
 * await keys.save(userId, address, { site, chainId, account, method, params, secret })
 */
export function sessionKeyStore(indexedDb: IDBFactory): SessionKeyStore {
  return {
    async save(userId, key, entry) {
      const wrapping = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
        'encrypt',
        'decrypt',
      ])
      const sealed = await seal(wrapping, entry.secret, aadOf(userId, key, entry.site))
      const record: z.infer<typeof SessionKeyRecord> = {
        version: RECORD_VERSION,
        site: entry.site,
        chainId: entry.chainId,
        account: entry.account,
        method: entry.method,
        params: entry.params,
        wrapping,
        iv: buffer(sealed.iv),
        ciphertext: buffer(sealed.ciphertext),
      }
      await keyStore(indexedDb, 'readwrite', (store) => store.put(record, recordKey(userId, key)))
    },

    async load(userId, key) {
      const kept = await keyStore(indexedDb, 'readonly', (store) => store.get(recordKey(userId, key)))
      const record = z.safeParse(SessionKeyRecord, kept)
      if (!record.success) return undefined
      const { site, chainId, account, method, params } = record.data
      const secret = await open(record.data.wrapping, record.data, aadOf(userId, key, site))
      return secret ? { site, chainId, account, method, params, secret } : undefined
    },

    async delete(userId, key) {
      await keyStore(indexedDb, 'readwrite', (store) => store.delete(recordKey(userId, key)))
    },
  }
}
