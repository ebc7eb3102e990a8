import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createFrameApi } from '../../../src/frame/api.ts'
import { frameStorage } from '../../../src/frame/storage.ts'
import { createFrameWallet, type FrameAnswer } from '../../../src/frame/wallet.ts'
import {
  embeddedErrorBody,
  embeddedLimits,
  type SessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import {
  clock,
  codeIn,
  type EmbeddedTestApp,
  newDeviceId,
  newSessionKey,
  proofHeaders,
  SITE,
  signInByEmail,
  startEmbeddedTestApp,
  type TestSessionKey,
} from './embedded-helpers.ts'
import { signInWithKeys } from './embedded-keys-helpers.ts'
import { memoryDeviceShares } from './frame-device-shares.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

/**
 * Browser-bound sessions, written as the attacks: a session is bound to the browser that earned it (its
 * non-extractable key signs every request), ends after a week unused, ends everywhere when the e-mail
 * changes or the person asks, and a sign-out that did not reach the service is an error.
 */

let testDb: TestDatabase
let t: EmbeddedTestApp
let counter = 0
const freshEmail = () => `session${++counter}.${Date.now()}@example.com`
const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error
const days = (n: number) => n * 24 * 60 * 60_000

before(async () => {
  testDb = await openTestDatabase('embedded_attacks_sessions')
  t = await startEmbeddedTestApp(testDb, 'sessions-project')
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

const me = (token: string, options: { key?: TestSessionKey | null; headers?: Record<string, string> } = {}) =>
  t.call('/embedded/v1/me', undefined, { token, ...options })

/** Another browser of the same person, with its own key (as a second device signed in). */
async function otherBrowser(email: string): Promise<{ session: SessionResponse; key: TestSessionKey }> {
  const user = await t.wallet.login.users.userRow(t.projectId, email)
  assert.ok(user)
  const key = newSessionKey()
  const session = await t.wallet.login.sessions.openSession(
    user,
    t.projectId,
    newDeviceId(),
    SITE,
    key.publicKey,
  )
  return { session, key }
}

describe('a stolen session token', () => {
  test('replayed without the browser key (none, or the thief’s own): refused like no session', async () => {
    const session = await signInWithKeys(t, freshEmail())
    assert.equal((await me(session.token)).status, 200, 'the browser that earned it')
    const bare = await me(session.token, { key: null })
    assert.equal(bare.status, 401)
    assert.equal(errorOf(bare.body).message, 'Sign in to the wallet first')
    const thief = newSessionKey()
    assert.equal((await me(session.token, { key: thief })).status, 401, 'signed by another key')
    // Nor can it spend anything: a signing request is refused before it exists.
    const request = await t.call(
      '/embedded/v1/requests',
      {
        chainId: 'eip155:1',
        method: 'personal_sign',
        params: ['0x68656c6c6f', session.user.accounts.eip155.address],
      },
      { token: session.token, key: thief },
    )
    assert.equal(request.status, 401)
  })

  test('a captured signed request replayed as it was, or its signature on another request, or dated 10 minutes off: refused', async () => {
    const session = await signInWithKeys(t, freshEmail())
    const url = `/embedded/v1/me?projectId=${t.projectId}`
    const captured = proofHeaders(t.browserKey, { method: 'GET', url, body: '' })
    assert.equal((await me(session.token, { headers: captured })).status, 200, 'first use')
    assert.equal((await me(session.token, { headers: captured })).status, 401, 'the same nonce again')
    // A signature made for /me moved onto a request to sign: the path and body are in what is signed.
    const forMe = proofHeaders(t.browserKey, { method: 'GET', url, body: '' })
    const moved = await t.call(
      '/embedded/v1/requests',
      {
        chainId: 'eip155:1',
        method: 'personal_sign',
        params: ['0x00', session.user.accounts.eip155.address],
      },
      { token: session.token, headers: forMe },
    )
    assert.equal(moved.status, 401)
    for (const offset of [-10 * 60_000, 10 * 60_000]) {
      const skewed = proofHeaders(t.browserKey, { method: 'GET', url, body: '', time: clock.now + offset })
      assert.equal((await me(session.token, { headers: skewed })).status, 401, `dated ${offset / 60_000} min`)
    }
  })

  test('a session is never opened without a browser key', async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    const started = await t.call('/embedded/v1/email/connect', { email, deviceId, origin: SITE })
    const verified = await t.call(
      '/embedded/v1/email/verify',
      { loginId: started.body.loginId, otp: codeIn(t.mailTo(email)[0]), deviceId },
      { key: null },
    )
    assert.equal(verified.status, 400)
    assert.ok(!('token' in verified.body))
  })
})

describe('session lifetimes and revocation', () => {
  test(`a session unused for ${embeddedLimits.sessionIdleMs / days(1)} days has ended; one in use lives on (up to 30 days)`, async () => {
    const idle = await signInByEmail(t, freshEmail())
    const used = await signInByEmail(t, freshEmail())
    for (let step = 0; step < 3; step++) {
      clock.now += days(6)
      assert.equal((await me(used.token)).status, 200, `used after ${6 * (step + 1)} days`)
    }
    assert.equal((await me(idle.token)).status, 401, 'idle for 18 days')
    clock.now += days(13)
    assert.equal((await me(used.token)).status, 401, 'past 30 days however used')
  })

  test('an e-mail change ends every other session of the person (a thief’s too); the browser that changed it stays', async () => {
    const email = freshEmail()
    const session = await signInByEmail(t, email)
    const thief = await otherBrowser(email)
    assert.equal((await me(thief.session.token, { key: thief.key })).status, 200)
    const newEmail = freshEmail()
    const started = await t.call('/embedded/v1/email/update', { email: newEmail }, { token: session.token })
    const updateId = started.body.updateId as string
    await t.call(
      '/embedded/v1/email/update/primary',
      { updateId, otp: codeIn(t.mailTo(email)[0]) },
      { token: session.token },
    )
    const done = await t.call(
      '/embedded/v1/email/update/secondary',
      { updateId, otp: codeIn(t.mailTo(newEmail)[0]) },
      { token: session.token },
    )
    assert.deepEqual(done.body, { email: newEmail })
    assert.equal((await me(thief.session.token, { key: thief.key })).status, 401, 'the other session ended')
    assert.equal((await me(session.token)).status, 200, 'the browser that proved both addresses')
  })

  test('sign out everywhere ends every session of the person, in every browser, this one too', async () => {
    const email = freshEmail()
    const session = await signInByEmail(t, email)
    const other = await otherBrowser(email)
    const stranger = await signInByEmail(t, freshEmail())
    const out = await t.call('/embedded/v1/sign-out-everywhere', {}, { token: session.token })
    assert.equal(out.status, 200, JSON.stringify(out.body))
    assert.deepEqual(out.body, { revoked: 2 })
    assert.equal((await me(session.token)).status, 401)
    assert.equal((await me(other.session.token, { key: other.key })).status, 401)
    assert.equal((await me(stranger.token)).status, 200, 'another person is not touched')
    // A stolen token cannot do it: it needs the browser's signature like every session request.
    const theirs = await t.call(
      '/embedded/v1/sign-out-everywhere',
      {},
      { token: stranger.token, key: newSessionKey() },
    )
    assert.equal(theirs.status, 401)
    assert.equal((await me(stranger.token)).status, 200)
  })
})

describe('the frame’s SIGN_OUT', () => {
  test('a revoke the service did not confirm is an error answer, not a quiet success; SIGN_OUT everywhere reaches every browser', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    let down = false
    const storage = frameStorage(undefined, t.projectId)
    const frame = createFrameWallet({
      api: createFrameApi({
        projectId: t.projectId,
        site: () => SITE,
        sessionKey: storage.sessionKey,
        fetch: (url, init) =>
          down ? Promise.reject(new TypeError('fetch failed')) : fetch(`${base}${String(url)}`, init),
      }),
      storage,
      deviceShares: memoryDeviceShares(),
      approvals: { show: async () => undefined, cancel() {} },
      look: { theme() {}, locale() {} },
      chainId: 'eip155:1',
      site: SITE,
    })
    let id = 0
    const ask = (type: 'CONNECT_EMAIL' | 'CONNECT_OTP' | 'SIGN_OUT' | 'IS_CONNECTED', payload: object) =>
      frame.handle({ id: String(++id), type, payload } as never) as Promise<FrameAnswer>
    const signIn = async (email: string) => {
      assert.equal((await ask('CONNECT_EMAIL', { email })).type, 'CONNECT_EMAIL_SUCCESS')
      const answer = await ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
      assert.equal(answer.type, 'CONNECT_OTP_SUCCESS', JSON.stringify(answer))
    }

    const email = freshEmail()
    await signIn(email)
    const token = storage.token()
    assert.ok(token)
    down = true
    const failed = await ask('SIGN_OUT', {})
    assert.equal(failed.type, 'SIGN_OUT_ERROR', 'the page hears it (Failed to disconnect)')
    assert.equal(storage.token(), undefined, 'forgotten in this browser all the same')
    down = false

    // Signed in again (past the e-mail cooldown), then out everywhere: the other browser's ends too.
    clock.now += 60_000
    await signIn(email)
    const other = await otherBrowser(email)
    assert.equal((await ask('SIGN_OUT', { everywhere: true })).type, 'SIGN_OUT_SUCCESS')
    assert.equal((await me(other.session.token, { key: other.key })).status, 401)
    assert.deepEqual((await ask('IS_CONNECTED', {})) as unknown, {
      type: 'IS_CONNECTED_SUCCESS',
      payload: { isConnected: false },
    })
  })
})
