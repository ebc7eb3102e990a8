import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { after, before, describe, test } from 'node:test'
import {
  deviceDetailsResponse,
  deviceWaitResponse,
  emailConnectResponse,
  emailVerifyResponse,
  embeddedErrorBody,
  embeddedUser,
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
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
let t: EmbeddedTestApp
let counter = 0
/** A fresh address per test, so cooldowns of one test never meet another's. */
const freshEmail = () => `person${++counter}.${Date.now()}@example.com`
const seconds = (n: number) => {
  clock.now += n * 1000
}

before(async () => {
  testDb = await openTestDatabase('embedded_login')
  t = await startEmbeddedTestApp(testDb, 'login-project')
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error

function connect(email: string, deviceId: string, token?: string, ip?: string) {
  return t.call(
    '/embedded/v1/email/connect',
    { email, deviceId, origin: SITE },
    { ...(token ? { token } : {}), ...(ip ? { ip } : {}) },
  )
}

/** Signs in a new address from start to end; answers the session and the device. */
async function signIn(email = freshEmail(), deviceId = newDeviceId()) {
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
  return { email, deviceId, session: sessionResponse.parse(verified.body) }
}

describe('e-mail sign-in: codes', () => {
  test('default: a new address gets a 6-digit code by mail; the code opens a session with an EVM and a Solana account', async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    const started = await connect(email, deviceId)
    const answer = emailConnectResponse.parse(started.body)
    assert.equal(answer.action, 'VERIFY_OTP')
    assert.equal(answer.resendAfterSeconds, 30)
    const [mail] = t.mailTo(email)
    assert.ok(mail)
    assert.match(mail.subject, /^\d{6} is your sign-in code$/)
    assert.match(mail.text, /expires in 10 minutes and works once/)
    assert.ok(mail.text.includes('shop.example'))

    const verified = await t.call('/embedded/v1/email/verify', {
      loginId: answer.loginId,
      otp: codeIn(mail),
      deviceId,
    })
    const { token, user } = sessionResponse.parse(verified.body)
    assert.equal(user.email, email)
    assert.match(user.accounts.eip155.address, /^0x[0-9a-fA-F]{40}$/)
    assert.match(user.accounts.solana.address, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    const me = await t.call('/embedded/v1/me', undefined, { token })
    assert.equal(me.status, 200)
    assert.deepEqual(embeddedUser.parse((me.body as { user: unknown }).user), user)
    // The same browser signed in with that address: CONNECT, no mail.
    const mails = t.mailTo(email).length
    assert.equal(emailConnectResponse.parse((await connect(email, deviceId, token)).body).action, 'CONNECT')
    assert.equal(t.mailTo(email).length, mails)
  })

  test('behavior: a code works once; a new code after the cooldown; codes expire after 10 minutes', async () => {
    const { email, deviceId } = await signIn()
    seconds(31)
    const again = emailConnectResponse.parse((await connect(email, deviceId)).body)
    assert.equal(again.action, 'VERIFY_OTP')
    const code = codeIn(t.mailTo(email)[0])
    const first = await t.call('/embedded/v1/email/verify', { loginId: again.loginId, otp: code, deviceId })
    assert.equal(first.status, 200)
    const second = await t.call('/embedded/v1/email/verify', { loginId: again.loginId, otp: code, deviceId })
    assert.equal(second.status, 400)
    assert.equal(errorOf(second.body).code, 'CODE_EXPIRED')

    seconds(31)
    const late = emailConnectResponse.parse((await connect(email, deviceId)).body)
    seconds(10 * 60 + 1)
    const expired = await t.call('/embedded/v1/email/verify', {
      loginId: late.loginId,
      otp: codeIn(t.mailTo(email)[0]),
      deviceId,
    })
    assert.equal(errorOf(expired.body).code, 'CODE_EXPIRED')
  })

  test('error: a second code within 30 s answers "Please try again after N seconds", enforced by the service', async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    assert.equal((await connect(email, deviceId)).status, 200)
    seconds(12)
    const refused = await connect(email, deviceId)
    assert.equal(refused.status, 429)
    const error = errorOf(refused.body)
    assert.equal(error.code, 'EMAIL_COOLDOWN')
    assert.equal(error.message, 'Please try again after 18 seconds')
    assert.equal(error.secondsLeft, 18)
    assert.equal(refused.headers['retry-after'], '18')
    assert.equal(t.mailTo(email).length, 1)
    seconds(18)
    assert.equal((await connect(email, deviceId)).status, 200)
    assert.equal(t.mailTo(email).length, 2)
    // Case does not make another address.
    seconds(5)
    assert.equal((await connect(email.toUpperCase(), deviceId)).status, 429)
  })

  test('behavior: the cooldown holds under 25 concurrent requests: one mail, 24 refusals', async () => {
    const email = freshEmail()
    const answers = await Promise.all(Array.from({ length: 25 }, () => connect(email, newDeviceId())))
    const statuses = answers.map((answer) => answer.status).sort()
    assert.deepEqual(statuses, [200, ...Array(24).fill(429)])
    for (const answer of answers.filter((candidate) => candidate.status === 429)) {
      assert.match(errorOf(answer.body).message, /^Please try again after (29|30) seconds$/)
    }
    assert.equal(t.mailTo(email).length, 1)
  })

  test('error: 5 wrong tries void the code, even with the right code after; tries left are counted down', async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    const { loginId } = emailConnectResponse.parse((await connect(email, deviceId)).body)
    const code = codeIn(t.mailTo(email)[0])
    const wrong = code === '000000' ? '111111' : '000000'
    for (let left = 4; left >= 1; left--) {
      const answer = await t.call('/embedded/v1/email/verify', { loginId, otp: wrong, deviceId })
      assert.equal(answer.status, 400)
      const error = errorOf(answer.body)
      assert.equal(error.code, 'INVALID_CODE')
      assert.equal(error.attemptsLeft, left)
    }
    const fifth = errorOf((await t.call('/embedded/v1/email/verify', { loginId, otp: wrong, deviceId })).body)
    assert.equal(fifth.code, 'CODE_EXPIRED')
    assert.equal(fifth.attemptsLeft, 0)
    const right = await t.call('/embedded/v1/email/verify', { loginId, otp: code, deviceId })
    assert.equal(errorOf(right.body).code, 'CODE_EXPIRED')
  })

  test('behavior: brute force in parallel: of 40 guesses at once only 5 are tried, the right one last is refused', async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    const { loginId } = emailConnectResponse.parse((await connect(email, deviceId)).body)
    const code = codeIn(t.mailTo(email)[0])
    const guesses = Array.from({ length: 40 }, (_, index) =>
      String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
    )
    const answers = await Promise.all(
      guesses.map((otp) => t.call('/embedded/v1/email/verify', { loginId, otp, deviceId })),
    )
    const codes = answers.map((answer) => errorOf(answer.body).code)
    assert.equal(codes.filter((name) => name === 'INVALID_CODE').length, 4)
    assert.equal(codes.filter((name) => name === 'CODE_EXPIRED').length, 36)
    const last = await t.call('/embedded/v1/email/verify', { loginId, otp: code, deviceId })
    assert.equal(errorOf(last.body).code, 'CODE_EXPIRED')
  })

  test('error: at most 10 sign-in mails an hour to one address', async () => {
    const email = freshEmail()
    for (let sent = 0; sent < 10; sent++) {
      assert.equal((await connect(email, newDeviceId())).status, 200)
      seconds(31)
    }
    const refused = errorOf((await connect(email, newDeviceId())).body)
    assert.equal(refused.code, 'EMAIL_COOLDOWN')
    assert.match(refused.message, /^Please try again after \d+ seconds$/)
    assert.ok((refused.secondsLeft ?? 0) > 30)
    seconds(3600)
    assert.equal((await connect(email, newDeviceId())).status, 200)
  })

  test('error: bad input answers 400 naming the field; nothing is mailed', async () => {
    const bad = await connect('not-an-email', newDeviceId())
    assert.equal(bad.status, 400)
    assert.deepEqual(errorOf(bad.body), {
      code: 'BAD_REQUEST',
      message: 'Invalid body field email: Invalid email address',
      field: 'email',
    })
    const code = await t.call('/embedded/v1/email/verify', {
      loginId: newDeviceId(),
      otp: '12345',
      deviceId: newDeviceId(),
    })
    assert.equal(errorOf(code.body).field, 'otp')
  })
})

