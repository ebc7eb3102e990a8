import type * as z from 'zod/mini'
import type { StorageKey, StorageValue } from '../protocol/storage.ts'
import { STORAGE_PREFIX } from '../protocol/storageKeys.ts'

/** The subset of the Web Storage API we use; injected so tests and servers can pass their own. */
export interface StorageLike {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface Storage {
  /**
   * Reads a key back through its schema (from `protocol/storage`); a corrupt or foreign value reads
   * as undefined. Schemas are passed per call so a page bundles only the ones it reads.
   */
  get<K extends StorageKey>(key: K, schema: z.ZodMiniType<StorageValue<K>>): StorageValue<K> | undefined
  set<K extends StorageKey>(key: K, value: StorageValue<K>): void
  remove(key: StorageKey): void
}

/**
 * Prefixed JSON storage. Every key shares one prefix (SPEC section 3); what is read back is
 * validated, because another script on the page can write anything there.
 *
 * @example
 * const storage = createStorage(window.localStorage)
 * storage.set(StorageKey.recentWallets, [{ id: 'a', name: 'A' }])
 */
export function createStorage(backend: StorageLike | undefined, prefix = STORAGE_PREFIX): Storage {
  const memory = new Map<string, string>()
  const store: StorageLike = backend ?? {
    getItem: (key) => memory.get(key) ?? null,
    setItem: (key, value) => void memory.set(key, value),
    removeItem: (key) => void memory.delete(key),
  }
  return {
    get(key, schema) {
      let raw: string | null
      try {
        raw = store.getItem(prefix + key)
      } catch {
        return undefined
      }
      if (raw === null) return undefined
      try {
        const parsed = schema.safeParse(JSON.parse(raw))
        return parsed.success ? parsed.data : undefined
      } catch {
        return undefined
      }
    },
    set(key, value) {
      try {
        store.setItem(prefix + key, JSON.stringify(value))
      } catch {
        // Full or blocked storage (private mode): the session still works, it just isn't remembered.
      }
    },
    remove(key) {
      try {
        store.removeItem(prefix + key)
      } catch {}
    },
  }
}
