import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hexToBytes } from '@noble/hashes/utils.js'
import { mnemonicToAccount } from 'viem/accounts'
import { addressesOf } from '../../../src/frame/keys/derive.ts'
import { createSecret, secretFromKeys, secretFromPhrase } from '../../../src/frame/keys/secret.ts'
import { combineShares, reshare, splitSecret, withSharedKeys } from '../../../src/frame/keys/shares.ts'

const HARDHAT = 'test test test test test test test test test test test junk'
const mismatch = { name: 'ShareMismatchError', shortMessage: 'These shares do not open this wallet' }
const invalid = { name: 'InvalidShareError', shortMessage: 'A wallet share is not in a known format' }

const contains = (haystack: Uint8Array, needle: Uint8Array) =>
  haystack.some((_, at) => needle.every((byte, index) => haystack[at + index] === byte))

describe('shares, 2 of 3', () => {
  it('default: any two of device, auth and recovery open the same secret and accounts', async () => {
    const secret = secretFromPhrase(HARDHAT)
    const expected = await addressesOf(secret)
    const { device, auth, recovery } = await splitSecret(secret)
    for (const pair of [
      [device, auth],
      [auth, recovery],
      [recovery, device],
    ]) {
      assert.deepEqual(await combineShares(pair, expected), secret)
    }
    assert.equal(expected.eip155, mnemonicToAccount(HARDHAT).address)
    // No share carries the secret's entropy in the clear.
    for (const share of [device, auth, recovery]) assert.ok(!contains(share, secret.subarray(1, 9)))
  })

  it('behavior: withSharedKeys hands the checked keys to `use` and zeroes them afterwards', async () => {
    const secret = createSecret()
    const expected = await addressesOf(secret)
    const { device, auth } = await splitSecret(secret)
    let seen: Uint8Array | undefined
    const address = await withSharedKeys([device, auth], expected, (keys) => {
      seen = keys.secp256k1
      return expected.eip155
    })
    assert.equal(address, expected.eip155)
    assert.ok(seen?.every((byte) => byte === 0))
  })

  it('behavior: an existing user’s raw keys (version 2) split and combine the same way', async () => {
    const secret = secretFromKeys({
      secp256k1: hexToBytes('59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'),
      ed25519: new Uint8Array(32).fill(42),
    })
    const expected = await addressesOf(secret)
    const { auth, recovery } = await splitSecret(secret)
    assert.deepEqual(await combineShares([recovery, auth], expected), secret)
    assert.equal(expected.eip155, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
  })

  it('behavior: reshare makes a fresh set from two; the retired shares do not mix with the new ones', async () => {
    const secret = createSecret()
    const expected = await addressesOf(secret)
    const old = await splitSecret(secret)
    const fresh = await reshare([old.recovery, old.auth], expected)
    assert.notDeepEqual(fresh.device, old.device)
    assert.deepEqual(await combineShares([fresh.device, fresh.auth], expected), secret)
    assert.deepEqual(await combineShares([fresh.recovery, fresh.device], expected), secret)
    await assert.rejects(combineShares([old.device, fresh.auth], expected), {
      ...mismatch,
      details: 'The shares come from different sets (one was retired by a reshare)',
    })
  })

  it('error: another wallet’s accounts, or an altered share, are refused, never a different wallet', async () => {
    const secret = createSecret()
    const expected = await addressesOf(secret)
    const { device, auth } = await splitSecret(secret)
    const other = await addressesOf(createSecret())
    await assert.rejects(combineShares([device, auth], other), {
      ...mismatch,
      details: 'The shares open other accounts than expected',
    })
    // Every byte of the share's body, flipped: refused each time.
    for (let at = 9; at < device.length - 1; at++) {
      const altered = device.slice()
      altered[at] = (altered[at] ?? 0) ^ 0x5a
      await assert.rejects(combineShares([altered, auth], expected), mismatch, `byte ${at}`)
    }
    // The x coordinate, flipped: a different point, refused either way.
    const moved = device.slice()
    moved[moved.length - 1] = (moved[moved.length - 1] ?? 0) ^ 0x80
    await assert.rejects(combineShares([moved, auth], expected), (error: Error) =>
      ['ShareMismatchError', 'InvalidShareError'].includes(error.name),
    )
  })

  it('error: one share, the same share twice, or a foreign format, with their messages', async () => {
    const secret = createSecret()
    const expected = await addressesOf(secret)
    const { device, auth } = await splitSecret(secret)
    await assert.rejects(combineShares([device], expected), {
      ...invalid,
      details: 'Two shares are needed, got 1',
    })
    await assert.rejects(combineShares([device, device], expected), {
      ...invalid,
      details: 'The same share twice',
    })
    const foreign = auth.slice()
    foreign[0] = 9
    await assert.rejects(combineShares([device, foreign], expected), {
      ...invalid,
      details: `Format 9, ${auth.length} bytes`,
    })
    await assert.rejects(combineShares([device, auth.subarray(0, 12)], expected), {
      ...mismatch,
      details: 'The shares have different lengths',
    })
    await assert.rejects(splitSecret(new Uint8Array([3, 1, 2])), { name: 'InvalidSecretError' })
  })
})
