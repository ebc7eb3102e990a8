// Shared set-up of the social sign-in tests: the provider stand-in, id_token makers and the embedded wallet.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before } from 'node:test'
import type { SocialConfig } from '../../../server/config.ts'
import {
  devAppleKey,
  type OidcStandIn,
  socialProviderNames,
  standInClient,
  startOidcStandIn,
} from '../../../server/dev/oidc/index.ts'
import {
  embeddedErrorBody,
  sessionResponse,
  socialStartResponse,
} from '../../../src/protocol/embedded/index.ts'
import type { SocialProvider } from '../../../src/protocol/rules.ts'
import {
  type EmbeddedTestApp,
  FRAME_ORIGIN,
  newBinding,
  newDeviceId,
  SITE,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

/**
 * Social sign-in on the service against the local `oidc-provider` stand-in (real authorization code,
 * PKCE, state, nonce, id_tokens and profile endpoints), and against a hostile OpenID provider that
 * signs id_tokens with the wrong issuer, audience, nonce or expiry.
 */

export let testDb: TestDatabase
export let oidc: OidcStandIn
export let t: EmbeddedTestApp

export const socialConfig = (providerUrl: string): SocialConfig => ({
  providerUrl,
  redirectBase: FRAME_ORIGIN,
  credentials: Object.fromEntries(socialProviderNames.map((provider) => [provider, standInClient(provider)])),
  apple: { teamId: devAppleKey.teamId, keyId: devAppleKey.keyId, privateKey: devAppleKey.privateKeyPem },
})

export let counter = 0
export const freshEmail = () => `social${++counter}.${Date.now()}@example.com`

/** A browser at the provider: follows redirects with its own cookies, signs in with an e-mail. */
export async function atProvider(
  authorizationUrl: string,
  email: string,
  options: { verified?: boolean; cancel?: boolean } = {},
): Promise<URLSearchParams> {
  const jar = new Map<string, string>()
  const go = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '))
    const response = await fetch(url, { ...init, headers, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const at = pair.indexOf('=')
      jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
    return response
  }
  let response = await go(authorizationUrl)
  const interaction = new URL(response.headers.get('location') ?? '', oidc.url).href
  await go(interaction)
  const form = new URLSearchParams({ email })
  if (options.verified !== false) form.set('verified', '1')
  response = await go(`${interaction}/${options.cancel ? 'abort' : 'login'}`, {
    method: 'POST',
    body: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  for (let hops = 0; hops < 5; hops++) {
    const location = response.headers.get('location')
    if (location?.startsWith(FRAME_ORIGIN)) return new URL(location).searchParams
    if (response.status === 200 && (response.headers.get('content-type') ?? '').includes('html')) {
      // Apple's form POST: the fields of the auto-submitted form.
      const html = await response.text()
      const fields = [...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)]
      return new URLSearchParams(fields.map(([, name = '', value = '']) => [name, value]))
    }
    if (!location) break
    response = await go(new URL(location, oidc.url).href)
  }
  throw new Error(`The provider did not send the person back (${response.status})`)
}

/** What the starting frame keeps of each sign-in (its binding secret), by login id. */
export const bindings = new Map<string, string>()
/** The sign-in of each `state` (to file the handover a callback page gets under it). */
export const loginOfState = new Map<string, string>()
/** The handover each callback page got, by login id: in the browser the provider sent back. */
export const handovers = new Map<string, string>()

export async function start(provider: SocialProvider, deviceId: string, app = t) {
  const binding = newBinding()
  const answer = await app.call('/embedded/v1/social/start', {
    provider,
    deviceId,
    origin: SITE,
    bindingHash: binding.hash,
  })
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  const started = socialStartResponse.parse(answer.body)
  bindings.set(started.loginId, binding.secret)
  loginOfState.set(new URL(started.uri).searchParams.get('state') ?? '', started.loginId)
  return { ...started, binding: binding.secret }
}

/** The handover secret a callback page carries (what it passes to the starting frame), if any. */
export const handoverIn = (html: string) => /"handover":"([A-Za-z0-9_-]{43})"/.exec(html)?.[1]

export async function callback(provider: SocialProvider, parameters: URLSearchParams, app = t) {
  // Each from its own client address: the callback has a per-client rate limit.
  const page = await app.app.inject({
    method: 'GET',
    url: `/social/callback/${provider}?${parameters}`,
    remoteAddress: `10.${randomBytes(3).join('.')}`,
  })
  const handover = handoverIn(page.body)
  const loginId = loginOfState.get(parameters.get('state') ?? '')
  if (handover && loginId) handovers.set(loginId, handover)
  return page
}

/** The starting frame's finish: its binding, and the handover its callback page passed it. */
export const finish = (loginId: string, deviceId: string, app = t) => {
  const handover = handovers.get(loginId)
  return app.call('/embedded/v1/social/finish', {
    loginId,
    deviceId,
    binding: bindings.get(loginId) ?? newBinding().secret,
    ...(handover ? { handover } : {}),
  })
}

/** A whole sign-in; answers the session. */
export async function signIn(provider: SocialProvider, email: string, options: { verified?: boolean } = {}) {
  const deviceId = newDeviceId()
  const { uri, loginId } = await start(provider, deviceId)
  const page = await callback(provider, await atProvider(uri, email, options))
  assert.equal(page.statusCode, 200)
  assert.match(page.body, /"ok":true/)
  const finished = await finish(loginId, deviceId)
  assert.equal(finished.status, 200, JSON.stringify(finished.body))
  return ensureKeys(t, sessionResponse.parse(finished.body))
}

export const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startSocialWallet() {
  before(async () => {
    testDb = await openTestDatabase('embedded_social')
    oidc = await startOidcStandIn({ port: 0, redirectBase: FRAME_ORIGIN })
    t = await startEmbeddedTestApp(testDb, 'social-project', { social: socialConfig(oidc.url) })
  })
  after(async () => {
    await t?.close()
    await oidc?.stop()
    await testDb?.close()
  })
}
