import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  BalanceCacheSchema,
  ConnectionStatusSchema,
  ConnectorIdsSchema,
  RecentWalletsSchema,
  STORAGE_PREFIX,
  StorageKey,
  StorageSchemas,
} from '../../../src/protocol/storage.ts'
import type { StorageLike } from '../../../src/services/storage.ts'
import { createStorage } from '../../../src/services/storage.ts'

function mapBackend() {
  const items = new Map<string, string>()
  const backend: StorageLike = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
  return { items, backend }
}

/** A backend that fails like Safari private mode or a full quota. */
const throwingBackend: StorageLike = {
  getItem() {
    throw new DOMException('The operation is insecure.', 'SecurityError')
  },
  setItem() {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
  },
  removeItem() {
    throw new DOMException('The operation is insecure.', 'SecurityError')
  },
}

describe('createStorage', () => {
  test('default: every key is written under the @wallet-elements/ prefix as JSON', () => {
    const { items, backend } = mapBackend()
    const storage = createStorage(backend)
    storage.set(StorageKey.lastChain, 'eip155:8453')
    storage.set(StorageKey.connectionStatus, 'connected')
    storage.set(StorageKey.connector, { eip155: 'io.metamask' })
    storage.set(StorageKey.disconnected, true)
    assert.deepEqual(Object.fromEntries(items), {
      '@wallet-elements/last-chain': '"eip155:8453"',
      '@wallet-elements/connection-status': '"connected"',
      '@wallet-elements/connector': '{"eip155":"io.metamask"}',
      '@wallet-elements/disconnected': 'true',
    })
  })

  test('behavior: all sixteen keys share the prefix', () => {
    const { items, backend } = mapBackend()
    const storage = createStorage(backend)
    for (const key of Object.values(StorageKey)) storage.set(key, 'x' as never)
    assert.equal(items.size, Object.values(StorageKey).length)
    for (const key of items.keys()) assert.ok(key.startsWith(STORAGE_PREFIX), key)
    assert.equal(STORAGE_PREFIX, '@wallet-elements/')
  })

  test('behavior: values read back through the given schema', () => {
    const { backend } = mapBackend()
    const storage = createStorage(backend)
    const recent = [
      { id: 'io.metamask', name: 'MetaMask' },
      { id: 'app.phantom', name: 'Phantom', icon: 'data:,' },
    ]
    const balances = { 'eip155:1:0xab': { timestamp: 1, value: { balance: '1.5', symbol: 'ETH' } } }
    storage.set(StorageKey.recentWallets, recent)
    storage.set(StorageKey.balanceCache, balances)
    storage.set(StorageKey.connectionStatus, 'reconnecting')
    assert.deepEqual(storage.get(StorageKey.recentWallets, RecentWalletsSchema), recent)
    assert.deepEqual(storage.get(StorageKey.balanceCache, BalanceCacheSchema), balances)
    assert.equal(storage.get(StorageKey.connectionStatus, ConnectionStatusSchema), 'reconnecting')
    assert.equal(
      storage.get(StorageKey.connectionStatus, StorageSchemas[StorageKey.connectionStatus]),
      'reconnecting',
    )
  })

  test('behavior: a missing key reads as undefined', () => {
    const storage = createStorage(mapBackend().backend)
    assert.equal(storage.get(StorageKey.lastChain, StorageSchemas[StorageKey.lastChain]), undefined)
  })

  test('behavior: a key without the prefix is not read', () => {
    const { items, backend } = mapBackend()
    items.set('connection-status', '"connected"')
    assert.equal(createStorage(backend).get(StorageKey.connectionStatus, ConnectionStatusSchema), undefined)
  })

  test('behavior: remove deletes the prefixed key only', () => {
    const { items, backend } = mapBackend()
    items.set('disconnected', 'true')
    const storage = createStorage(backend)
    storage.set(StorageKey.disconnected, true)
    storage.remove(StorageKey.disconnected)
    assert.deepEqual([...items.keys()], ['disconnected'])
    assert.equal(storage.get(StorageKey.disconnected, StorageSchemas[StorageKey.disconnected]), undefined)
  })

  test('behavior: a custom prefix replaces the default', () => {
    const { items, backend } = mapBackend()
    createStorage(backend, 'other/').set(StorageKey.lastChain, 'eip155:1')
    assert.deepEqual([...items.keys()], ['other/last-chain'])
  })

  test('error: corrupt JSON reads as undefined', () => {
    const { items, backend } = mapBackend()
    items.set(`${STORAGE_PREFIX}${StorageKey.recentWallets}`, '[{"id":"io.metamask",')
    items.set(`${STORAGE_PREFIX}${StorageKey.connectionStatus}`, 'connected')
    const storage = createStorage(backend)
    assert.equal(storage.get(StorageKey.recentWallets, RecentWalletsSchema), undefined)
    assert.equal(storage.get(StorageKey.connectionStatus, ConnectionStatusSchema), undefined)
  })

  test('error: a value of the wrong shape reads as undefined', () => {
    const { items, backend } = mapBackend()
    const write = (key: string, value: unknown) => items.set(`${STORAGE_PREFIX}${key}`, JSON.stringify(value))
    write(StorageKey.connectionStatus, 'purple')
    write(StorageKey.recentWallets, [{ id: 1, name: 'MetaMask' }])
    write(StorageKey.connector, { ethereum: 'io.metamask' })
    write(StorageKey.lastChain, 'eip155')
    write(StorageKey.disconnected, 'true')
    write(StorageKey.balanceCache, {
      'eip155:1:0xab': { timestamp: '1', value: { balance: '1', symbol: 'ETH' } },
    })
    const storage = createStorage(backend)
    assert.equal(storage.get(StorageKey.connectionStatus, ConnectionStatusSchema), undefined)
    assert.equal(storage.get(StorageKey.recentWallets, RecentWalletsSchema), undefined)
    assert.equal(storage.get(StorageKey.connector, ConnectorIdsSchema), undefined)
    assert.equal(storage.get(StorageKey.lastChain, StorageSchemas[StorageKey.lastChain]), undefined)
    assert.equal(storage.get(StorageKey.disconnected, StorageSchemas[StorageKey.disconnected]), undefined)
    assert.equal(storage.get(StorageKey.balanceCache, BalanceCacheSchema), undefined)
  })

  test('error: a throwing backend (quota, private mode) never throws', () => {
    const storage = createStorage(throwingBackend)
    assert.doesNotThrow(() => storage.set(StorageKey.lastChain, 'eip155:1'))
    assert.doesNotThrow(() => storage.remove(StorageKey.lastChain))
    assert.equal(storage.get(StorageKey.lastChain, StorageSchemas[StorageKey.lastChain]), undefined)
  })

  test('error: a backend that reads but cannot write keeps the old value readable', () => {
    const { items, backend } = mapBackend()
    items.set(`${STORAGE_PREFIX}${StorageKey.lastChain}`, '"eip155:1"')
    const storage = createStorage({ ...backend, setItem: throwingBackend.setItem })
    storage.set(StorageKey.lastChain, 'eip155:10')
    assert.equal(storage.get(StorageKey.lastChain, StorageSchemas[StorageKey.lastChain]), 'eip155:1')
  })

  test('behavior: with no backend, values live in memory for this instance only', () => {
    const storage = createStorage(undefined)
    storage.set(StorageKey.connectionStatus, 'connected')
    storage.set(StorageKey.recentWallets, [{ id: 'a', name: 'A' }])
    assert.equal(storage.get(StorageKey.connectionStatus, ConnectionStatusSchema), 'connected')
    assert.deepEqual(storage.get(StorageKey.recentWallets, RecentWalletsSchema), [{ id: 'a', name: 'A' }])
    storage.remove(StorageKey.connectionStatus)
    assert.equal(storage.get(StorageKey.connectionStatus, ConnectionStatusSchema), undefined)
    // No module-level state: a second instance starts empty.
    assert.equal(createStorage(undefined).get(StorageKey.recentWallets, RecentWalletsSchema), undefined)
  })
})
