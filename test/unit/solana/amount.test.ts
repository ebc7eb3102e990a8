import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { parseAmount } from '../../../src/core/amount.ts'

describe('parseAmount', () => {
  test('default: 0.5 SOL is 500,000,000 lamports', () => {
    assert.equal(parseAmount('0.5', 9), 500_000_000n)
  })

  test('behavior: whole numbers, fractions and every decimal place', () => {
    assert.equal(parseAmount('10', 6), 10_000_000n)
    assert.equal(parseAmount('1.234567', 6), 1_234_567n)
    assert.equal(parseAmount('0.000001', 6), 1n)
    assert.equal(parseAmount('0', 6), 0n)
    assert.equal(parseAmount('0.0', 6), 0n)
    assert.equal(parseAmount('007.5', 2), 750n)
    assert.equal(parseAmount('42', 0), 42n)
  })

  test('behavior: .5 and 5. are accepted, surrounding whitespace ignored', () => {
    assert.equal(parseAmount('.5', 6), 500_000n)
    assert.equal(parseAmount('5.', 6), 5_000_000n)
    assert.equal(parseAmount('  1.5\n', 6), 1_500_000n)
  })

  test('behavior: trailing zeros beyond the decimals are exact, so accepted', () => {
    assert.equal(parseAmount('1.5000000000', 6), 1_500_000n)
    assert.equal(parseAmount('3.0', 0), 3n)
  })

  test('behavior: large amounts stay exact (18 decimals, beyond 2^64)', () => {
    assert.equal(
      parseAmount('123456789012345678901.123456789012345678', 18),
      123456789012345678901123456789012345678n,
    )
    assert.equal(parseAmount('18446744073709.551615', 6), 2n ** 64n - 1n)
  })

  test('error: more fraction digits than decimals', () => {
    assert.equal(parseAmount('1.2345678', 6), undefined)
    assert.equal(parseAmount('0.0000001', 6), undefined)
    assert.equal(parseAmount('1.5', 0), undefined)
  })

  test('error: empty and lone dot', () => {
    for (const text of ['', '   ', '.', ' . '])
      assert.equal(parseAmount(text, 6), undefined, JSON.stringify(text))
  })

  test('error: signs, exponents, separators, words and other digits', () => {
    for (const text of [
      '-1',
      '-0.5',
      '+1',
      '1e3',
      '1E3',
      '1.5e-3',
      '1,5',
      '1,000',
      '1_000',
      '1 000',
      '1..5',
      '1.5.0',
      '0x10',
      'abc',
      'NaN',
      'Infinity',
      '١٢',
    ]) {
      assert.equal(parseAmount(text, 6), undefined, text)
    }
  })

  test('error: decimals outside 0 to 255 is a programming error', () => {
    assert.throws(() => parseAmount('1', -1), RangeError)
    assert.throws(() => parseAmount('1', 1.5), RangeError)
    assert.throws(() => parseAmount('1', 256), RangeError)
  })
})
