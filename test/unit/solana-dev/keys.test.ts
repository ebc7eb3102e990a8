import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, test } from 'node:test'
import { PublicKey } from '@solana/web3.js'
import { decodeBase58, encodeBase58, formatUnits } from '../../../server/dev/solana/codec.ts'
import { INSTRUCTION_ERROR_NAMES, TRANSACTION_ERROR_NAMES } from '../../../server/dev/solana/errors.ts'
import {
  DEV_MNEMONIC,
  deriveEd25519,
  devKeyPath,
  devKeypair,
  devKeypairs,
  mnemonicToSeed,
  testMintKeypair,
} from '../../../server/dev/solana/keys.ts'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

describe('dev keys', () => {
  test('SLIP-0010 ed25519 matches the specification test vector 1', () => {
    const seed = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex')
    assert.equal(
      hex(deriveEd25519(seed, 'm')),
      '2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7',
    )
    assert.equal(
      hex(deriveEd25519(seed, "m/0'")),
      '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
    )
    assert.throws(() => deriveEd25519(seed, 'm/0'), /hardened/)
  })

  test('BIP-39 seed of the test mnemonic', () => {
    const seed = mnemonicToSeed(DEV_MNEMONIC)
    assert.equal(seed.length, 64)
    assert.equal(hex(seed).slice(0, 16), hex(mnemonicToSeed(DEV_MNEMONIC)).slice(0, 16))
  })

  test("four distinct, stable keys along m/44'/501'/N'/0'", () => {
    assert.equal(devKeyPath(2), "m/44'/501'/2'/0'")
    const keys = devKeypairs()
    assert.equal(keys.length, 4)
    assert.equal(new Set(keys.map((k) => k.publicKey.toBase58())).size, 4)
    assert.ok(devKeypair(0).publicKey.equals(keys[0]?.publicKey ?? PublicKey.default))
    assert.equal(keys[0]?.publicKey.toBase58(), 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96')
    assert.ok(testMintKeypair().publicKey.equals(testMintKeypair().publicKey))
  })
})

describe('codec', () => {
  test('base58 round-trips, keeping leading zeros', () => {
    for (const bytes of [new Uint8Array(0), new Uint8Array([0, 0, 1, 2]), new Uint8Array(64).fill(255)]) {
      assert.deepEqual(decodeBase58(encodeBase58(bytes)), bytes)
    }
    const key = devKeypair(1).publicKey
    assert.equal(encodeBase58(key.toBytes()), key.toBase58())
    assert.throws(() => decodeBase58('0OIl'), /invalid base58/)
  })

  test('token amounts as decimal text', () => {
    assert.equal(formatUnits(10_000_000n, 6), '10')
    assert.equal(formatUnits(10_500_000n, 6), '10.5')
    assert.equal(formatUnits(1n, 6), '0.000001')
    assert.equal(formatUnits(0n, 6), '0')
    assert.equal(formatUnits(42n, 0), '42')
  })
})

describe('litesvm error tables', () => {
  // litesvm declares these as `const enum`s in its .d.ts (no runtime object): read the declaration.
  const declared = (name: string): Map<string, number> => {
    const text = readFileSync(createRequire(import.meta.url).resolve('litesvm/dist/internal.d.ts'), 'utf8')
    const body = new RegExp(`const enum ${name} \\{([^}]*)\\}`).exec(text)?.[1] ?? ''
    return new Map([...body.matchAll(/(\w+) = (\d+)/g)].map((m) => [m[1] ?? '', Number(m[2])]))
  }

  test('transaction error names follow litesvm’s enum values', () => {
    const values = declared('TransactionErrorFieldless')
    assert.equal(values.size, TRANSACTION_ERROR_NAMES.length)
    for (const [name, value] of values) assert.equal(TRANSACTION_ERROR_NAMES[value], name)
  })

  test('instruction error names follow litesvm’s enum values', () => {
    const values = declared('InstructionErrorFieldless')
    assert.equal(values.size, INSTRUCTION_ERROR_NAMES.length)
    for (const [name, value] of values) assert.equal(INSTRUCTION_ERROR_NAMES[value], name)
  })
})