describe('e-mail sign-in: mail', () => {
  test('error: a mail server that refuses answers 502 MAIL_FAILED and gives the cooldown back; no SMTP_URL answers 503', async () => {
    // A port nothing listens on: the mail server refuses every connection.
    const closed = await new Promise<number>((resolve) => {
      const server = createServer()
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo
        server.close(() => resolve(port))
      })
    })
    const refusing = await startEmbeddedTestApp(testDb, 'mail-refused', {
      smtpUrl: `smtp://127.0.0.1:${closed}`,
    })
    const unset = await startEmbeddedTestApp(testDb, 'mail-unset', { smtpUrl: null })
    try {
      const email = freshEmail()
      const body = { email, deviceId: newDeviceId(), origin: SITE }
      const first = await refusing.call('/embedded/v1/email/connect', body)
      assert.equal(first.status, 502)
      assert.deepEqual(errorOf(first.body), {
        code: 'MAIL_FAILED',
        message: 'The e-mail could not be sent: try again',
      })
      // No mail went out, so no cooldown started: trying again at once reaches the mail server again.
      const again = await refusing.call('/embedded/v1/email/connect', body)
      assert.equal(errorOf(again.body).code, 'MAIL_FAILED')
      assert.doesNotMatch(JSON.stringify(again.body), new RegExp(String(closed)))

      const off = await unset.call('/embedded/v1/email/connect', body)
      assert.equal(off.status, 503)
      assert.deepEqual(errorOf(off.body), {
        code: 'MAIL_FAILED',
        message: 'E-mail sign-in is not configured on this service (SMTP_URL)',
      })
      // The sink the other apps use saw none of it.
      assert.equal(t.mailTo(email).length, 0)
    } finally {
      await refusing.close()
      await unset.close()
    }
  })
})

