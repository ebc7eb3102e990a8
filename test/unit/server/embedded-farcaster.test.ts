// The service signs in with Farcaster through the relay.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { and, eq } from 'drizzle-orm'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { walletIdentities, walletSessions } from '../../../server/db/schema.ts'
import {
  approveChannel,
  channelRequest,
  declineChannel,
  type FarcasterApproval,
} from '../../../server/dev/farcaster/app.ts'
import { EmbeddedError } from '../../../server/embedded/errors.ts'
import { createFarcasterService } from '../../../server/embedded/farcasterLogin.ts'
import { createProject, getProject, updateProject } from '../../../server/projects/store.ts'
import { farcasterStartResponse, sessionResponse } from '../../../src/protocol/embedded/index.ts'
import {
  chain,
  clock,
  custody,
  DOMAIN,
  FID,
  RELAY_KEY,
  registries,
  relay,
  startFarcasterWallet,
  stranger,
  t,
  testDb,
} from './embedded-farcaster-helpers.ts'
import { newBinding, newDeviceId, newSessionKey, SITE, clock as serviceClock } from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'

startFarcasterWallet()

describe('the service signs in with Farcaster through the relay', () => {
  const account = {
    custody,
    fid: Number(FID),
    username: 'alice',
    pfpUrl: 'https://example.com/alice.png',
  }
  const approval = (overrides: Partial<FarcasterApproval['account']> = {}) => ({
    relayUrl: relay.url,
    relayKey: RELAY_KEY,
    rpcUrl: chain.url,
    account: { ...account, ...overrides },
  })
  /** Bindings of the sign-ins started here, by id: the frame that started one keeps its secret. */
  const bindings = new Map<string, string>()
  async function start(deviceId = newDeviceId()) {
    const binding = newBinding()
    const { status, body } = await t.call('/embedded/v1/farcaster/start', {
      deviceId,
      origin: SITE,
      bindingHash: binding.hash,
    })
    assert.equal(status, 200, JSON.stringify(body))
    const answer = farcasterStartResponse.parse(body)
    bindings.set(answer.loginId, binding.secret)
    const request = channelRequest.parse(Object.fromEntries(new URL(answer.url).searchParams))
    assert.equal(request.domain, DOMAIN, 'the channel names our domain')
    return { ...answer, request, deviceId, binding: binding.secret, bindingHash: binding.hash }
  }
  /** The frame's finish: with the binding of the sign-in it started (a made-up one for unknown ids). */
  const finish = (loginId: string, deviceId: string, extra: Record<string, unknown> = {}) =>
    t.call('/embedded/v1/farcaster/finish', {
      loginId,
      deviceId,
      binding: bindings.get(loginId) ?? newBinding().secret,
      ...extra,
    })
  const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string }

  test('pending until the app approves; then a session for the fid, with its username and picture, once', async () => {
    const login = await start()
    const waiting = await finish(login.loginId, login.deviceId)
    assert.equal(waiting.status, 409)
    assert.equal(errorOf(waiting.body).code, 'FARCASTER_PENDING')

    await approveChannel(login.request, approval())
    const done = await finish(login.loginId, login.deviceId)
    assert.equal(done.status, 200, JSON.stringify(done.body))
    const session = await ensureKeys(t, sessionResponse.parse(done.body))
    assert.equal(session.user.userName, 'alice')
    assert.equal(session.user.userImage, 'https://example.com/alice.png')
    assert.equal(session.user.email, null)
    assert.match(session.user.accounts.eip155.address, /^0x[0-9a-fA-F]{40}$/)
    assert.ok(session.user.accounts.solana.address)

    const replay = await finish(login.loginId, login.deviceId)
    assert.equal(replay.status, 403, 'a completed channel is used once')

    const again = await start()
    await approveChannel(again.request, approval({ username: 'alice2' }))
    const second = sessionResponse.parse((await finish(again.loginId, again.deviceId)).body)
    assert.equal(
      second.user?.accounts.eip155.address,
      session.user.accounts.eip155.address,
      'one wallet per fid',
    )
    assert.equal(second.user?.userName, 'alice2', 'the newest username is kept')
  })

  test('a declined request says so and ends the sign-in', async () => {
    const login = await start()
    await declineChannel(login.request.channelToken, { relayUrl: relay.url, relayKey: RELAY_KEY })
    const declined = await finish(login.loginId, login.deviceId)
    assert.equal(declined.status, 400)
    assert.deepEqual(errorOf(declined.body), {
      code: 'FARCASTER_DECLINED',
      message: 'The request was declined in the Farcaster app',
    })
    assert.equal((await finish(login.loginId, login.deviceId)).status, 403)
  })

  test('an approval with another nonce, for another domain or by another key has its own code', async () => {
    const cases = [
      [{ nonce: 'theirNonce12345678' }, {}, 'FARCASTER_WRONG_NONCE'],
      [{ domain: 'evil.example' }, {}, 'FARCASTER_WRONG_DOMAIN'],
      [{}, { custody: stranger }, 'FARCASTER_WRONG_SIGNER'],
    ] as const
    for (const [request, signer, code] of cases) {
      const login = await start()
      await approveChannel({ ...login.request, ...request }, approval(signer))
      const refused = await finish(login.loginId, login.deviceId)
      assert.equal(refused.status, 400, code)
      assert.equal(errorOf(refused.body).code, code)
      assert.equal((await finish(login.loginId, login.deviceId)).status, 403, `${code}: not retried`)
    }
  })

  test('as an attacker: the ids of an approved sign-in (login id, device id, site) are not enough without the starting frame’s binding secret', async () => {
    const victim = await start()
    await approveChannel(victim.request, approval())
    // Everything but the binding secret: refused, whichever binding is guessed, and with none at all.
    const guessed = await t.call('/embedded/v1/farcaster/finish', {
      loginId: victim.loginId,
      deviceId: victim.deviceId,
      binding: newBinding().secret,
    })
    assert.equal(guessed.status, 403, JSON.stringify(guessed.body))
    assert.equal(errorOf(guessed.body).message, 'Action not allowed')
    const without = await t.call('/embedded/v1/farcaster/finish', {
      loginId: victim.loginId,
      deviceId: victim.deviceId,
    })
    assert.equal(without.status, 400)
    assert.ok(!('token' in without.body) && !('token' in guessed.body), 'no session given')
    // Still the starting frame's to take.
    assert.equal((await finish(victim.loginId, victim.deviceId)).status, 200)
  })

  test('attack: whoever learnt a channel (its link’s channel token and nonce, the sign-in’s and the browser’s ids, the site, the binding hash) cannot poll, finish or spend it; no wallet is made for the fid until the starting frame finishes', async () => {
    // A Farcaster account with no wallet here yet: nothing may be made for it but by the starting frame.
    const person = privateKeyToAccount(generatePrivateKey())
    const personFid = 5151
    await registries.register(person.address, BigInt(personFid))
    const victim = await start()
    const { channelToken, nonce } = victim.request
    // Every binding the attacker can make of what it knows, sent from its own browser (its own key).
    const guesses = [newBinding().secret, victim.bindingHash, channelToken, nonce, '']
    const attackerKey = newSessionKey()
    const attack = (binding: string, extra: Record<string, unknown> = {}) =>
      t.call(
        '/embedded/v1/farcaster/finish',
        { loginId: victim.loginId, deviceId: victim.deviceId, binding, ...extra },
        { key: attackerKey },
      )
    /** Refused as a whole: no session, and not a word about the channel (pending, expired, approved). */
    const refusedOutright = (answer: Awaited<ReturnType<typeof attack>>, binding: string) => {
      const well = /^[A-Za-z0-9_-]{43}$/.test(binding)
      assert.equal(answer.status, well ? 403 : 400, `${binding}: ${JSON.stringify(answer.body)}`)
      if (well) assert.equal(errorOf(answer.body).message, 'Action not allowed')
      assert.ok(!('token' in answer.body), 'no session')
      assert.doesNotMatch(errorOf(answer.body).code, /^FARCASTER_/, 'nothing said of the channel')
    }

    // Polling the channel's state through the service: it answers the attacker nothing.
    for (const binding of guesses) refusedOutright(await attack(binding), binding)

    // The victim approves in their Farcaster app.
    await approveChannel(
      victim.request,
      approval({ custody: person, fid: personFid, username: 'victim', pfpUrl: 'https://example.com/v.png' }),
    )
    // The relay answers whoever holds the link (Sign In With Farcaster works so): the signed approval.
    const read = await fetch(`${relay.url}/v1/channel/status`, {
      headers: { authorization: `Bearer ${channelToken}` },
    })
    assert.equal(read.status, 200)
    const { message, signature } = (await read.json()) as { message: string; signature: string }
    const stolen = { channelToken, nonce, message, signature, fid: personFid }
    for (const binding of guesses) {
      refusedOutright(await attack(binding), binding)
      refusedOutright(await attack(binding, stolen), binding)
    }
    // Nor does the approval go with the attacker's own channel: the service reads only its own.
    const own = await start()
    const transplanted = await finish(own.loginId, own.deviceId, stolen)
    assert.equal(errorOf(transplanted.body).code, 'FARCASTER_PENDING', JSON.stringify(transplanted.body))

    const db = testDb.database.db
    const identityOfFid = () =>
      db
        .select()
        .from(walletIdentities)
        .where(
          and(eq(walletIdentities.provider, 'farcaster'), eq(walletIdentities.subject, String(personFid))),
        )
    assert.deepEqual(await identityOfFid(), [], 'no user and no wallet keys made for the fid')

    // Not spent: the starting frame still takes it, as a new user.
    const done = await finish(victim.loginId, victim.deviceId)
    assert.equal(done.status, 200, JSON.stringify(done.body))
    const session = sessionResponse.parse(done.body)
    assert.equal(session.newUser, true)
    const [identity] = await identityOfFid()
    assert.ok(identity)
    const sessions = await db.select().from(walletSessions).where(eq(walletSessions.userId, identity.userId))
    assert.equal(sessions.length, 1)
    assert.equal(sessions[0]?.deviceId, victim.deviceId)
    assert.notEqual(sessions[0]?.publicKey, attackerKey.publicKey)

    // Replayed afterwards with all of it: still nothing, and still one session.
    for (const binding of guesses) refusedOutright(await attack(binding, stolen), binding)
    assert.equal(
      (await db.select().from(walletSessions).where(eq(walletSessions.userId, identity.userId))).length,
      1,
    )
  })

  test('attack, still open: the attacker starts a channel in its own browser and the victim approves that code in their Farcaster app; the attacker’s finish should get no session and make no wallet for the fid', {
    todo: 'Sign In With Farcaster brings nothing back to the approving person’s browser: the starter’s finish is the genuine one (docs/EMBEDDED-WALLET.md, "Farcaster codes started by someone else")',
  }, async () => {
    const person = privateKeyToAccount(generatePrivateKey())
    const personFid = 5252
    await registries.register(person.address, BigInt(personFid))
    // The attacker's own frame starts (so it holds the binding); the victim approves its code.
    const attacker = await start()
    await approveChannel(attacker.request, approval({ custody: person, fid: personFid, username: 'victim' }))
    const taken = await finish(attacker.loginId, attacker.deviceId)
    assert.equal(taken.status, 403, `the attacker got ${JSON.stringify(Object.keys(taken.body))}`)
    const made = await testDb.database.db
      .select()
      .from(walletIdentities)
      .where(and(eq(walletIdentities.provider, 'farcaster'), eq(walletIdentities.subject, String(personFid))))
    assert.deepEqual(made, [], 'no wallet made for the fid')
  })

  test('as an attacker: a forged id, someone else’s channel, a smuggled channel token, oversized input', async () => {
    const victim = await start()
    const attacker = await start()
    await approveChannel(attacker.request, approval())

    assert.equal((await finish('forgedLoginId1234567890', victim.deviceId)).status, 403)
    assert.equal((await finish(victim.loginId, attacker.deviceId)).status, 403, 'another browser')
    const otherSite = await t.call(
      '/embedded/v1/farcaster/finish',
      { loginId: victim.loginId, deviceId: victim.deviceId, binding: victim.binding },
      { site: 'https://evil.example' },
    )
    assert.equal(otherSite.status, 403, 'another site')
    // The relay's token is the service's own: one sent along is not read.
    const smuggled = await finish(victim.loginId, victim.deviceId, {
      channelToken: attacker.request.channelToken,
    })
    assert.equal(errorOf(smuggled.body).code, 'FARCASTER_PENDING')
    const otherOrigin = await t.call(
      '/embedded/v1/farcaster/start',
      { deviceId: newDeviceId(), origin: SITE, bindingHash: newBinding().hash },
      { origin: 'https://evil.example' },
    )
    assert.equal(otherOrigin.status, 403, 'only the frame calls these routes')
    const mismatched = await t.call('/embedded/v1/farcaster/start', {
      deviceId: newDeviceId(),
      origin: 'https://other.example',
      bindingHash: newBinding().hash,
    })
    assert.equal(mismatched.status, 403, 'the origin must be the site the frame is on')

    assert.equal((await finish('x'.repeat(65), victim.deviceId)).status, 400)
    assert.equal((await finish(victim.loginId, 'bad id with spaces!')).status, 400)
    const huge = await finish(victim.loginId, victim.deviceId, { padding: 'x'.repeat(300_000) })
    assert.equal(huge.status, 413)
    assert.equal(errorOf((await finish(victim.loginId, victim.deviceId)).body).code, 'FARCASTER_PENDING')
  })

  test('a relay that does not answer, or a project without farcaster: clear errors, no URL in them', async () => {
    const project = await getProject(testDb.database.db, t.projectId)
    assert.ok(project)
    const unreachable = createFarcasterService({
      db: testDb.database.db,
      login: t.wallet.login,
      social: t.wallet.social,
      config: { relayUrl: 'http://127.0.0.1:9', rpcUrl: chain.url },
      frameUrl: `http://${DOMAIN}`,
    })
    const down = await unreachable
      .start(project, { deviceId: newDeviceId(), origin: SITE, bindingHash: newBinding().hash })
      .catch((e) => e)
    assert.ok(down instanceof EmbeddedError)
    assert.equal(down.statusCode, 502)
    assert.equal(down.code, 'FARCASTER_FAILED')
    assert.equal(down.message, 'Could not reach Farcaster: try again')
    const off = await unreachable
      .start(
        { ...project, features: { ...project.features, farcaster: false } },
        { deviceId: newDeviceId(), origin: SITE, bindingHash: newBinding().hash },
      )
      .catch((e) => e)
    assert.equal(off.statusCode, 403)
    assert.equal(off.message, 'Farcaster sign-in is off for this project')
  })

  test('a site with only Farcaster on has the embedded wallet (its frame and its routes)', async () => {
    const db = testDb.database.db
    await createProject(db, { id: 'farcaster-only', name: 'Farcaster only', origins: [SITE] })
    await updateProject(db, 'farcaster-only', { features: { email: false, socials: [], farcaster: true } })
    const started = await t.call(
      '/embedded/v1/farcaster/start',
      { deviceId: newDeviceId(), origin: SITE, bindingHash: newBinding().hash },
      { project: 'farcaster-only' },
    )
    assert.equal(started.status, 200, JSON.stringify(started.body))
    const frame = await t.app.inject({ method: 'GET', url: '/?projectId=farcaster-only' })
    assert.equal(frame.statusCode, 200)
  })

  test('an expired channel asks for a new code', async () => {
    const login = await start()
    clock.now += 5 * 60_000 + 1
    serviceClock.now += 5 * 60_000 + 1
    const gone = await finish(login.loginId, login.deviceId)
    assert.equal(gone.status, 410)
    assert.deepEqual(errorOf(gone.body), {
      code: 'FARCASTER_EXPIRED',
      message: 'This Farcaster code expired: get a new one',
    })
  })
})
