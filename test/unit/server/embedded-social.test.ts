// Social sign-in: the providers, accounts, refusals, attacks, and id_tokens that do not verify.
import assert from 'node:assert/strict'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { exportJWK, SignJWT } from 'jose'
import { socialProviderNames, standInClient } from '../../../server/dev/oidc/index.ts'
import { embeddedUser, sessionResponse } from '../../../src/protocol/embedded/index.ts'
import {
  codeIn,
  type EmbeddedTestApp,
  FRAME_ORIGIN,
  newBinding,
  newDeviceId,
  SITE,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'
import {
  atProvider,
  bindings,
  callback,
  errorOf,
  finish,
  freshEmail,
  handoverIn,
  handovers,
  signIn,
  socialConfig,
  start,
  startSocialWallet,
  t,
} from './embedded-social-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

startSocialWallet()

describe('social sign-in: the six providers through the stand-in', () => {
  for (const provider of socialProviderNames) {
    test(`${provider}: code with PKCE and state${provider === 'google' || provider === 'apple' ? ', a verified id_token' : ', the profile endpoint'}; a session with EVM and Solana accounts and the username`, async () => {
      const email = freshEmail()
      const session = await signIn(provider, email)
      assert.match(session.user.accounts.eip155.address, /^0x[0-9a-fA-F]{40}$/)
      assert.ok(session.user.accounts.solana.address.length >= 32)
      const me = await t.call('/embedded/v1/me', undefined, { token: session.token })
      const user = embeddedUser.parse((me.body as { user: unknown }).user)
      assert.equal(
        user.userName,
        provider === 'google' || provider === 'facebook'
          ? email.split('@')[0]
          : provider === 'apple'
            ? email
            : email.split('@')[0],
      )
      // X gives no e-mail; Facebook's is never taken as verified.
      assert.equal(user.email, provider === 'x' || provider === 'facebook' ? null : email)
      // The same identity again: the same wallet.
      const again = await signIn(provider, email)
      assert.equal(again.user.accounts.eip155.address, session.user.accounts.eip155.address)
    })
  }

  test('the authorization URL asks for PKCE (S256), state, and a nonce for the OpenID providers', async () => {
    for (const provider of ['google', 'github'] as const) {
      const url = new URL((await start(provider, newDeviceId())).uri)
      assert.equal(url.searchParams.get('code_challenge_method'), 'S256')
      assert.match(url.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/)
      assert.match(url.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/)
      assert.equal(url.searchParams.get('redirect_uri'), `${FRAME_ORIGIN}/social/callback/${provider}`)
      assert.equal(url.searchParams.has('nonce'), provider === 'google')
    }
  })
})

describe('social sign-in: accounts', () => {
  test("a provider's verified e-mail joins the user who signed in by e-mail code with it", async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    const started = await t.call('/embedded/v1/email/connect', { email, deviceId, origin: SITE })
    const { loginId } = started.body as { loginId: string }
    const verified = await t.call('/embedded/v1/email/verify', {
      loginId,
      otp: codeIn(t.mailTo(email)[0]),
      deviceId,
    })
    const byCode = await ensureKeys(t, sessionResponse.parse(verified.body))
    const byGoogle = await signIn('google', email)
    assert.equal(byGoogle.user.accounts.eip155.address, byCode.user.accounts.eip155.address)
    assert.equal(byGoogle.user.accounts.solana.address, byCode.user.accounts.solana.address)
  })

  test('a verified e-mail joins the e-mail user of that address (one wallet); an unverified one never does', async () => {
    const email = freshEmail()
    const google = await signIn('google', email)
    const github = await signIn('github', email)
    assert.equal(github.user.accounts.eip155.address, google.user.accounts.eip155.address)
    const discordUnverified = await signIn('discord', email, { verified: false })
    assert.notEqual(discordUnverified.user.accounts.eip155.address, google.user.accounts.eip155.address)
    assert.equal(discordUnverified.user.email, null)
  })
})

