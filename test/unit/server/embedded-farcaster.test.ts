import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createAppClient, createWalletClient, viemConnector } from '@farcaster/auth-client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  approveChannel,
  channelRequest,
  declineChannel,
  type FarcasterApproval,
} from '../../../server/dev/farcaster/app.ts'
import {
  FARCASTER_CHAIN_ID,
  type FarcasterRegistries,
  installFarcasterRegistries,
} from '../../../server/dev/farcaster/registries.ts'
import { type FarcasterRelay, startFarcasterRelay } from '../../../server/dev/farcaster/relay.ts'
import { EmbeddedError } from '../../../server/embedded/errors.ts'
import { createFarcasterVerifier, type FarcasterVerifier } from '../../../server/embedded/farcaster.ts'
import { createFarcasterService } from '../../../server/embedded/farcasterLogin.ts'
import { createProject, getProject, updateProject } from '../../../server/projects/store.ts'
import { farcasterStartResponse, sessionResponse } from '../../../src/protocol/embedded/index.ts'
import {
  type EmbeddedTestApp,
  frameWallet,
  newBinding,
  newDeviceId,
  SITE,
  clock as serviceClock,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { freePort, openTestDatabase, type TestDatabase } from './helpers.ts'

/**
 * Sign In With Farcaster on the service, as an attacker would try it: approvals signed by the fid's
 * custody key on a local chain with chain id 10 holding the ID and key registry stand-ins at their
 * canonical addresses, against approvals with another nonce, another domain, or another signer.
 */

const DOMAIN = '127.0.0.1:8788'
const FID = 4242n
const custody = privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount(generatePrivateKey())
const authAddress = privateKeyToAccount(generatePrivateKey())

let chain: LocalChain
let registries: FarcasterRegistries
let verify: FarcasterVerifier
let testDb: TestDatabase
let t: EmbeddedTestApp
let relay: FarcasterRelay
const RELAY_KEY = 'dev-relay-key-for-tests'
const clock = { now: Date.now() }

before(async () => {
  chain = await startChain({ port: await freePort(), chainId: FARCASTER_CHAIN_ID })
  registries = await installFarcasterRegistries(chain.url)
  await registries.register(custody.address, FID)
  await registries.addAuthAddress(FID, authAddress.address)
  verify = createFarcasterVerifier({ rpcUrl: chain.url, domain: DOMAIN })
  relay = await startFarcasterRelay({
    port: 0,
    appUrl: 'http://127.0.0.1:9/farcaster-app',
    relayKey: RELAY_KEY,
    now: () => clock.now,
  })
  testDb = await openTestDatabase('embedded_farcaster')
  t = await startEmbeddedTestApp(testDb, 'farcaster-project', {
    farcaster: { relayUrl: relay.url, rpcUrl: chain.url },
  })
})
after(async () => {
  await relay?.stop()
  await t?.close()
  await testDb?.close()
  await chain?.stop()
})

/** The message a Farcaster app signs for a channel (EIP-4361 with Farcaster's fields). */
function approvalMessage(overrides: {
  chainId?: number

  nonce?: string
  domain?: string
  fid?: bigint
  address?: `0x${string}`
}) {
  return createSiweMessage({
    domain: overrides.domain ?? DOMAIN,
    address: overrides.address ?? custody.address,
    statement: 'Farcaster Auth',
    uri: `http://${DOMAIN}/embedded/farcaster`,
    version: '1',
    chainId: overrides.chainId ?? FARCASTER_CHAIN_ID,
    nonce: overrides.nonce ?? 'ourNonce12345678',
    issuedAt: new Date(),
    resources: [`farcaster://fid/${overrides.fid ?? FID}`],
  })
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('the approval was accepted'),
    (cause: unknown) => cause,
  )
  assert.ok(error instanceof EmbeddedError, String(error))
  assert.equal(error.statusCode, 400)
  return error.message
}

