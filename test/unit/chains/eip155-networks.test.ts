import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { SHARDS, viemNetworks } from '../../../scripts/generate-networks.ts'
import { localNetworks } from '../../../src/chains/eip155/local.ts'
import { resolveEip155Networks } from '../../../src/chains/eip155/networks.ts'
import type { CaipNetworkId } from '../../../src/protocol/caip.ts'

describe('resolveEip155Networks (the generated network table)', () => {
  test('default: Base and Ethereum as viem/chains defines them', async () => {
    const networks = await resolveEip155Networks(['eip155:8453', 'eip155:1'])
    assert.equal(networks.get('eip155:8453')?.name, 'Base')
    assert.deepEqual(networks.get('eip155:1')?.nativeCurrency, { name: 'Ether', symbol: 'ETH', decimals: 18 })
    assert.equal(networks.get('eip155:1')?.chainNamespace, 'eip155')
    assert.equal(networks.get('eip155:1')?.caipNetworkId, 'eip155:1')
    assert.equal(networks.get('eip155:1')?.testnet, false)
    assert.equal(networks.get('eip155:11155111')?.testnet, undefined, 'only what was asked')
  })

  test('behavior: the table is the installed viem/chains, every chain of it (run `npm run networks` after upgrading viem)', async () => {
    const expected = viemNetworks()
    const ids = expected.map((network) => `eip155:${network.id}` as CaipNetworkId)
    const networks = await resolveEip155Networks(ids)
    assert.equal(networks.size, expected.length)
    for (const data of expected) {
      const local = localNetworks.find((network) => network.id === data.id)
      assert.deepEqual(
        networks.get(`eip155:${data.id}`),
        local ?? {
          ...data,
          chainNamespace: 'eip155',
          caipNetworkId: `eip155:${data.id}`,
          testnet: data.testnet ?? false,
        },
      )
    }
  })

  test('behavior: the local chains come first; unknown and malformed ids are left out', async () => {
    const networks = await resolveEip155Networks([
      'eip155:31337',
      'eip155:999999999999',
      'eip155:abc',
      'eip155:-1',
    ])
    assert.deepEqual([...networks.keys()], ['eip155:31337'])
    assert.equal(networks.get('eip155:31337')?.name, 'Local Chain')
  })

  test('behavior: data only, in small modules by chain id (no viem import, no formatters)', () => {
    const folder = 'src/chains/eip155/networks-data'
    const modules = readdirSync(folder).filter((file) => file !== 'index.ts')
    assert.equal(modules.length, SHARDS)
    for (const file of modules) {
      const text = readFileSync(`${folder}/${file}`, 'utf8')
      assert.doesNotMatch(text, /from 'viem/)
      assert.ok(text.length < 24_000, `${file} is ${text.length} bytes`)
    }
  })
})
