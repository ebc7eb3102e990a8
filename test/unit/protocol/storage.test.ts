import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  RecentWalletsSchema,
  STORAGE_PREFIX,
  StorageKey,
  StorageSchemas,
  validate,
} from '../../../src/protocol/index.ts'

describe('storage keys', () => {
  it('default: one prefix, distinct names', () => {
    assert.equal(STORAGE_PREFIX, '@wallet-elements/')
    const names = Object.values(StorageKey)
    assert.equal(new Set(names).size, names.length)
    for (const name of names) assert.match(name, /^[a-z][a-z0-9-]*$/)
  })

  it('default: every key of SPEC 3 plus disconnected and connector has a schema', () => {
    assert.deepEqual(Object.keys(StorageSchemas).sort(), Object.values(StorageKey).sort())
    assert.equal(Object.keys(StorageKey).length, 16)
  })
})

describe('stored values', () => {
  const now = 1_700_000_000_000
  const good: Record<string, unknown> = {
    [StorageKey.lastChain]: 'eip155:1',
    [StorageKey.loginEmailUsed]: true,
    [StorageKey.email]: 'ada@example.com',
    [StorageKey.socialUsername]: 'ada',
    [StorageKey.smartAccountNetworks]: ['eip155:8453'],
    [StorageKey.recentWallets]: [{ id: 'io.metamask', name: 'MetaMask', icon: 'data:image/svg+xml,' }],
    [StorageKey.connectedNamespaces]: ['eip155', 'solana'],
    [StorageKey.connectionStatus]: 'connected',
    [StorageKey.disconnected]: true,
    [StorageKey.connector]: { eip155: 'io.metamask' },
    [StorageKey.siwxAuthToken]: 'jwt',
    [StorageKey.siwxNonceToken]: 'nonce',
    [StorageKey.balanceCache]: {
      'eip155:1:0xab': { timestamp: now, value: { balance: '1.5', symbol: 'ETH' } },
    },
    [StorageKey.portfolioCache]: { 'eip155:1:0xab': { timestamp: now, value: [] } },
    [StorageKey.nameCache]: { 'ada.wallet': { timestamp: now, value: ['0xab'] } },
    [StorageKey.identityCache]: { '0xab': { timestamp: now, value: { name: 'ada', avatar: null } } },
  }

  for (const [key, schema] of Object.entries(StorageSchemas))
    it(`default: ${key} reads back`, () =>
      assert.deepEqual(validate(schema, good[key]), { ok: true, value: good[key] }))

  it('error: foreign values do not read back', () => {
    assert.equal(validate(StorageSchemas[StorageKey.lastChain], 'mainnet').ok, false)
    assert.equal(validate(StorageSchemas[StorageKey.connectedNamespaces], ['tron']).ok, false)
    assert.equal(validate(StorageSchemas[StorageKey.connectionStatus], 'online').ok, false)
    assert.equal(validate(StorageSchemas[StorageKey.connector], { tron: 'x' }).ok, false)
    assert.equal(validate(StorageSchemas[StorageKey.balanceCache], { a: { value: {} } }).ok, false)
  })

  it('error: recent wallet without a name', () =>
    assert.deepEqual(validate(RecentWalletsSchema, [{ id: 'a' }]), {
      ok: false,
      message: 'Required',
      path: [0, 'name'],
    }))
})