describe('Farcaster approvals', () => {
  test('the custody key of the fid signs in, and the fid is its own user with one wallet', async () => {
    const message = approvalMessage({})
    const signature = await custody.signMessage({ message })
    const signIn = await verify({ message, signature, nonce: 'ourNonce12345678' })
    assert.equal(signIn.fid, '4242')
    assert.equal(signIn.signer.toLowerCase(), custody.address.toLowerCase())

    const identity = { subject: signIn.fid, email: null, emailVerified: false, username: 'alice' }
    const user = await t.wallet.social.userOf(t.projectId, 'farcaster', identity)
    assert.equal(await t.wallet.social.userOf(t.projectId, 'farcaster', identity), user)
    const other = await t.wallet.social.userOf(t.projectId, 'farcaster', { ...identity, subject: '4243' })
    assert.notEqual(other, user)
    const open = async (id: string) =>
      sessionResponse.parse(
        await t.wallet.login.sessions.openSession(
          await t.wallet.login.users.userById(id),
          t.projectId,
          newDeviceId(),
          SITE,
          t.browserKey.publicKey,
        ),
      ).user.accounts.eip155.address
    const wallet = await open(user)
    assert.match(wallet, /^0x[0-9a-fA-F]{40}$/)
    assert.equal(await open(user), wallet, 'the fid keeps its one wallet')
    assert.notEqual(await open(other), wallet)
  })

  test('an auth address registered for the fid signs in too', async () => {
    const message = approvalMessage({ address: authAddress.address })
    const signature = await authAddress.signMessage({ message })
    assert.equal((await verify({ message, signature, nonce: 'ourNonce12345678' })).fid, '4242')
  })

  test('an approval with another nonce is refused', async () => {
    const message = approvalMessage({ nonce: 'theirNonce1234567' })
    const signature = await custody.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval is for another sign-in request: start again',
    )
  })

  test('an approval for another domain is refused', async () => {
    const message = approvalMessage({ domain: 'evil.example' })
    const signature = await custody.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval was made for another site',
    )
  })

  test('an approval for another chain than OP mainnet is refused', async () => {
    const message = approvalMessage({ chainId: 1 })
    const signature = await custody.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval names the wrong chain',
    )
  })

  test('a key that does not hold the fid cannot sign in as it', async () => {
    const message = approvalMessage({ address: stranger.address })
    const signature = await stranger.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval was not signed by the account it names',
    )
  })

  test('a signature by another key than the message names is refused', async () => {
    const message = approvalMessage({})
    const signature = await stranger.signMessage({ message })
    assert.equal(
      await refusal(verify({ message, signature, nonce: 'ourNonce12345678' })),
      'This Farcaster approval could not be verified',
    )
  })
})

