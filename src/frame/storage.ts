import { randomId } from '../protocol/base64.ts'

/** The frame's own storage: its origin's localStorage, which browsers partition by the embedding site. */
export interface FrameStorage {
  /** This browser's id for the service (made once). */
  deviceId(): string
  token(): string | undefined
  setToken(token: string | undefined): void
  /**
   * This browser's session key (sessions are bound to the browser that earned them): an ECDSA P-256 pair
   * whose private half is non-extractable, made once and kept in IndexedDB on the frame's origin. Script
   * can ask it to sign, but nothing can read it out, so a copied token is useless elsewhere.
   */
  sessionKey(): Promise<CryptoKeyPair>
}

const KEY_DATABASE = 'wallet-frame'
const KEY_STORE = 'keys'

/**
 * Runs one request on the frame origin's key store (IndexedDB `wallet-frame`, store `keys`: the session
 * key, the device shares); rejects when IndexedDB is missing or blocked.
 *
 * @example
 * const kept = await keyStore(indexedDB, 'readonly', (store) => store.get('dev-project:session-key'))
 */
export function keyStore<T>(
  indexedDb: IDBFactory,
  mode: IDBTransactionMode,
  run: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const open = indexedDb.open(KEY_DATABASE, 1)
    open.onupgradeneeded = () => open.result.createObjectStore(KEY_STORE)
    open.onerror = () => reject(open.error)
    open.onsuccess = () => {
      const database = open.result
      try {
        const request = run(database.transaction(KEY_STORE, mode).objectStore(KEY_STORE))
        request.onsuccess = () => {
          database.close()
          resolve(request.result)
        }
        request.onerror = () => {
          database.close()
          reject(request.error)
        }
      } catch (error) {
        database.close()
        reject(error)
      }
    }
  })
}

const isKeyPair = (value: unknown): value is CryptoKeyPair =>
  typeof value === 'object' &&
  value !== null &&
  (value as CryptoKeyPair).privateKey?.type === 'private' &&
  (value as CryptoKeyPair).privateKey.extractable === false &&
  (value as CryptoKeyPair).publicKey?.type === 'public'

/**
 * The session token, device id and session key, kept on the frame's origin only: the host page cannot
 * read another origin's storage, and no message to the page ever carries them. Without storage
 * (blocked), they live in memory for this load.
 *
 * @example
 * const storage = frameStorage(window.localStorage, 'dev-project', window.indexedDB)
 */
export function frameStorage(
  backend: Storage | undefined,
  projectId: string,
  indexedDb?: IDBFactory | undefined,
): FrameStorage {
  const memory = new Map<string, string>()
  const read = (key: string) => {
    try {
      return backend?.getItem(key) ?? memory.get(key)
    } catch {
      return memory.get(key)
    }
  }
  const write = (key: string, value: string | undefined) => {
    if (value === undefined) memory.delete(key)
    else memory.set(key, value)
    try {
      if (value === undefined) backend?.removeItem(key)
      else backend?.setItem(key, value)
    } catch {
      // Storage blocked or full: memory keeps it for this load.
    }
  }
  const tokenKey = `wallet-frame:${projectId}:session`
  const keyName = `${projectId}:session-key`
  let keyPair: Promise<CryptoKeyPair> | undefined

  async function loadOrMakeKey(): Promise<CryptoKeyPair> {
    if (indexedDb) {
      const kept = await keyStore(indexedDb, 'readonly', (store) => store.get(keyName)).catch(() => undefined)
      if (isKeyPair(kept)) return kept
    }
    const made = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])
    if (indexedDb) {
      // Kept for later loads; if that fails, the key lives for this load (a new sign-in later).
      await keyStore(indexedDb, 'readwrite', (store) => store.put(made, keyName)).catch(() => undefined)
    }
    return made
  }

  return {
    deviceId() {
      const existing = read('wallet-frame:device')
      if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return existing
      const id = randomId()
      write('wallet-frame:device', id)
      return id
    },
    token() {
      const token = read(tokenKey)
      return token && /^[A-Za-z0-9_-]{43}$/.test(token) ? token : undefined
    },
    setToken: (token) => write(tokenKey, token),
    sessionKey() {
      keyPair ??= loadOrMakeKey().catch((error: unknown) => {
        keyPair = undefined
        throw error
      })
      return keyPair
    },
  }
}