const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36'

/** The browser key the frame registers with a session it earns (issue 23 item 6). */
const browserKey = newSessionKey()

/** A POST as the frame sends it, with a browser's User-Agent. */
async function callAs(userAgent: string, path: string, body: unknown) {
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
async function deviceStep(email: string, browser: string) {
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

describe('e-mail sign-in: a new browser', () => {
  test('default: a known address on a new browser gets VERIFY_DEVICE once its code is proven; the mailed link on the frame origin approves it with the code that browser shows', async () => {
    const { email } = await signIn()
    seconds(31)
    const newBrowser = newDeviceId()
    const { loginId, compareCode } = await deviceStep(email, newBrowser)
    assert.match(compareCode, /^[A-HJ-NP-Z2-9]{6}$/)
    const [mail] = t.mailTo(email)
    assert.match(mail?.subject ?? '', /^Approve a new browser for shop\.example$/)
    assert.match(mail?.text ?? '', /Chrome on Linux/)
    // The code to type is on the browser signing in, never in the mail.
    assert.ok(!(mail?.text ?? '').includes(compareCode))
    const link = /(http:\/\/127\.0\.0\.1:8788\/device#[A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1]
    assert.ok(link, 'the link goes to the frame origin')
    const token = link.split('#')[1]

    const pending = deviceWaitResponse.parse(
      (await t.call('/embedded/v1/device/wait', { loginId, deviceId: newBrowser })).body,
    )
    assert.equal(pending.status, 'pending')
    const details = deviceDetailsResponse.parse((await t.call('/embedded/v1/device/details', { token })).body)
    assert.deepEqual(
      { email: details.email, site: details.site, browser: details.browser, status: details.status },
      { email, site: SITE, browser: 'Chrome on Linux', status: 'pending' },
    )
    // Typed as people type: lower case, with a space.
    const typed = `${compareCode.slice(0, 3).toLowerCase()} ${compareCode.slice(3)}`
    const approved = deviceDetailsResponse.parse(
      (await t.call('/embedded/v1/device/approve', { token, code: typed })).body,
    )
    assert.equal(approved.status, 'approved')
    const done = deviceWaitResponse.parse(
      (await t.call('/embedded/v1/device/wait', { loginId, deviceId: newBrowser })).body,
    )
    assert.equal(done.status, 'approved')
    assert.ok(done.status === 'approved' && done.session.user.email === email)
    // The approval opens one session only.
    const replay = await t.call('/embedded/v1/device/wait', { loginId, deviceId: newBrowser })
    assert.equal(errorOf(replay.body).message, 'Action not allowed')
    // The browser is known now: the next sign-in's code opens a session at once.
    seconds(31)
    const next = emailConnectResponse.parse((await connect(email, newBrowser)).body)
    assert.equal(next.action, 'VERIFY_OTP')
    const session = await t.call('/embedded/v1/email/verify', {
      loginId: next.loginId,
      otp: codeIn(t.mailTo(email)[0]),
      deviceId: newBrowser,
    })
    assert.equal(sessionResponse.parse(session.body).user.email, email)
  })

  test('error: a denied link answers denied; an expired one cannot be approved; another browser cannot wait on it', async () => {
    const { email } = await signIn()
    seconds(31)
    const browser = newDeviceId()
    const { loginId, token } = await deviceStep(email, browser)
    const stranger = await t.call('/embedded/v1/device/wait', { loginId, deviceId: newDeviceId() })
    assert.equal(stranger.status, 403)
    assert.equal(
      deviceDetailsResponse.parse((await t.call('/embedded/v1/device/deny', { token })).body).status,
      'denied',
    )
    assert.equal(
      deviceWaitResponse.parse(
        (await t.call('/embedded/v1/device/wait', { loginId, deviceId: browser })).body,
      ).status,
      'denied',
    )

    seconds(31)
    const second = await deviceStep(email, browser)
    seconds(16 * 60)
    assert.equal(
      deviceDetailsResponse.parse(
        (await t.call('/embedded/v1/device/approve', { token: second.token, code: second.compareCode })).body,
      ).status,
      'expired',
    )
    const late = await t.call('/embedded/v1/device/wait', { loginId: second.loginId, deviceId: browser })
    assert.equal(errorOf(late.body).code, 'CODE_EXPIRED')
    assert.equal((await t.call('/embedded/v1/device/details', { token: 'x'.repeat(43) })).status, 404)
  })
})

describe('sessions and e-mail update', () => {
  test('default: update the e-mail with a code to the current address, then one to the new address', async () => {
    const { email, session } = await signIn()
    const newEmail = freshEmail()
    const started = await t.call('/embedded/v1/email/update', { email: newEmail }, { token: session.token })
    assert.equal(started.status, 200, JSON.stringify(started.body))
    assert.equal(started.body.action, 'VERIFY_PRIMARY_OTP')
    const updateId = started.body.updateId as string
    const primaryMail = t.mailTo(email)[0]
    assert.match(
      primaryMail?.text ?? '',
      new RegExp(`change your wallet's e-mail address to ${newEmail.replace(/\./g, '\\.')}`),
    )

    const wrongStep = await t.call(
      '/embedded/v1/email/update/secondary',
      { updateId, otp: '123456' },
      { token: session.token },
    )
    assert.equal(errorOf(wrongStep.body).message, 'Action not allowed')

    const primary = await t.call(
      '/embedded/v1/email/update/primary',
      { updateId, otp: codeIn(primaryMail) },
      { token: session.token },
    )
    assert.equal(primary.body.action, 'VERIFY_SECONDARY_OTP')
    const secondaryMail = t.mailTo(newEmail)[0]
    assert.ok(secondaryMail)
    const secondary = await t.call(
      '/embedded/v1/email/update/secondary',
      { updateId, otp: codeIn(secondaryMail) },
      { token: session.token },
    )
    assert.deepEqual(secondary.body, { email: newEmail })
    const me = await t.call('/embedded/v1/me', undefined, { token: session.token })
    assert.equal(embeddedUser.parse((me.body as { user: unknown }).user).email, newEmail)
    // Same accounts under the new address.
    assert.deepEqual(embeddedUser.parse((me.body as { user: unknown }).user).accounts, session.user.accounts)
  })

  test('error: an address in use, the same address, or no session are refused; sign-out ends the session', async () => {
    const alice = await signIn()
    const bob = await signIn()
    const taken = await t.call(
      '/embedded/v1/email/update',
      { email: bob.email },
      { token: alice.session.token },
    )
    assert.equal(taken.status, 409)
    assert.equal(errorOf(taken.body).message, 'This e-mail address is already in use')
    const same = await t.call(
      '/embedded/v1/email/update',
      { email: alice.email },
      { token: alice.session.token },
    )
    assert.equal(same.status, 400)
    assert.equal((await t.call('/embedded/v1/email/update', { email: freshEmail() })).status, 401)

    assert.equal((await t.call('/embedded/v1/sign-out', {}, { token: alice.session.token })).status, 204)
    assert.equal((await t.call('/embedded/v1/me', undefined, { token: alice.session.token })).status, 401)
    // A session of one project is nothing on another.
    assert.equal(
      (await t.call('/embedded/v1/me', undefined, { token: bob.session.token, project: 'dev-project' }))
        .status,
      401,
    )
  })
})

describe('the frame origin', () => {
  test('error: another origin, a cross-site fetch or a site off the allow-list get 403 and no mail', async () => {
    const email = freshEmail()
    const body = { email, deviceId: newDeviceId(), origin: SITE }
    const foreign = await t.call('/embedded/v1/email/connect', body, { origin: 'https://evil.example' })
    assert.equal(foreign.status, 403)
    assert.equal(foreign.headers['access-control-allow-origin'], undefined)
    const crossSite = await t.app.inject({
      method: 'POST',
      url: `/embedded/v1/email/connect?projectId=${t.projectId}`,
      headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json', 'x-wallet-site': SITE },
      payload: JSON.stringify(body),
    })
    assert.equal(crossSite.statusCode, 403)
    const offList = await t.call(
      '/embedded/v1/email/connect',
      { ...body, origin: 'https://evil.example' },
      { site: 'https://evil.example' },
    )
    assert.equal(offList.status, 403)
    assert.equal(errorOf(offList.body).message, 'Action not allowed')
    const mismatch = await t.call('/embedded/v1/email/connect', { ...body, origin: 'https://evil.example' })
    assert.equal(mismatch.status, 403)
    assert.equal(t.mailTo(email).length, 0)
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/embedded/v1/email/connect',
      headers: { origin: SITE, 'access-control-request-method': 'POST' },
    })
    assert.equal(preflight.headers['access-control-allow-origin'], undefined)
  })

  test('error: one client asking for more than 20 sign-ins a minute gets 429 with Retry-After', async () => {
    const answers = []
    for (let index = 0; index < 21; index++) {
      answers.push(await connect(freshEmail(), newDeviceId(), undefined, '10.9.9.9'))
    }
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [...Array(20).fill(200), 429],
    )
    const last = answers.at(-1)
    assert.equal(errorOf(last?.body).code, 'TOO_MANY_REQUESTS')
    assert.ok(Number(last?.headers['retry-after']) > 0)
  })

  test('default: the frame page carries CSP frame-ancestors from the project (and localhost in development); unknown projects and the approval page allow no ancestor', async () => {
    const page = await t.app.inject({
      url: `/?projectId=${t.projectId}&chainId=eip155:1&version=4&enableLogger=false`,
    })
    assert.equal(page.statusCode, 200)
    const csp = String(page.headers['content-security-policy'])
    assert.match(
      csp,
      /frame-ancestors https:\/\/shop\.example http:\/\/localhost:\* http:\/\/127\.0\.0\.1:\*(;|$)/,
    )
    assert.match(csp, /script-src 'self'/)
    assert.match(
      page.body,
      /"origins":\["https:\/\/shop\.example","http:\/\/localhost:\*","http:\/\/127\.0\.0\.1:\*"\]/,
    )
    const unknown = await t.app.inject({ url: '/?projectId=nobody' })
    assert.equal(unknown.statusCode, 404)
    assert.match(String(unknown.headers['content-security-policy']), /frame-ancestors 'none'/)
    const device = await t.app.inject({ url: '/device' })
    assert.match(String(device.headers['content-security-policy']), /frame-ancestors 'none'/)
    assert.equal(device.headers['x-frame-options'], 'DENY')
    // The approval window (issue 23 item 4a): a page must never frame it, to restyle or cover it.
    const approve = await t.app.inject({ url: '/approve' })
    assert.equal(approve.statusCode, 200)
    assert.match(String(approve.headers['content-security-policy']), /frame-ancestors 'none'/)
    assert.match(String(approve.headers['content-security-policy']), /script-src 'self'/)
    assert.equal(approve.headers['x-frame-options'], 'DENY')
    assert.equal((await t.app.inject({ url: '/assets/frame-abc.js' })).statusCode, 200)
    assert.equal((await t.app.inject({ url: '/assets/..%2Findex.html' })).statusCode, 404)
    assert.equal((await t.app.inject({ url: '/assets/../../../etc/passwd' })).statusCode, 404)
  })
})