describe('social sign-in: refused', () => {
  test('a wrong state: refused, nothing signed in, and the right sign-in still works', async () => {
    const deviceId = newDeviceId()
    const { uri, loginId } = await start('google', deviceId)
    const parameters = await atProvider(uri, freshEmail())
    const forged = new URLSearchParams(parameters)
    forged.set('state', randomBytes(32).toString('base64url'))
    const page = await callback('google', forged)
    assert.equal(page.statusCode, 400)
    assert.doesNotMatch(page.body, /"site"/)
    const early = await finish(loginId, deviceId)
    assert.equal(errorOf(early.body).code, 'SOCIAL_PENDING')
    assert.equal((await callback('google', parameters)).statusCode, 200)
    assert.equal((await finish(loginId, deviceId)).status, 200)
  })

  test('a replayed callback (same code and state) is refused; the session is given once', async () => {
    const deviceId = newDeviceId()
    const { uri, loginId } = await start('github', deviceId)
    const parameters = await atProvider(uri, freshEmail())
    assert.equal((await callback('github', parameters)).statusCode, 200)
    assert.equal((await callback('github', parameters)).statusCode, 400)
    assert.equal((await finish(loginId, deviceId)).status, 200)
    const twice = await finish(loginId, deviceId)
    assert.equal(twice.status, 403)
    assert.equal(errorOf(twice.body).message, 'Action not allowed')
  })

  test("a used code with another sign-in's state: the provider refuses the replay and PKCE mismatch", async () => {
    const first = { deviceId: newDeviceId() }
    const { uri } = await start('google', first.deviceId)
    const used = await atProvider(uri, freshEmail())
    assert.equal((await callback('google', used)).statusCode, 200)
    // The code again, under a second sign-in's state (its own verifier): refused by the provider.
    const second = newDeviceId()
    const other = await start('google', second)
    const otherState = new URL(other.uri).searchParams.get('state') ?? ''
    const replay = new URLSearchParams(used)
    replay.set('state', otherState)
    const page = await callback('google', replay)
    assert.match(page.body, /"ok":false/)
    const refused = await finish(other.loginId, second)
    assert.equal(errorOf(refused.body).code, 'SOCIAL_FAILED')
    assert.equal(errorOf(refused.body).message, 'google could not sign you in: try again')
  })

  test('a PKCE verifier that does not match the challenge: the provider refuses the code', async () => {
    const a = newDeviceId()
    const b = newDeviceId()
    const first = await start('github', a)
    const second = await start('github', b)
    // Signed in for the first sign-in (its challenge), but the callback names the second's state:
    // the service sends the second's verifier with the first's code.
    const parameters = await atProvider(first.uri, freshEmail())
    parameters.set('state', new URL(second.uri).searchParams.get('state') ?? '')
    await callback('github', parameters)
    const refused = await finish(second.loginId, b)
    assert.equal(errorOf(refused.body).code, 'SOCIAL_FAILED')
  })

  test('a cancel at the provider (access_denied): the frame hears SOCIAL_DENIED', async () => {
    const deviceId = newDeviceId()
    const { uri, loginId } = await start('google', deviceId)
    const parameters = await atProvider(uri, freshEmail(), { cancel: true })
    assert.equal(parameters.get('error'), 'access_denied')
    await callback('google', parameters)
    const denied = await finish(loginId, deviceId)
    assert.equal(errorOf(denied.body).code, 'SOCIAL_DENIED')
    assert.equal(errorOf(denied.body).message, 'The sign-in was cancelled at google')
  })

  test('another browser or site cannot take the sign-in; an unknown provider or a foreign origin is refused', async () => {
    const deviceId = newDeviceId()
    const { uri, loginId } = await start('google', deviceId)
    await callback('google', await atProvider(uri, freshEmail()))
    assert.equal((await finish(loginId, newDeviceId())).status, 403)
    const foreign = await t.call(
      '/embedded/v1/social/finish',
      { loginId, deviceId, binding: bindings.get(loginId), handover: handovers.get(loginId) },
      { site: 'https://evil.example' },
    )
    assert.equal(foreign.status, 403)
    const fromPage = await t.call(
      '/embedded/v1/social/start',
      { provider: 'google', deviceId, origin: SITE, bindingHash: newBinding().hash },
      { origin: SITE },
    )
    assert.equal(fromPage.status, 403)
    const unknown = await t.call('/embedded/v1/social/start', {
      provider: 'myspace',
      deviceId,
      origin: SITE,
      bindingHash: newBinding().hash,
    })
    assert.equal(unknown.status, 400)
    assert.equal(
      (await t.app.inject({ method: 'GET', url: '/social/callback/myspace?state=x' })).statusCode,
      404,
    )
    // Still the rightful browser's.
    assert.equal((await finish(loginId, deviceId)).status, 200)
  })
})

