// Passkey sign-in and linking on the service, and every way an attacker might try to get around them.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createProject } from '../../../server/projects/store.ts'
import {
  embeddedErrorBody,
  passkeyListResponse,
  passkeyStartResponse,
  sessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import {
  clock,
  type EmbeddedTestApp,
  FRAME_ORIGIN,
  newBinding,
  SITE,
  signInByEmail,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { signInWithKeys } from './embedded-keys-helpers.ts'
import { passkeyCeremonies } from './embedded-passkey-ceremonies.ts'
import { softwarePasskey } from './embedded-passkey-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
let t: EmbeddedTestApp

before(async () => {
  testDb = await openTestDatabase('embedded_passkey')
  t = await startEmbeddedTestApp(testDb, 'passkey-project')
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

const RP_ID = new URL(FRAME_ORIGIN).hostname
const newPasskey = () => softwarePasskey({ origin: FRAME_ORIGIN, rpId: RP_ID })
const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error
let emails = 0
const freshEmail = () => `passkey${++emails}.${Date.now()}@example.com`

const { browser, start, finish, registerNew, signIn } = passkeyCeremonies(() => t)

describe('passkey sign-in', () => {
  test('a new person: a user with a wallet; the same passkey in another browser opens the same wallet', async () => {
    const passkey = newPasskey()
    const created = await registerNew(passkey)
    assert.equal(created.newUser, true)
    assert.equal(created.user.email, null)
    assert.match(created.user.accounts.eip155.address, /^0x[0-9a-fA-F]{40}$/)

    const other = browser()
    const again = await signIn(passkey, other)
    assert.equal(again.status, 200, JSON.stringify(again.body))
    const session = sessionResponse.parse(again.body)
    assert.equal(session.user?.accounts.eip155.address, created.user.accounts.eip155.address)
    assert.equal(session.user?.accounts.solana.address, created.user.accounts.solana.address)

    const listed = await t.call('/embedded/v1/passkeys', undefined, { token: session.token, key: other.key })
    assert.equal(listed.status, 200)
    const { passkeys } = passkeyListResponse.parse(listed.body)
    assert.deepEqual(
      passkeys.map((p) => p.id),
      [passkey.id],
    )
    assert.ok(passkeys[0]?.lastUsedAt, 'the sign-in is recorded')
  })

  test('a passkey of no user here is refused with its message', async () => {
    const answer = await signIn(newPasskey())
    assert.equal(answer.status, 404)
    assert.deepEqual(errorOf(answer.body), {
      code: 'PASSKEY_UNKNOWN',
      message: 'This passkey is not linked to any account here',
    })
  })

  test("a passkey of another project's user opens nothing here", async () => {
    const passkey = newPasskey()
    await registerNew(passkey)
    await createProject(testDb.database.db, { id: 'passkey-other', name: 'Other', origins: [SITE] })
    const from = browser()
    const binding = newBinding()
    const started = await t.call(
      '/embedded/v1/passkey/login/start',
      { deviceId: from.deviceId, origin: SITE, bindingHash: binding.hash },
      { key: from.key, project: 'passkey-other' },
    )
    const { ceremonyId, options } = passkeyStartResponse.parse(started.body)
    const answer = await t.call(
      '/embedded/v1/passkey/login/finish',
      {
        ceremonyId,
        deviceId: from.deviceId,
        binding: binding.secret,
        credential: passkey.assert(options.challenge),
      },
      { key: from.key, project: 'passkey-other' },
    )
    assert.equal(answer.status, 404)
    assert.equal(errorOf(answer.body).code, 'PASSKEY_UNKNOWN')
  })

  test('a replayed challenge is refused: each ceremony finishes once', async () => {
    const passkey = newPasskey()
    const from = browser()
    const ceremony = await start('register', from)
    const credential = passkey.register(ceremony.challenge)
    assert.equal((await finish('register', from, ceremony, credential)).status, 200)
    const replay = await finish('register', from, ceremony, credential)
    assert.equal(replay.status, 403)
    assert.equal(errorOf(replay.body).message, 'Action not allowed')

    const login = await start('login', from)
    const assertion = passkey.assert(login.challenge)
    assert.equal((await finish('login', from, login, assertion)).status, 200)
    const again = await finish('login', from, login, assertion)
    assert.equal(again.status, 403)
    assert.equal(errorOf(again.body).message, 'Action not allowed')
  })

  test('a ceremony started by another browser cannot be finished: its id is not enough', async () => {
    const passkey = newPasskey()
    await registerNew(passkey)
    const victim = browser()
    const ceremony = await start('login', victim)
    const attacker = browser()
    const assertion = passkey.assert(ceremony.challenge)
    for (const attempt of [
      // The attacker's own binding, device and key.
      finish('login', attacker, ceremony, assertion, { binding: newBinding().secret }),
      // The victim's device id, but not its binding secret.
      finish('login', attacker, ceremony, assertion, {
        binding: newBinding().secret,
        deviceId: victim.deviceId,
      }),
      // Everything right, from another site.
      finish('login', victim, ceremony, assertion, { site: 'https://evil.example' }),
    ]) {
      const answer = await attempt
      assert.equal(answer.status, 403, JSON.stringify(answer.body))
    }
    // None of these spent it: the browser that started it still finishes.
    const done = await finish('login', victim, ceremony, assertion)
    assert.equal(done.status, 200, JSON.stringify(done.body))
  })

  test('an answer made for another origin or another RP ID is refused', async () => {
    const passkey = newPasskey()
    await registerNew(passkey)
    const otherOrigin = await signIn(passkey, browser(), { origin: 'https://evil.example' })
    assert.equal(otherOrigin.status, 400)
    assert.deepEqual(errorOf(otherOrigin.body), {
      code: 'PASSKEY_FAILED',
      message: 'This passkey answer was made for another site',
    })
    const otherRp = await signIn(passkey, browser(), { rpId: 'evil.example' })
    assert.equal(otherRp.status, 400)
    assert.deepEqual(errorOf(otherRp.body), {
      code: 'PASSKEY_FAILED',
      message: 'This passkey belongs to another site',
    })

    const from = browser()
    const ceremony = await start('register', from)
    const foreign = await finish(
      'register',
      from,
      ceremony,
      newPasskey().register(ceremony.challenge, { origin: 'https://evil.example' }),
    )
    assert.equal(foreign.status, 400)
    assert.equal(errorOf(foreign.body).message, 'This passkey answer was made for another site')
  })

  test('a sign-in from the frame inside the site (crossOrigin, topOrigin) verifies; inside another site it is refused', async () => {
    const passkey = newPasskey()
    await registerNew(passkey)
    // What Chromium sends for get() in the wallet frame embedded in the site's page.
    const framed = await signIn(passkey, browser(), { topOrigin: SITE })
    assert.equal(framed.status, 200, JSON.stringify(framed.body))
    const elsewhere = await signIn(passkey, browser(), { topOrigin: 'https://evil.example' })
    assert.equal(elsewhere.status, 400)
    assert.deepEqual(errorOf(elsewhere.body), {
      code: 'PASSKEY_FAILED',
      message: 'This passkey answer was made for another site',
    })
  })

  test('an answer without user verification is refused', async () => {
    const passkey = newPasskey()
    await registerNew(passkey)
    const answer = await signIn(passkey, browser(), { userVerified: false })
    assert.equal(answer.status, 400)
    assert.deepEqual(errorOf(answer.body), {
      code: 'PASSKEY_FAILED',
      message: 'This passkey did not verify you (PIN, fingerprint or face)',
    })
  })

  test('a counter that goes backwards is refused (a cloned passkey)', async () => {
    const passkey = newPasskey()
    await registerNew(passkey)
    assert.equal((await signIn(passkey, browser(), { counter: 7 })).status, 200)
    for (const counter of [7, 3]) {
      const clone = await signIn(passkey, browser(), { counter })
      assert.equal(clone.status, 400)
      assert.deepEqual(errorOf(clone.body), {
        code: 'PASSKEY_FAILED',
        message: 'This passkey answered with an old counter: it may be a copy',
      })
    }
    assert.equal((await signIn(passkey, browser(), { counter: 8 })).status, 200)
  })

  test('a ceremony expires after 5 minutes', async () => {
    const passkey = newPasskey()
    const from = browser()
    const ceremony = await start('register', from)
    clock.now += 5 * 60_000 + 1
    try {
      const late = await finish('register', from, ceremony, passkey.register(ceremony.challenge))
      assert.equal(late.status, 410)
      assert.deepEqual(errorOf(late.body), {
        code: 'PASSKEY_EXPIRED',
        message: 'This passkey request expired: try again',
      })
    } finally {
      clock.now -= 5 * 60_000 + 1
    }
  })
})

describe('linking a passkey to a signed-in person', () => {
  test('an e-mail user adds a passkey in Account; it then signs in to the same wallet', async () => {
    const from = browser()
    const email = freshEmail()
    const session = await signInWithKeys(t, email, from.deviceId)
    const passkey = newPasskey()
    // The session's requests are signed by the app's browser key (signInByEmail's).
    const me = { deviceId: from.deviceId, key: t.browserKey }
    const ceremony = await start('link', me, session.token)
    const linked = await finish('link', me, ceremony, passkey.register(ceremony.challenge), {
      token: session.token,
    })
    assert.equal(linked.status, 200, JSON.stringify(linked.body))
    assert.equal(passkeyListResponse.parse(linked.body).passkeys.length, 1)

    const back = await signIn(passkey)
    assert.equal(back.status, 200, JSON.stringify(back.body))
    const user = sessionResponse.parse(back.body).user
    assert.equal(user?.email, email)
    assert.equal(user?.accounts.eip155.address, session.user.accounts.eip155.address)
  })

  test('linking without a session is refused, at the start and at the finish', async () => {
    const from = browser()
    const binding = newBinding()
    const started = await t.call(
      '/embedded/v1/passkey/link/start',
      { deviceId: from.deviceId, origin: SITE, bindingHash: binding.hash },
      { key: from.key },
    )
    assert.equal(started.status, 401)
    assert.equal(errorOf(started.body).message, 'Sign in to the wallet first')
    const finished = await finish(
      'link',
      from,
      { ceremonyId: 'a'.repeat(22), binding: binding.secret },
      newPasskey().register('x'),
    )
    assert.equal(finished.status, 401)
    assert.equal(errorOf(finished.body).message, 'Sign in to the wallet first')
  })

  test('a passkey already linked to another user is refused with a clear message', async () => {
    const passkey = newPasskey()
    await registerNew(passkey)
    const from = browser()
    const session = await signInByEmail(t, freshEmail(), from.deviceId)
    const me = { deviceId: from.deviceId, key: t.browserKey }
    const ceremony = await start('link', me, session.token)
    const answer = await finish('link', me, ceremony, passkey.register(ceremony.challenge), {
      token: session.token,
    })
    assert.equal(answer.status, 409)
    assert.deepEqual(errorOf(answer.body), {
      code: 'PASSKEY_TAKEN',
      message: 'This passkey is already linked to another account',
    })
  })

  test("another person's session cannot finish a link someone else started", async () => {
    const first = browser()
    const alice = await signInByEmail(t, freshEmail(), first.deviceId)
    const me = { deviceId: first.deviceId, key: t.browserKey }
    const ceremony = await start('link', me, alice.token)
    const mallory = await signInByEmail(t, freshEmail(), first.deviceId)
    const answer = await finish('link', me, ceremony, newPasskey().register(ceremony.challenge), {
      token: mallory.token,
    })
    assert.equal(answer.status, 403)
    assert.equal(errorOf(answer.body).message, 'Action not allowed')
  })

  test('Remove: refused for the last way in, allowed when another is left', async () => {
    const passkey = newPasskey()
    const only = await registerNew(passkey)
    const last = await t.call(
      '/embedded/v1/passkeys/remove',
      { id: passkey.id },
      { token: only.token, key: only.from.key },
    )
    assert.equal(last.status, 409)
    assert.deepEqual(errorOf(last.body), {
      code: 'PASSKEY_LAST_WAY',
      message: 'This passkey is your only way in: add an e-mail or another passkey first',
    })

    const from = browser()
    const session = await signInByEmail(t, freshEmail(), from.deviceId)
    const me = { deviceId: from.deviceId, key: t.browserKey }
    const second = newPasskey()
    const ceremony = await start('link', me, session.token)
    await finish('link', me, ceremony, second.register(ceremony.challenge), { token: session.token })
    const removed = await t.call('/embedded/v1/passkeys/remove', { id: second.id }, { token: session.token })
    assert.equal(removed.status, 200, JSON.stringify(removed.body))
    assert.deepEqual(passkeyListResponse.parse(removed.body).passkeys, [])
    const gone = await signIn(second)
    assert.equal(errorOf(gone.body).code, 'PASSKEY_UNKNOWN')
  })
})
