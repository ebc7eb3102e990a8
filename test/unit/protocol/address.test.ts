import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { EvmAddressSchema, HexSchema, SolanaAddressSchema, validate } from '../../../src/protocol/index.ts'

const cases = [
  {
    schema: EvmAddressSchema,
    name: 'EvmAddressSchema',
    message: 'Invalid EVM address',
    valid: [
      '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
      'ab16a96d359ec26a11e2c2b3d8f8b8942d5bfcdb',
      '0x0000000000000000000000000000000000000000',
    ],
    invalid: [
      '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcd',
      '0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb0',
      '0xzz16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
      '0Xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb',
      '',
    ],
  },
  {
    schema: SolanaAddressSchema,
    name: 'SolanaAddressSchema',
    message: 'Invalid Solana address',
    valid: [
      '7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
      '11111111111111111111111111111111',
      'So11111111111111111111111111111111111111112',
    ],
    invalid: [
      '1111111111111111111111111111111',
      '7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKvX',
      '0S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
      'OS3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
      'lS3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv',
    ],
  },
  {
    schema: HexSchema,
    name: 'HexSchema',
    message: 'Invalid hex string',
    valid: ['0x', '0x00', '0xdeadBEEF'],
    invalid: ['deadbeef', '0xg1', '0X00', ' 0x00', ''],
  },
] as const

for (const { schema, name, message, valid, invalid } of cases) {
  describe(name, () => {
    for (const value of valid)
      it(`default: accepts ${JSON.stringify(value)}`, () =>
        assert.deepEqual(validate(schema, value), { ok: true, value }))

    for (const value of invalid)
      it(`error: rejects ${JSON.stringify(value)}`, () =>
        assert.deepEqual(validate(schema, value), { ok: false, message, path: [] }))

    it('error: rejects a non-string', () =>
      assert.deepEqual(validate(schema, null), {
        ok: false,
        message: 'Expected string, received null',
        path: [],
      }))
  })
}