describe('the relay stand-in', () => {
  const app = () => createAppClient({ relay: relay.url, ethereum: viemConnector({ rpcUrl: chain.url }) })
  const farcasterApp = () =>
    createWalletClient({ relay: relay.url, ethereum: viemConnector({ rpcUrl: chain.url }) })
  const siweUri = `http://${DOMAIN}/embedded/farcaster`

  test('a channel goes from pending to completed with the approval, which verifies', async () => {
    const created = await app().createChannel({ siweUri, domain: DOMAIN, nonce: 'ourNonce12345678' })
    assert.equal(created.isError, false)
    const { channelToken, url, nonce } = created.data as { channelToken: string; url: string; nonce: string }
    assert.equal(nonce, 'ourNonce12345678')
    assert.equal(new URL(url).searchParams.get('channelToken'), channelToken)
    const pending = await app().status({ channelToken })
    assert.equal(pending.response?.status, 202)
    assert.equal(pending.data?.state, 'pending')

    const built = farcasterApp().buildSignInMessage({
      address: custody.address,
      fid: Number(FID),
      uri: siweUri,
      domain: DOMAIN,
      nonce,
    })
    assert.equal(built.isError, false)
    const message = built.message as string
    const signature = await custody.signMessage({ message })
    const delivered = await farcasterApp().authenticate({
      channelToken,
      authKey: RELAY_KEY,
      message,
      signature,
      fid: Number(FID),
      username: 'alice',
      pfpUrl: 'https://example.com/alice.png',
    })
    assert.equal(delivered.isError, false)

    const done = await app().status({ channelToken })
    assert.equal(done.response?.status, 200)
    assert.equal(done.data?.state, 'completed')
    assert.equal(done.data?.username, 'alice')
    assert.equal(done.data?.pfpUrl, 'https://example.com/alice.png')
    assert.equal(done.data?.fid, 4242)
    const signIn = await verify({
      message: done.data?.message as string,
      signature: done.data?.signature as `0x${string}`,
      nonce: 'ourNonce12345678',
    })
    assert.equal(signIn.fid, '4242')
  })

  test('an approval without the relay key, or for a channel that expired, is refused', async () => {
    const created = await app().createChannel({ siweUri, domain: DOMAIN })
    const channelToken = created.data?.channelToken as string
    const body = { message: 'x', signature: '0x00', fid: 1 }
    const post = (key: string) =>
      fetch(`${relay.url}/v1/channel/authenticate`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${channelToken}`,
          'x-farcaster-auth-relay-key': key,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      })
    assert.equal((await post('guessed-key')).status, 401)
    clock.now += 5 * 60_000 + 1
    const status = (token: string) =>
      fetch(`${relay.url}/v1/channel/status`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal((await status(channelToken)).status, 401)
    assert.equal((await post(RELAY_KEY)).status, 401)
    const unknown = await fetch(`${relay.url}/v1/channel/status`, {
      headers: { authorization: 'Bearer nope' },
    })
    assert.equal(unknown.status, 401)
  })
})

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
    return { ...answer, request, deviceId, binding: binding.secret }
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
    const session = sessionResponse.parse(done.body)
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
      second.user.accounts.eip155.address,
      session.user.accounts.eip155.address,
      'one wallet per fid',
    )
    assert.equal(second.user.userName, 'alice2', 'the newest username is kept')
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

  test('issue 23 item 1, as an attacker: the ids of an approved sign-in (login id, device id, site) are not enough without the starting frame’s binding secret', async () => {
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

describe('the frame’s CONNECT_FARCASTER', () => {
  test('start gives the channel URL; finish says pending, then connects the fid with username and picture', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    const frame = frameWallet(t, base)
    const started = await frame.ask('CONNECT_FARCASTER', { step: 'start' })
    assert.equal(started.type, 'CONNECT_FARCASTER_SUCCESS')
    const { url } = started.payload as { url: string; expiresAt: string }
    const request = channelRequest.parse(Object.fromEntries(new URL(url).searchParams))

    const pending = await frame.ask('CONNECT_FARCASTER', { step: 'finish' })
    assert.deepEqual(pending, {
      type: 'CONNECT_FARCASTER_ERROR',
      payload: { message: 'Waiting for approval in the Farcaster app', code: 'FARCASTER_PENDING' },
    })
    await approveChannel(request, {
      relayUrl: relay.url,
      relayKey: RELAY_KEY,
      rpcUrl: chain.url,
      account: { custody, fid: Number(FID), username: 'alice', pfpUrl: 'https://example.com/a.png' },
    })
    assert.deepEqual(await frame.ask('CONNECT_FARCASTER', { step: 'finish' }), {
      type: 'CONNECT_FARCASTER_SUCCESS',
      payload: {},
    })
    const user = await frame.ask('GET_USER', {})
    assert.equal(user.type, 'GET_USER_SUCCESS')
    const payload = user.payload as { userName?: string; userImage?: string; accounts: unknown[] }
    assert.equal(payload.userName, 'alice')
    assert.equal(payload.userImage, 'https://example.com/a.png')
    assert.equal(payload.accounts.length, 2, 'EVM and Solana')
    const after = await frame.ask('CONNECT_FARCASTER', { step: 'finish' })
    assert.equal((after.payload as { message?: string }).message, 'Action not allowed')
  })
})
