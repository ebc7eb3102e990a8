import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import {
  CaipAddressSchema,
  CaipNetworkIdSchema,
  ChainNamespaceSchema,
  parseCaipAddress,
  parseCaipNetworkId,
  parseCaipNetworkIdList,
  toCaipAddress,
  validate,
} from '../../../src/protocol/index.ts'

const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const EVM_ADDRESS = '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb'

describe('ChainNamespaceSchema', () => {
  it('default: accepts the five namespaces', () => {
    for (const namespace of ['eip155', 'solana', 'polkadot', 'bip122', 'cosmos'])
      assert.equal(ChainNamespaceSchema.parse(namespace), namespace)
  })

  it('error: rejects others', () => {
    assert.deepEqual(validate(ChainNamespaceSchema, 'tron'), {
      ok: false,
      message: 'Expected "eip155" | "solana" | "polkadot" | "bip122" | "cosmos", received "tron"',
      path: [],
    })
  })
})

describe('CaipNetworkIdSchema', () => {
  for (const id of ['eip155:1', 'eip155:31337', SOLANA, 'polkadot:91b171bb158e2d3848fa23a9f1c25182'])
    it(`default: accepts ${id}`, () =>
      assert.deepEqual(validate(CaipNetworkIdSchema, id), { ok: true, value: id }))

  for (const id of ['eip155', 'eip155:', ':1', 'eip155:1:2', '', ':'])
    it(`error: rejects ${JSON.stringify(id)}`, () =>
      assert.deepEqual(validate(CaipNetworkIdSchema, id), {
        ok: false,
        message: 'Invalid CAIP-2 network id',
        path: [],
      }))

  it('error: a non-string is a type error', () => {
    assert.deepEqual(validate(CaipNetworkIdSchema, 1), {
      ok: false,
      message: 'Expected string, received number',
      path: [],
    })
  })
})

describe('CaipAddressSchema', () => {
  for (const address of [`eip155:1:${EVM_ADDRESS}`, `${SOLANA}:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv`])
    it(`default: accepts ${address}`, () =>
      assert.deepEqual(validate(CaipAddressSchema, address), { ok: true, value: address }))

  for (const address of ['eip155:1', 'eip155:1:', 'eip155::0xab', ':1:0xab', 'eip155:1:0xab:extra'])
    it(`error: rejects ${address}`, () =>
      assert.deepEqual(validate(CaipAddressSchema, address), {
        ok: false,
        message: 'Invalid CAIP-10 address',
        path: [],
      }))
})

describe('parseCaipNetworkId', () => {
  it('default: splits namespace and reference', () => {
    assert.deepEqual(parseCaipNetworkId('eip155:10'), { namespace: 'eip155', reference: '10' })
  })

  it('error: throws a ValidationError with the spec message', () => {
    assert.throws(() => parseCaipNetworkId('eip155'), {
      name: 'ValidationError',
      shortMessage: 'Invalid CAIP-2 network id',
      code: 5000,
    })
  })
})

describe('parseCaipAddress', () => {
  it('default: splits all parts', () => {
    assert.deepEqual(parseCaipAddress(`eip155:1:${EVM_ADDRESS}`), {
      namespace: 'eip155',
      reference: '1',
      address: EVM_ADDRESS,
      caipNetworkId: 'eip155:1',
    })
  })

  it('error: throws a ValidationError with the spec message', () => {
    assert.throws(() => parseCaipAddress('eip155:1'), {
      name: 'ValidationError',
      shortMessage: 'Invalid CAIP-10 address',
    })
  })
})

describe('toCaipAddress', () => {
  it('default: joins network id and address', () => {
    assert.equal(toCaipAddress('eip155:1', EVM_ADDRESS), `eip155:1:${EVM_ADDRESS}`)
  })

  it('error: rejects an empty address', () => {
    assert.throws(() => toCaipAddress('eip155:1', ''), { shortMessage: 'Invalid CAIP-10 address' })
  })
})

describe('parseCaipNetworkIdList', () => {
  it('default: splits on commas and whitespace, drops repeats', () => {
    assert.deepEqual(parseCaipNetworkIdList(` eip155:1,eip155:10\n${SOLANA}  eip155:1 `), {
      ok: true,
      value: ['eip155:1', 'eip155:10', SOLANA],
    })
  })

  it('args: empty text is an empty list', () => {
    assert.deepEqual(parseCaipNetworkIdList('  '), { ok: true, value: [] })
  })

  it('error: gives the first bad entry', () => {
    assert.deepEqual(parseCaipNetworkIdList('eip155:1, eip155, solana'), {
      ok: false,
      message: 'Invalid CAIP-2 network id',
      path: [1],
    })
  })
})
