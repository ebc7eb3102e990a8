// The service signs in with Farcaster from the Farcaster app a page runs in (a mini app): no relay, the
// host app signs the message for the site's own domain with the nonce the service gave.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createSiweMessage } from 'viem/siwe'
import { FARCASTER_CHAIN_ID } from '../../../server/dev/farcaster/registries.ts'
import {
  farcasterMiniAppStartResponse,
  farcasterStartResponse,
  sessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import {
  authAddress,
  custody,
  DOMAIN,
  FID,
  startFarcasterWallet,
  stranger,
  t,
} from './embedded-farcaster-helpers.ts'
import { frameWallet, newBinding, newDeviceId, SITE } from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'

startFarcasterWallet()

/** The site's host: what a Farcaster host app names as the domain of the mini app at {@link SITE}. */
const SITE_DOMAIN = new URL(SITE).host

/** The message a host app signs for the mini app (EIP-4361 with Farcaster's fields). */
function hostMessage(nonce: string, overrides: { domain?: string; address?: `0x${string}` } = {}) {
  return createSiweMessage({
    domain: overrides.domain ?? SITE_DOMAIN,
    address: overrides.address ?? custody.address,
    statement: 'Farcaster Auth',
    uri: SITE,
    version: '1',
    chainId: FARCASTER_CHAIN_ID,
    nonce,
    issuedAt: new Date(),
    resources: [`farcaster://fid/${FID}`],
  })
}

describe('Farcaster sign-in from the host app (a mini app)', () => {
  /** The frame's `mini-app-start`, played over HTTP: the nonce and what finishing needs. */
  async function start() {
    const binding = newBinding()
    const deviceId = newDeviceId()
    const { status, body } = await t.call('/embedded/v1/farcaster/mini-app/start', {
      deviceId,
      origin: SITE,
      bindingHash: binding.hash,
    })
    assert.equal(status, 200, JSON.stringify(body))
    return { ...farcasterMiniAppStartResponse.parse(body), deviceId, binding: binding.secret }
  }
  const finish = (
    login: { loginId: string; deviceId: string; binding: string },
    approval: { message: string; signature: string },
  ) => t.call('/embedded/v1/farcaster/mini-app/finish', { ...login, ...approval })
  const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string }

  test("the frame: the host's message for the site's domain, signed by the fid's custody key, connects the fid once", async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 })
    const frame = frameWallet(t, base)
    const started = await frame.ask('CONNECT_FARCASTER', { step: 'mini-app-start' })
    assert.equal(started.type, 'CONNECT_FARCASTER_SUCCESS')
    const { nonce } = started.payload as { nonce: string }
    assert.match(nonce, /^[0-9a-f]{32}$/)
    const message = hostMessage(nonce)
    const signature = await custody.signMessage({ message })
    assert.deepEqual(await frame.ask('CONNECT_FARCASTER', { step: 'mini-app-finish', message, signature }), {
      type: 'CONNECT_FARCASTER_SUCCESS',
      payload: {},
    })
    const user = await frame.ask('GET_USER', {})
    assert.equal(user.type, 'GET_USER_SUCCESS')
    assert.equal((user.payload as { accounts: unknown[] }).accounts.length, 2, 'EVM and Solana')
    // The same signed message again: the sign-in it was for is over.
    const again = await frame.ask('CONNECT_FARCASTER', { step: 'mini-app-finish', message, signature })
    assert.equal((again.payload as { message?: string }).message, 'Action not allowed')
  })

  test("the host's profile is not signed, so none is taken: the name and picture an earlier relay sign-in brought stay", async () => {
    // As the relay's sign-in of the fid left them (its approval carries the Farcaster profile).
    await t.wallet.social.userOf(t.projectId, 'farcaster', {
      subject: String(FID),
      email: null,
      emailVerified: false,
      username: 'alice',
      pictureUrl: 'https://example.com/alice.png',
    })
    const login = await start()
    const message = hostMessage(login.nonce)
    const answer = await finish(login, { message, signature: await custody.signMessage({ message }) })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    const { user } = await ensureKeys(t, sessionResponse.parse(answer.body))
    assert.equal(user.userName, 'alice')
    assert.equal(user.userImage, 'https://example.com/alice.png')
  })

  test('an auth address of the fid signs in too, to the same one wallet as the custody key', async () => {
    const first = await start()
    const byCustody = hostMessage(first.nonce)
    const one = await finish(first, {
      message: byCustody,
      signature: await custody.signMessage({ message: byCustody }),
    })
    assert.equal(one.status, 200, JSON.stringify(one.body))
    const second = await start()
    const byAuth = hostMessage(second.nonce, { address: authAddress.address })
    const two = await finish(second, {
      message: byAuth,
      signature: await authAddress.signMessage({ message: byAuth }),
    })
    assert.equal(two.status, 200, JSON.stringify(two.body))
    const wallets = await Promise.all(
      [one, two].map(async (answer) => (await ensureKeys(t, sessionResponse.parse(answer.body))).user),
    )
    assert.equal(wallets[0]?.accounts.eip155.address, wallets[1]?.accounts.eip155.address)
  })

  test("attack: a message signed for another domain (the wallet frame's, another site's) is refused, and the sign-in is over", async () => {
    for (const domain of [DOMAIN, 'evil.example']) {
      const login = await start()
      const message = hostMessage(login.nonce, { domain })
      const refused = await finish(login, { message, signature: await custody.signMessage({ message }) })
      assert.equal(refused.status, 400, domain)
      assert.deepEqual(errorOf(refused.body), {
        code: 'FARCASTER_WRONG_DOMAIN',
        message: 'This Farcaster approval was made for another site',
      })
      const right = hostMessage(login.nonce)
      const after = await finish(login, {
        message: right,
        signature: await custody.signMessage({ message: right }),
      })
      assert.equal(after.status, 403, 'one try per nonce')
    }
  })

  test("attack: another sign-in's nonce, and a key that does not hold the fid, are refused", async () => {
    const mine = await start()
    const theirs = await start()
    const replayed = hostMessage(theirs.nonce)
    const wrongNonce = await finish(mine, {
      message: replayed,
      signature: await custody.signMessage({ message: replayed }),
    })
    assert.equal(errorOf(wrongNonce.body).code, 'FARCASTER_WRONG_NONCE')
    const stolen = await start()
    const claimed = hostMessage(stolen.nonce, { address: stranger.address })
    const wrongSigner = await finish(stolen, {
      message: claimed,
      signature: await stranger.signMessage({ message: claimed }),
    })
    assert.equal(errorOf(wrongSigner.body).code, 'FARCASTER_WRONG_SIGNER')
  })

  test('attack: without the starting frame’s binding, from another site, or on a relay channel’s sign-in: not allowed', async () => {
    const login = await start()
    const message = hostMessage(login.nonce)
    const signature = await custody.signMessage({ message })
    const unbound = await finish({ ...login, binding: newBinding().secret }, { message, signature })
    assert.equal(unbound.status, 403)
    const elsewhere = await t.call(
      '/embedded/v1/farcaster/mini-app/finish',
      { ...login, message, signature },
      { site: 'https://other.example' },
    )
    assert.equal(elsewhere.status, 403)
    // A relay channel's sign-in has no host message to take (and its nonce went to the relay).
    const binding = newBinding()
    const deviceId = newDeviceId()
    const channel = farcasterStartResponse.parse(
      (
        await t.call('/embedded/v1/farcaster/start', {
          deviceId,
          origin: SITE,
          bindingHash: binding.hash,
        })
      ).body,
    )
    const onChannel = await finish(
      { loginId: channel.loginId, deviceId, binding: binding.secret },
      { message, signature },
    )
    assert.equal(onChannel.status, 403)
    // The untouched mini-app sign-in still works: the refusals above spent nothing of it.
    const done = await finish(login, { message, signature })
    assert.equal(done.status, 200, JSON.stringify(done.body))
    // And a mini app's sign-in is not a relay channel to finish.
    const other = await start()
    const asChannel = await t.call('/embedded/v1/farcaster/finish', {
      loginId: other.loginId,
      deviceId: other.deviceId,
      binding: other.binding,
    })
    assert.equal(asChannel.status, 403)
  })
})
