import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isSolanaAddress } from '../../../src/chains/solana/address.ts'

describe('isSolanaAddress', () => {
  test('default: dev key 0 is an address', () => {
    assert.equal(isSolanaAddress('oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96'), true)
  })

  test('behavior: program ids, mints and the all-zero key (32 and 44 characters) are addresses', () => {
    for (const value of [
      '11111111111111111111111111111111',
      'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
      'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
      'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      '3NgR9cyptmChF72pCdDbrajWsehczWmp6iEbBnnFkHPU',
    ]) {
      assert.equal(isSolanaAddress(value), true, value)
    }
  })

  test('error: too short, too long, empty', () => {
    assert.equal(isSolanaAddress('1111111111111111111111111111111'), false, '31 characters')
    assert.equal(isSolanaAddress('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v1'), false, '45 characters')
    assert.equal(isSolanaAddress(''), false)
  })

  test('error: characters outside base58 (0, O, I, l), spaces', () => {
    const good = 'oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96'
    for (const character of ['0', 'O', 'I', 'l']) {
      const value = `${character}${good.slice(1)}`
      assert.equal(isSolanaAddress(value), false, value)
    }
    assert.equal(isSolanaAddress(` ${good}`), false)
    assert.equal(isSolanaAddress(`${good} `), false)
  })

  test('error: an EVM address', () => {
    assert.equal(isSolanaAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'), false)
    assert.equal(isSolanaAddress('f39Fd6e51aad88F6F4ce6aB8827279cffFb92266'), false)
  })

  test('error: the right length and alphabet, but not 32 bytes once decoded', () => {
    assert.equal(isSolanaAddress('z'.repeat(44)), false, 'decodes to 33 bytes')
    assert.equal(isSolanaAddress('2'.repeat(32)), false, 'decodes to 24 bytes')
  })
})
