// Shared set-up of the e-mail sign-in tests: the embedded wallet with a mail sink, and the frame's requests from a browser.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import {
  emailConnectResponse,
  emailVerifyResponse,
  embeddedErrorBody,
  sessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import {
  clock,
  codeIn,
  type EmbeddedTestApp,
  FRAME_ORIGIN,
  newDeviceId,
  newSessionKey,
  SITE,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

export let testDb: TestDatabase
export let t: EmbeddedTestApp
export let counter = 0
/** A fresh address per test, so cooldowns of one test never meet another's. */
export const freshEmail = () => `person${++counter}.${Date.now()}@example.com`
export const seconds = (n: number) => {
  clock.now += n * 1000
}

export const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error

export function connect(email: string, deviceId: string, token?: string, ip?: string) {
  return t.call(
    '/embedded/v1/email/connect',
    { email, deviceId, origin: SITE },
    { ...(token ? { token } : {}), ...(ip ? { ip } : {}) },
  )
}

/** Signs in a new address from start to end, its keys set up as the frame does; answers the session and the device. */
export async function signIn(email = freshEmail(), deviceId = newDeviceId()) {
  const started = await connect(email, deviceId)
  assert.equal(started.status, 200, JSON.stringify(started.body))
  const { action, loginId } = emailConnectResponse.parse(started.body)
  assert.equal(action, 'VERIFY_OTP')
  const verified = await t.call('/embedded/v1/email/verify', {
    loginId,
    otp: codeIn(t.mailTo(email)[0]),
    deviceId,
  })
  assert.equal(verified.status, 200, JSON.stringify(verified.body))
  return { email, deviceId, session: await ensureKeys(t, sessionResponse.parse(verified.body)) }
}

export const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36'

/** The browser key the frame registers with a session it earns (it signs the session's requests). */
export const browserKey = newSessionKey()

/** A POST as the frame sends it, with a browser's User-Agent. */
export async function callAs(userAgent: string, path: string, body: unknown) {
  const response = await t.app.inject({
    method: 'POST',
    url: `${path}?projectId=${t.projectId}`,
    headers: {
      origin: FRAME_ORIGIN,
      'x-wallet-site': SITE,
      'content-type': 'application/json',
      'user-agent': userAgent,
      'x-wallet-key': browserKey.publicKey,
    },
    payload: JSON.stringify(body),
  })
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> }
}

/** A known address's code proven on a new browser: the device step (VERIFY_DEVICE) and its mailed link. */
export async function deviceStep(email: string, browser: string) {
  const started = emailConnectResponse.parse(
    (await callAs(chromeOnLinux, '/embedded/v1/email/connect', { email, deviceId: browser, origin: SITE }))
      .body,
  )
  assert.equal(started.action, 'VERIFY_OTP')
  const verified = await callAs(chromeOnLinux, '/embedded/v1/email/verify', {
    loginId: started.loginId,
    otp: codeIn(t.mailTo(email)[0]),
    deviceId: browser,
  })
  assert.equal(verified.status, 200, JSON.stringify(verified.body))
  const answer = emailVerifyResponse.parse(verified.body)
  assert.ok('action' in answer && answer.action === 'VERIFY_DEVICE', JSON.stringify(verified.body))
  const token = /device#([A-Za-z0-9_-]{43})/.exec(t.mailTo(email)[0]?.text ?? '')?.[1] ?? ''
  return { loginId: answer.loginId, compareCode: answer.compareCode, token }
}

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startLoginWallet() {
  before(async () => {
    testDb = await openTestDatabase('embedded_login')
    t = await startEmbeddedTestApp(testDb, 'login-project')
  })
  after(async () => {
    await t?.close()
    await testDb?.close()
  })
}
