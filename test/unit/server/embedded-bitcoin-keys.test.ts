// The Bitcoin account's public keys on the service (`keys/bitcoin`): kept only when the set's EVM key vouches for them.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { hashMessage } from 'viem'
import { bitcoinKeysProofMessage, bitcoinKeysResponse } from '../../../src/protocol/embedded/keys.ts'
import { signHash } from '../../../src/protocol/embedded/signer.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { signInWithKeys } from './embedded-keys-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
let t: EmbeddedTestApp
before(async () => {
  testDb = await openTestDatabase('embedded_bitcoin_keys')
  t = await startEmbeddedTestApp(testDb, 'bitcoin-keys', {
    rpcUpstreams: { 'eip155:31337': 'http://127.0.0.1:9' },
  })
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

const fresh = () => `btc.${randomBytes(4).toString('hex')}@example.com`
const newPublicKey = () =>
  Buffer.from(secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true)).toString('hex')

describe('keys/bitcoin', () => {
  test('behavior: none at first; kept once the EVM key of the set vouches for them; never replaced by other keys', async () => {
    const session = await signInWithKeys(t, fresh())
    const token = session.token
    const before = await t.call('/embedded/v1/keys/bitcoin', undefined, { token, method: 'GET' })
    assert.deepEqual(bitcoinKeysResponse.parse(before.body), { publicKeys: null })
    const publicKeys = { bitcoin: newPublicKey(), bitcoinTest: newPublicKey() }
    const body = (keys: typeof publicKeys, secret: Uint8Array) => ({
      setId: session.frame.setId,
      publicKeys: keys,
      proof: signHash(
        hashMessage(
          bitcoinKeysProofMessage({ projectId: t.projectId, setId: session.frame.setId, publicKeys: keys }),
        ),
        secret,
      ),
    })
    const kept = await t.call('/embedded/v1/keys/bitcoin', body(publicKeys, session.frame.keys.secp256k1), {
      token,
    })
    assert.equal(kept.status, 200, JSON.stringify(kept.body))
    assert.deepEqual(bitcoinKeysResponse.parse(kept.body), { publicKeys })
    const after = await t.call('/embedded/v1/keys/bitcoin', undefined, { token, method: 'GET' })
    assert.deepEqual(bitcoinKeysResponse.parse(after.body), { publicKeys })
    const other = { bitcoin: newPublicKey(), bitcoinTest: newPublicKey() }
    const replaced = await t.call('/embedded/v1/keys/bitcoin', body(other, session.frame.keys.secp256k1), {
      token,
    })
    assert.equal(replaced.status, 409)
    assert.equal(
      (replaced.body as { error: { message: string } }).error.message,
      'This wallet has other Bitcoin keys',
    )
  })

  test('attack: keys vouched for by another key (a session token alone) are refused', async () => {
    const session = await signInWithKeys(t, fresh())
    const publicKeys = { bitcoin: newPublicKey(), bitcoinTest: newPublicKey() }
    const message = bitcoinKeysProofMessage({
      projectId: t.projectId,
      setId: session.frame.setId,
      publicKeys,
    })
    const answer = await t.call(
      '/embedded/v1/keys/bitcoin',
      {
        setId: session.frame.setId,
        publicKeys,
        proof: signHash(hashMessage(message), secp256k1.utils.randomPrivateKey()),
      },
      { token: session.token },
    )
    assert.equal(answer.status, 403)
    assert.equal(
      (answer.body as { error: { message: string } }).error.message,
      'The Bitcoin keys are not vouched for by this wallet',
    )
    const still = await t.call('/embedded/v1/keys/bitcoin', undefined, {
      token: session.token,
      method: 'GET',
    })
    assert.deepEqual(bitcoinKeysResponse.parse(still.body), { publicKeys: null })
  })
})