describe('a social sign-in started by an attacker', () => {
  test('the attacker calls start from their machine, the victim signs in at the provider: the attacker’s finish gets no session, before or after the callback', async () => {
    // The attacker's machine: its own frame ids and binding secret, all it learns from start.
    const attacker = { deviceId: newDeviceId() }
    const { uri, loginId, binding } = await start('github', attacker.deviceId)
    const steal = (extra: Record<string, unknown> = {}) =>
      t.call('/embedded/v1/social/finish', { loginId, deviceId: attacker.deviceId, binding, ...extra })

    // Before the victim comes back: still waiting, nothing to take.
    const early = await steal()
    assert.equal(errorOf(early.body).code, 'SOCIAL_PENDING')

    // The victim opens the provider's URL the attacker sent, signs in (an authorised app needs no
    // click), and the provider sends the victim's browser to the callback page.
    const victimEmail = freshEmail()
    const page = await callback('github', await atProvider(uri, victimEmail))
    assert.equal(page.statusCode, 200)
    assert.match(page.body, /"ok":true/)

    // After: everything the attacker holds, with or without a guessed handover, is refused.
    for (const attempt of [await steal(), await steal({ handover: newBinding().secret })]) {
      assert.equal(attempt.status, 403, JSON.stringify(attempt.body))
      assert.equal(errorOf(attempt.body).message, 'Action not allowed')
      assert.ok(!('token' in attempt.body), 'no session for the attacker')
    }
    // The handover stayed in the victim's browser: with it (as the starting frame there would) it works.
    assert.ok(handovers.get(loginId), 'the callback page got a handover')
    assert.equal((await finish(loginId, attacker.deviceId)).status, 200)
  })

  test('the frame that started a sign-in cannot be handed a callback of another sign-in (the attacker’s own account)', async () => {
    // The victim's frame starts a sign-in; the attacker signs in with their own account on a sign-in of
    // theirs and gets the victim's browser to open that callback page: its handover is for the
    // attacker's sign-in only.
    const victim = { deviceId: newDeviceId() }
    const mine = await start('google', victim.deviceId)
    const theirs = await start('google', newDeviceId())
    const page = await callback('google', await atProvider(theirs.uri, freshEmail()))
    const handover = handoverIn(page.body)
    assert.ok(handover)
    const mixed = await t.call('/embedded/v1/social/finish', {
      loginId: mine.loginId,
      deviceId: victim.deviceId,
      binding: mine.binding,
      handover,
    })
    // The victim's own sign-in is still waiting for its callback; the attacker's is not the victim's.
    assert.equal(errorOf(mixed.body).code, 'SOCIAL_PENDING')
    assert.ok(!('token' in mixed.body))
    const other = await t.call('/embedded/v1/social/finish', {
      loginId: theirs.loginId,
      deviceId: victim.deviceId,
      binding: mine.binding,
      handover,
    })
    assert.equal(other.status, 403)
    assert.ok(!('token' in other.body))
  })

  test('without the starting frame’s binding secret, the callback’s handover is not enough either', async () => {
    const deviceId = newDeviceId()
    const { uri, loginId } = await start('discord', deviceId)
    await callback('discord', await atProvider(uri, freshEmail()))
    const noBinding = await t.call('/embedded/v1/social/finish', {
      loginId,
      deviceId,
      binding: newBinding().secret,
      handover: handovers.get(loginId),
    })
    assert.equal(noBinding.status, 403)
    assert.equal((await finish(loginId, deviceId)).status, 200)
  })
})

