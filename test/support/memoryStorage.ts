import type { IKeyValueStorage } from '@walletconnect/keyvaluestorage'

/**
 * In-memory key-value storage in the shape WalletConnect clients take (`storage` option), so
 * node tests never write session files.
 *
 * @example
 * await SignClient.init({ relayUrl, projectId, storage: memoryStorage() })
 */
export function memoryStorage(): IKeyValueStorage {
  const items = new Map<string, unknown>()
  return {
    getKeys: async () => [...items.keys()],
    getEntries: async <T>() => [...items.entries()] as [string, T][],
    getItem: async <T>(key: string) => items.get(key) as T | undefined,
    setItem: async <T>(key: string, value: T) => {
      items.set(key, value)
    },
    removeItem: async (key: string) => {
      items.delete(key)
    },
  }
}
