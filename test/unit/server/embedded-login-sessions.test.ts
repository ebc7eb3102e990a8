// E-mail sign-in on a new browser, sessions and e-mail update, and the frame origin.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  deviceDetailsResponse,
  deviceWaitResponse,
  emailConnectResponse,
  embeddedUser,
  sessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import { codeIn, newDeviceId, SITE } from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'
import {
  connect,
  deviceStep,
  errorOf,
  freshEmail,
  seconds,
  signIn,
  startLoginWallet,
  t,
} from './embedded-login-helpers.ts'

startLoginWallet()

describe('e-mail sign-in: a new browser', () => {
  test('behavior: two new browsers, each code proven in its turn, each get their approval link, however soon the second comes after the first link', async () => {
    const { email } = await signIn()
    seconds(31)
    const links: string[] = []
    // The first browser's code is typed 10 s after it came; the second browser asks for its code 30 s
    // after the first code (its wait), and types it at once: 20 s after the first link.
    for (const [before, typing] of [
      [0, 10],
      [20, 0],
    ] as const) {
      seconds(before)
      const browser = newDeviceId()
      const started = emailConnectResponse.parse((await connect(email, browser)).body)
      assert.equal(started.action, 'VERIFY_OTP')
      const code = codeIn(t.mailTo(email)[0])
      seconds(typing)
      const verified = await t.call('/embedded/v1/email/verify', {
        loginId: started.loginId,
        otp: code,
        deviceId: browser,
      })
      assert.equal(verified.status, 200, JSON.stringify(verified.body))
      assert.equal((verified.body as { action?: string }).action, 'VERIFY_DEVICE')
      links.push(t.mailTo(email)[0]?.subject ?? '')
    }
    // Each code waited its 30 s; the links need not.
    assert.deepEqual(links, [
      'Approve a new browser for shop.example',
      'Approve a new browser for shop.example',
    ])
  })

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
    assert.ok(done.status === 'approved' && (await ensureKeys(t, done.session)).user.email === email)
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
    assert.equal(sessionResponse.parse(session.body).user?.email, email)
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
    assert.deepEqual(embeddedUser.parse((me.body as { user: unknown }).user).accounts, session.user?.accounts)
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
    // The approval window (against clickjacking where there is no IOv2): a page must never frame it, to
    // restyle or cover it.
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