describe('social sign-in: id_tokens that do not verify', () => {
  let rogue: Server
  let rogueUrl: string
  let r: EmbeddedTestApp
  let rogueDb: TestDatabase
  /** What the next id_token says (set by each test). */
  let claims: (base: Record<string, unknown>) => Record<string, unknown> = (base) => base
  let nonceSeen = ''
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })

  before(async () => {
    const jwk = { ...(await exportJWK(privateKey)), kid: 'rogue', alg: 'RS256', use: 'sig' }
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = jwk
    rogue = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', rogueUrl)
      const issuer = `${rogueUrl}/google`
      const json = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
      if (url.pathname === '/google/.well-known/openid-configuration') {
        return json({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        })
      }
      if (url.pathname === '/google/jwks') return json({ keys: [publicJwk] })
      if (url.pathname === '/google/token') {
        const now = Math.floor(Date.now() / 1000)
        const base = {
          iss: issuer,
          aud: standInClient('google').clientId,
          sub: 'rogue-subject',
          nonce: nonceSeen,
          iat: now,
          exp: now + 600,
          email: 'rogue@example.com',
          email_verified: true,
        }
        const idToken = await new SignJWT(claims(base))
          .setProtectedHeader({ alg: 'RS256', kid: 'rogue' })
          .sign(privateKey)
        return json({
          access_token: 'rogue-access',
          token_type: 'Bearer',
          expires_in: 600,
          id_token: idToken,
        })
      }
      res.writeHead(404).end()
    })
    await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve))
    rogueUrl = `http://127.0.0.1:${(rogue.address() as AddressInfo).port}`
    rogueDb = await openTestDatabase('embedded_social_rogue')
    r = await startEmbeddedTestApp(rogueDb, 'rogue-project', { social: socialConfig(rogueUrl) })
  })
  after(async () => {
    await r?.close()
    await rogueDb?.close()
    await new Promise((resolve) => rogue?.close(resolve))
  })

  /** Starts a google sign-in at the rogue provider and comes back with a code; answers the finish. */
  async function attempt() {
    const deviceId = newDeviceId()
    const { uri, loginId } = await start('google', deviceId, r)
    const url = new URL(uri)
    nonceSeen = url.searchParams.get('nonce') ?? ''
    const parameters = new URLSearchParams({ code: 'rogue-code', state: url.searchParams.get('state') ?? '' })
    await callback('google', parameters, r)
    return finish(loginId, deviceId, r)
  }

  test('control: a token with the right issuer, audience, nonce and expiry signs in', async () => {
    claims = (base) => base
    const answer = await attempt()
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
  })

  const cases: [string, (base: Record<string, unknown>) => Record<string, unknown>][] = [
    ['of another issuer', (base) => ({ ...base, iss: 'https://accounts.evil.example' })],
    ['for another audience', (base) => ({ ...base, aud: 'someone-elses-client' })],
    ['expired', (base) => ({ ...base, iat: Number(base.iat) - 7200, exp: Number(base.iat) - 3600 })],
    ['with another nonce', (base) => ({ ...base, nonce: 'not-this-sign-ins-nonce' })],
  ]
  for (const [name, change] of cases) {
    test(`an id_token ${name}: refused, no session, no user`, async () => {
      claims = change
      const answer = await attempt()
      assert.equal(answer.status, 400)
      assert.equal(errorOf(answer.body).code, 'SOCIAL_FAILED')
    })
  }
})
