// The person's key routes on the service: set-up, shares, reshare, recovery, and every refusal.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { stringToHex } from 'viem'
import { proofRefusedMessage, shareSetMismatchMessage } from '../../../server/embedded/keyProof.ts'
import { foreignSignatureMessage, signatureCountMessage } from '../../../server/embedded/methods/plan.ts'
import { keysMessages } from '../../../server/embedded/userKeys.ts'
import { updateProject } from '../../../server/projects/store.ts'
import { withSharedKeys } from '../../../src/frame/keys/shares.ts'
import {
  approvalResponse,
  authShareResponse,
  embeddedErrorBody,
  recoveryShareResponse,
  walletKeyState,
} from '../../../src/protocol/embedded/index.ts'
import {
  type EmbeddedTestApp,
  FRAME_ORIGIN,
  signInByEmail,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import {
  frameKeysOf,
  keySetProof,
  type SessionWithKeys,
  setupBody,
  setupKeysLikeTheFrame,
  shareBytes,
  signInWithKeys,
  wire,
} from './embedded-keys-helpers.ts'
import { passkeyCeremonies } from './embedded-passkey-ceremonies.ts'
import { softwarePasskey } from './embedded-passkey-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

const EVM = 'eip155:31337'
let testDb: TestDatabase
let t: EmbeddedTestApp
let operator: EmbeddedTestApp

const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error
const fresh = (name: string) => `${name}.${randomBytes(4).toString('hex')}@example.com`

/** A password-sealed recovery share as the frame stores it (the service never opens it). */
const passwordRecovery = () => ({
  method: 'password' as const,
  sealed: {
    version: 1 as const,
    kdf: { name: 'scrypt' as const, N: 2 ** 17, r: 8, p: 1, salt: randomBytes(16).toString('base64') },
    iv: randomBytes(12).toString('base64'),
    ciphertext: randomBytes(48).toString('base64'),
  },
})

before(async () => {
  testDb = await openTestDatabase('embedded_keys')
  // A chain is not needed: personal_sign is previewed and relayed without one.
  t = await startEmbeddedTestApp(testDb, 'keys-project', { rpcUpstreams: { [EVM]: 'http://127.0.0.1:9' } })
  operator = await startEmbeddedTestApp(testDb, 'keys-operator', {
    rpcUpstreams: { [EVM]: 'http://127.0.0.1:9' },
  })
  await updateProject(testDb.database.db, 'keys-operator', { custody: 'operator' })
})
after(async () => {
  await t?.close()
  await operator?.close()
  await testDb?.close()
})

describe('keys: set-up and shares (user custody)', () => {
  test('default: a new person has no keys and no user; set-up makes them ready; the auth share opens the accounts with the device share', async () => {
    const signedIn = await signInByEmail(t, fresh('new'))
    assert.deepEqual(signedIn.keys, { state: 'none', userId: signedIn.keys.userId, custody: 'user' })
    assert.equal(signedIn.user, undefined)
    const me = await t.call('/embedded/v1/me', undefined, { token: signedIn.token })
    assert.deepEqual(me.body, { keys: signedIn.keys })

    const session = await setupKeysLikeTheFrame(t, signedIn)
    assert.equal(session.user.accounts.eip155.address, session.frame.addresses.eip155)
    assert.equal(session.user.accounts.solana.address, session.frame.addresses.solana)
    const state = walletKeyState.parse(
      (await t.call('/embedded/v1/keys', undefined, { token: session.token })).body,
    )
    assert.deepEqual(state, {
      state: 'ready',
      userId: signedIn.keys.userId,
      custody: 'user',
      setId: session.frame.setId,
      addresses: session.frame.addresses,
      recovery: [],
    })

    const answer = await t.call('/embedded/v1/keys/auth-share', {}, { token: session.token })
    assert.equal(answer.status, 200)
    assert.equal(answer.headers['cache-control'], 'no-store')
    const { setId, authShare } = authShareResponse.parse(answer.body)
    assert.equal(setId, session.frame.setId)
    const opened = await withSharedKeys(
      [session.frame.shares.device, shareBytes(authShare)],
      session.frame.addresses,
      () => true,
    )
    assert.equal(opened, true)
    // GET me answers the user now, with the keys.
    const meAfter = await t.call('/embedded/v1/me', undefined, { token: session.token })
    assert.deepEqual(meAfter.body, { keys: state, user: session.user })
  })

  test('error: set-up twice: 409 This wallet has its keys already', async () => {
    const session = await signInWithKeys(t, fresh('twice'))
    const second = await frameKeysOf()
    const answer = await t.call('/embedded/v1/keys/setup', setupBody(second, t.projectId), {
      token: session.token,
    })
    assert.equal(answer.status, 409)
    assert.equal(errorOf(answer.body).message, keysMessages.setUpAlready)
  })

  test('error: a proof signed by the keys of other addresses: 403', async () => {
    const signedIn = await signInByEmail(t, fresh('proof'))
    const frame = await frameKeysOf()
    const stranger = await frameKeysOf()
    const body = { ...setupBody(frame, t.projectId), proof: keySetProof(stranger, t.projectId, frame.setId) }
    const answer = await t.call('/embedded/v1/keys/setup', body, { token: signedIn.token })
    assert.equal(answer.status, 403)
    assert.equal(errorOf(answer.body).message, proofRefusedMessage)
    // A proof for another project does not count either.
    const elsewhere = { ...setupBody(frame, t.projectId), proof: keySetProof(frame, 'other-project') }
    const moved = await t.call('/embedded/v1/keys/setup', elsewhere, { token: signedIn.token })
    assert.equal(errorOf(moved.body).message, proofRefusedMessage)
    assert.equal(
      walletKeyState.parse((await t.call('/embedded/v1/keys', undefined, { token: signedIn.token })).body)
        .state,
      'none',
    )
  })

  test('error: an auth share of another set id: 400 The share does not belong to this share set', async () => {
    const signedIn = await signInByEmail(t, fresh('set'))
    const frame = await frameKeysOf()
    const other = await frameKeysOf()
    const body = { ...setupBody(frame, t.projectId), authShare: wire(other.shares.auth) }
    const answer = await t.call('/embedded/v1/keys/setup', body, { token: signedIn.token })
    assert.equal(answer.status, 400)
    assert.equal(errorOf(answer.body).message, shareSetMismatchMessage)
  })

  test('error: the recovery share sent unsealed in user custody: 400', async () => {
    const signedIn = await signInByEmail(t, fresh('unsealed'))
    const frame = await frameKeysOf()
    const body = { ...setupBody(frame, t.projectId), recoveryShare: wire(frame.shares.recovery) }
    const answer = await t.call('/embedded/v1/keys/setup', body, { token: signedIn.token })
    assert.equal(answer.status, 400)
    assert.equal(errorOf(answer.body).message, keysMessages.recoveryShareInUserCustody)
  })

  test("error: migrate when the keys are not the operator's: 409; a user without keys asking for the auth share: 409", async () => {
    const session = await signInWithKeys(t, fresh('migrate'))
    const answer = await t.call('/embedded/v1/keys/migrate', {}, { token: session.token })
    assert.equal(answer.status, 409)
    assert.equal(errorOf(answer.body).message, keysMessages.notLegacy)
    const none = await signInByEmail(t, fresh('none'))
    const share = await t.call('/embedded/v1/keys/auth-share', {}, { token: none.token })
    assert.equal(share.status, 409)
    assert.equal(errorOf(share.body).message, keysMessages.notReady)
  })

  test("behavior: another user's session gets its own set, never the other's; without a session: 401", async () => {
    const alice = await signInWithKeys(t, fresh('alice'))
    const bob = await signInWithKeys(t, fresh('bob'))
    const asked = authShareResponse.parse(
      (await t.call('/embedded/v1/keys/auth-share', {}, { token: bob.token })).body,
    )
    assert.equal(asked.setId, bob.frame.setId)
    assert.notEqual(asked.authShare, wire(alice.frame.shares.auth))
    const anonymous = await t.call('/embedded/v1/keys/auth-share', {})
    assert.equal(anonymous.status, 401)
  })
})

describe('keys: reshare and recovery (user custody)', () => {
  const reshareBody = (
    session: SessionWithKeys,
    next: Awaited<ReturnType<typeof frameKeysOf>>,
    previousSetId = session.frame.setId,
  ) => ({
    ...setupBody(next, t.projectId),
    previousSetId,
  })

  test('default: a reshare replaces the set for the same accounts; a stale or concurrent one loses: 409', async () => {
    const session = await signInWithKeys(t, fresh('reshare'))
    const next = await frameKeysOf(session.frame.secret)
    const racer = await frameKeysOf(session.frame.secret)
    const [a, b] = await Promise.all([
      t.call('/embedded/v1/keys/reshare', reshareBody(session, next), { token: session.token }),
      t.call('/embedded/v1/keys/reshare', reshareBody(session, racer), { token: session.token }),
    ])
    assert.deepEqual([a.status, b.status].sort(), [200, 409])
    const lost = a.status === 409 ? a : b
    assert.equal(errorOf(lost.body).message, keysMessages.staleSet)
    const won = walletKeyState.parse((a.status === 200 ? a : b).body.keys)
    assert.ok(won.state === 'ready' && [next.setId, racer.setId].includes(won.setId))
    const stale = await t.call(
      '/embedded/v1/keys/reshare',
      reshareBody(session, await frameKeysOf(session.frame.secret)),
      {
        token: session.token,
      },
    )
    assert.equal(stale.status, 409)
    assert.equal(errorOf(stale.body).message, keysMessages.staleSet)
  })

  test('error: a reshare that changes the addresses: 403', async () => {
    const session = await signInWithKeys(t, fresh('change'))
    const answer = await t.call('/embedded/v1/keys/reshare', reshareBody(session, await frameKeysOf()), {
      token: session.token,
    })
    assert.equal(answer.status, 403)
    assert.equal(errorOf(answer.body).message, keysMessages.addressesChanged)
  })

  test('default: no recovery: 404 with the plain words; a password recovery set: the sealed share comes back', async () => {
    const session = await signInWithKeys(t, fresh('recovery'))
    const none = await t.call('/embedded/v1/keys/recovery-share', {}, { token: session.token })
    assert.equal(none.status, 404)
    assert.equal(
      errorOf(none.body).message,
      'This wallet has no recovery method: it cannot be recovered on a new device',
    )
    const recovery = passwordRecovery()
    const stale = await t.call(
      '/embedded/v1/keys/recovery',
      { setId: '0000000000000000', recovery },
      { token: session.token },
    )
    assert.equal(stale.status, 409)
    assert.equal(errorOf(stale.body).message, keysMessages.staleSet)
    const set = await t.call(
      '/embedded/v1/keys/recovery',
      { setId: session.frame.setId, recovery },
      { token: session.token },
    )
    assert.equal(set.status, 200, JSON.stringify(set.body))
    assert.deepEqual(walletKeyState.parse(set.body), { ...session.keys, recovery: ['password'] })
    const back = recoveryShareResponse.parse(
      (await t.call('/embedded/v1/keys/recovery-share', {}, { token: session.token })).body,
    )
    assert.deepEqual(back, { method: 'password', setId: session.frame.setId, sealed: recovery.sealed })
  })

  test('attack: a passkey recovery naming another person’s passkey, or one the service never saw: 400 with the reason, nothing stored; the person’s own passkey is taken', async () => {
    const { registerNew } = passkeyCeremonies(() => t)
    const newPasskey = () => softwarePasskey({ origin: FRAME_ORIGIN, rpId: new URL(FRAME_ORIGIN).hostname })
    const victim = newPasskey()
    await registerNew(victim)
    const own = newPasskey()
    const mallory = await registerNew(own)
    const as = { token: mallory.token, key: mallory.from.key }
    const keys = walletKeyState.parse(
      (await t.call('/embedded/v1/keys', undefined, { ...as, method: 'GET' })).body,
    )
    assert.equal(keys.state, 'ready')
    const setId = keys.state === 'ready' ? keys.setId : ''
    const sealedWith = (credentialId: string) => ({
      method: 'passkey' as const,
      credentialId,
      sealed: {
        version: 1 as const,
        kdf: { name: 'hkdf-sha256-prf' as const, prfSalt: randomBytes(32).toString('base64') },
        iv: randomBytes(12).toString('base64'),
        ciphertext: randomBytes(48).toString('base64'),
      },
    })
    for (const credentialId of [victim.id, randomBytes(32).toString('base64url')]) {
      const refused = await t.call(
        '/embedded/v1/keys/recovery',
        { setId, recovery: sealedWith(credentialId) },
        as,
      )
      assert.equal(refused.status, 400, JSON.stringify(refused.body))
      assert.deepEqual(errorOf(refused.body), {
        code: 'BAD_REQUEST',
        message: "This passkey is not one of this wallet's passkeys: link it to the wallet first",
        field: 'recovery.credentialId',
      })
    }
    const none = await t.call('/embedded/v1/keys/recovery-share', {}, as)
    assert.equal(none.status, 404, 'nothing was stored')
    const taken = await t.call('/embedded/v1/keys/recovery', { setId, recovery: sealedWith(own.id) }, as)
    assert.equal(taken.status, 200, JSON.stringify(taken.body))
    assert.deepEqual(walletKeyState.parse(taken.body), { ...keys, recovery: ['passkey'] })
  })

  test('behavior: the recovery share is rate-limited per person: the 7th in an hour is refused (429)', async () => {
    const session = await signInWithKeys(t, fresh('guesser'))
    const statuses: number[] = []
    for (let attempt = 0; attempt < 7; attempt++)
      statuses.push((await t.call('/embedded/v1/keys/recovery-share', {}, { token: session.token })).status)
    assert.deepEqual(statuses, [404, 404, 404, 404, 404, 404, 429])
  })
})

describe('keys: operator custody', () => {
  test('default: the recovery share is required and kept under the KEK; it comes back whole and opens the keys with the auth share', async () => {
    const signedIn = await signInByEmail(operator, fresh('operator'))
    assert.equal(signedIn.keys.custody, 'operator')
    const frame = await frameKeysOf()
    const without = await operator.call('/embedded/v1/keys/setup', setupBody(frame, operator.projectId), {
      token: signedIn.token,
    })
    assert.equal(without.status, 400)
    assert.equal(errorOf(without.body).message, keysMessages.recoveryShareNeeded)
    const session = await setupKeysLikeTheFrame(operator, signedIn)
    assert.deepEqual(session.keys.state === 'ready' && session.keys.recovery, ['operator'])
    const recovery = recoveryShareResponse.parse(
      (await operator.call('/embedded/v1/keys/recovery-share', {}, { token: session.token })).body,
    )
    assert.ok(recovery.method === 'operator')
    const auth = authShareResponse.parse(
      (await operator.call('/embedded/v1/keys/auth-share', {}, { token: session.token })).body,
    )
    const opened = await withSharedKeys(
      [shareBytes(recovery.recoveryShare), shareBytes(auth.authShare)],
      session.frame.addresses,
      () => true,
    )
    assert.equal(opened, true)
  })
})

describe('approve: the frame signs the plan', () => {
  test('error: a signature of something else: 403; none: 400', async () => {
    const session = await signInWithKeys(t, fresh('signer'))
    const created = approvalResponse.parse(
      (
        await t.call(
          '/embedded/v1/requests',
          {
            chainId: EVM,
            method: 'personal_sign',
            params: [stringToHex('hello'), session.user.accounts.eip155.address],
          },
          { token: session.token },
        )
      ).body,
    )
    assert.deepEqual(created.signing, {
      plan: [{ kind: 'evm-message', message: stringToHex('hello') }],
      ownAccounts: [],
    })
    const missing = await t.call(
      `/embedded/v1/requests/${created.id}/approve`,
      { signatures: [] },
      { token: session.token },
    )
    assert.equal(missing.status, 400)
    assert.equal(errorOf(missing.body).message, signatureCountMessage(1, 0))
    const { signMessage } = await import('viem/accounts')
    const other = await signMessage({
      message: 'something else',
      privateKey: `0x${Buffer.from(session.frame.keys.secp256k1).toString('hex')}`,
    })
    const created2 = approvalResponse.parse(
      (
        await t.call(
          '/embedded/v1/requests',
          {
            chainId: EVM,
            method: 'personal_sign',
            params: [stringToHex('hello'), session.user.accounts.eip155.address],
          },
          { token: session.token },
        )
      ).body,
    )
    const foreign = await t.call(
      `/embedded/v1/requests/${created2.id}/approve`,
      { signatures: [other] },
      { token: session.token },
    )
    assert.equal(foreign.status, 403)
    assert.equal(errorOf(foreign.body).message, foreignSignatureMessage(0))
  })
})
