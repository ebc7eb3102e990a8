/**
 * The device-approval mail, and sign-in codes, mail and rate-limit buckets, written as the attacks were
 * made: with plain HTTP requests against the frame origin's routes, as curl sends them, on a real database
 * and a real mail sink. Each test failed on the code before the fix (noted per test) and passes now.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createRateLimiter } from '../../../server/http/rateLimit.ts'
import {
  deviceDetailsResponse,
  deviceWaitResponse,
  emailConnectResponse,
  emailVerifyResponse,
  embeddedErrorBody,
  sessionResponse,
} from '../../../src/protocol/embedded/index.ts'
import {
  clock,
  codeIn,
  type EmbeddedTestApp,
  frameWallet,
  newDeviceId,
  SITE,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { ensureKeys } from './embedded-keys-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
let t: EmbeddedTestApp
let base = ''
let counter = 0
const freshEmail = () => `target${++counter}.${Date.now()}@example.com`
const seconds = (n: number) => {
  clock.now += n * 1000
}
const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error
const linkIn = (text: string | undefined) => /device#([A-Za-z0-9_-]{43})/.exec(text ?? '')?.[1]

before(async () => {
  testDb = await openTestDatabase('embedded_login_attacks')
  t = await startEmbeddedTestApp(testDb, 'attacks-project')
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

function connect(email: string, deviceId: string, ip?: string) {
  return t.call('/embedded/v1/email/connect', { email, deviceId, origin: SITE }, ip ? { ip } : {})
}

/** The victim: an address with a wallet, signed in once on their own browser. */
async function victim() {
  const email = freshEmail()
  const deviceId = newDeviceId()
  const started = emailConnectResponse.parse((await connect(email, deviceId)).body)
  const verified = await t.call('/embedded/v1/email/verify', {
    loginId: started.loginId,
    otp: codeIn(t.mailTo(email)[0]),
    deviceId,
  })
  sessionResponse.parse(verified.body)
  seconds(31)
  return { email, deviceId }
}

describe('the device-approval mail', () => {
  // Before: `email/connect` answered the attacker VERIFY_DEVICE and mailed the victim a link; one click
  // on Approve and the attacker's `device/wait` returned a session on the victim's wallet.
  test('error: an attacker who asks for a victim address gets no approval mail sent, and the victim clicking what arrives gives the attacker nothing', async () => {
    const { email } = await victim()
    const attackerBrowser = newDeviceId()
    const asked = await connect(email, attackerBrowser, '203.0.113.66')
    assert.equal(asked.status, 200)
    const { action, loginId } = emailConnectResponse.parse(asked.body)
    assert.equal(action, 'VERIFY_OTP', 'the attacker is asked for a code, as for any address')
    const [mail] = t.mailTo(email)
    assert.ok(mail)
    assert.match(mail.subject, /^\d{6} is your sign-in code$/)
    const token = linkIn(mail.text)
    assert.equal(token, undefined, 'no approval link went to the victim')
    // The victim "clicks" whatever link there would be: nothing to approve, nothing to wait on.
    if (token) await t.call('/embedded/v1/device/approve', { token, code: 'AAAAAA' })
    const waited = await t.call('/embedded/v1/device/wait', { loginId, deviceId: attackerBrowser })
    assert.equal(waited.status, 403)
    assert.equal(errorOf(waited.body).message, 'Action not allowed')
  })

  // Before: `device/approve` took the link's secret alone: whoever opened the mail approved the browser
  // with one click, whatever browser it was.
  test('error: the link approves nothing without the code the signing-in browser shows; a wrong code denies that browser', async () => {
    const { email } = await victim()
    const browser = newDeviceId()
    const started = emailConnectResponse.parse((await connect(email, browser)).body)
    const verified = emailVerifyResponse.parse(
      (
        await t.call('/embedded/v1/email/verify', {
          loginId: started.loginId,
          otp: codeIn(t.mailTo(email)[0]),
          deviceId: browser,
        })
      ).body,
    )
    assert.ok('action' in verified)
    const token = linkIn(t.mailTo(email)[0]?.text) ?? ''
    const details = deviceDetailsResponse.parse((await t.call('/embedded/v1/device/details', { token })).body)
    assert.equal(details.site, SITE)
    assert.ok(details.requestedAt)

    const click = await t.call('/embedded/v1/device/approve', { token })
    assert.equal(click.status, 400)
    assert.equal(errorOf(click.body).field, 'code')
    const wrong = verified.compareCode === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA'
    const guessed = await t.call('/embedded/v1/device/approve', { token, code: wrong })
    assert.equal(guessed.status, 400)
    assert.deepEqual(errorOf(guessed.body), {
      code: 'INVALID_CODE',
      message:
        'The code does not match: that browser was not approved. Sign in again from it for a new link.',
      attemptsLeft: 0,
    })
    // One try: the right code after a wrong one approves nothing either.
    const late = deviceDetailsResponse.parse(
      (await t.call('/embedded/v1/device/approve', { token, code: verified.compareCode })).body,
    )
    assert.equal(late.status, 'denied')
    const waited = deviceWaitResponse.parse(
      (await t.call('/embedded/v1/device/wait', { loginId: verified.loginId, deviceId: browser })).body,
    )
    assert.equal(waited.status, 'denied')
  })
})

describe('codes, mail and buckets', () => {
  // Before: a known address on a new browser answered VERIFY_DEVICE (and an approval mail), an unknown
  // one VERIFY_OTP: anyone could tell which addresses have a wallet.
  test('error: known and unknown addresses get the same answer and the same mail before a code is proven', async () => {
    const { email: known } = await victim()
    const unknown = freshEmail()
    const a = await connect(known, newDeviceId())
    const b = await connect(unknown, newDeviceId())
    assert.equal(a.status, b.status)
    const answerA = emailConnectResponse.parse(a.body)
    const answerB = emailConnectResponse.parse(b.body)
    assert.deepEqual(Object.keys(a.body).sort(), Object.keys(b.body).sort())
    assert.equal(answerA.action, 'VERIFY_OTP')
    assert.equal(answerB.action, 'VERIFY_OTP')
    assert.equal(answerA.resendAfterSeconds, answerB.resendAfterSeconds)
    const mailA = t.mailTo(known)[0]
    const mailB = t.mailTo(unknown)[0]
    assert.equal(
      mailA?.subject.replace(/\d{6}/, 'N'),
      mailB?.subject.replace(/\d{6}/, 'N'),
      'the same mail either way',
    )
  })

  // Before: every code mailed stayed valid for its 10 minutes, so several live codes could be guessed at.
  test('error: a new code voids the older ones: one live code per address', async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    const first = emailConnectResponse.parse((await connect(email, deviceId)).body)
    const firstCode = codeIn(t.mailTo(email)[0])
    seconds(31)
    const second = emailConnectResponse.parse((await connect(email, deviceId)).body)
    const secondCode = codeIn(t.mailTo(email)[0])
    const old = await t.call('/embedded/v1/email/verify', {
      loginId: first.loginId,
      otp: firstCode,
      deviceId,
    })
    assert.equal(old.status, 400)
    assert.equal(errorOf(old.body).code, 'CODE_EXPIRED')
    const current = await t.call('/embedded/v1/email/verify', {
      loginId: second.loginId,
      otp: secondCode,
      deviceId,
    })
    assert.equal(current.status, 200)
  })

  // Before: the code was spent, then the browser compared: a code typed into another browser (a phished
  // one) was used up, and tries from other browsers counted against the real one.
  test('error: a code from another browser is refused before it is spent or counted; the asking browser still uses it', async () => {
    const email = freshEmail()
    const deviceId = newDeviceId()
    const { loginId } = emailConnectResponse.parse((await connect(email, deviceId)).body)
    const code = codeIn(t.mailTo(email)[0])
    const elsewhere = newDeviceId()
    for (let attempt = 0; attempt < 6; attempt++) {
      const stolen = await t.call('/embedded/v1/email/verify', { loginId, otp: code, deviceId: elsewhere })
      assert.equal(stolen.status, 403)
      assert.equal(errorOf(stolen.body).message, 'Action not allowed')
    }
    const own = await t.call('/embedded/v1/email/verify', { loginId, otp: code, deviceId })
    assert.equal(own.status, 200, JSON.stringify(own.body))
    assert.equal((await ensureKeys(t, sessionResponse.parse(own.body))).user.email, email)
  })

  // Before: only per client: 200 addresses from 200 clients made 200 mails.
  test('error: many clients mailing many addresses meet the project budget (WALLET_MAILS_PER_HOUR)', async () => {
    const budgeted = await startEmbeddedTestApp(testDb, 'attacks-budget', { mailsPerHour: 5 })
    try {
      const addresses = Array.from({ length: 8 }, () => freshEmail())
      const answers = []
      for (const [index, email] of addresses.entries()) {
        answers.push(
          await budgeted.call(
            '/embedded/v1/email/connect',
            { email, deviceId: newDeviceId(), origin: SITE },
            { ip: `198.51.100.${index + 1}` },
          ),
        )
      }
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 200, 200, 200, 200, 429, 429, 429],
      )
      const refused = errorOf(answers[5]?.body)
      assert.equal(refused.code, 'EMAIL_COOLDOWN')
      assert.match(refused.message, /^Please try again after \d+ seconds$/)
      const mailed = addresses.filter((email) => budgeted.mailTo(email).length > 0)
      assert.equal(mailed.length, 5)
      // The budget is per hour.
      seconds(3601)
      const later = await budgeted.call(
        '/embedded/v1/email/connect',
        { email: freshEmail(), deviceId: newDeviceId(), origin: SITE },
        { ip: '198.51.100.99' },
      )
      assert.equal(later.status, 200)
    } finally {
      await budgeted.close()
    }
  })

  // Before: the bucket was named by the raw `projectId` before the project was looked up: 10,000
  // requests with 14 KB made-up ids held 231 MB. Now unknown ids share one bucket per client.
  test('error: made-up 14 KB project ids share one bucket: bounded memory, and the shared bucket runs out', async () => {
    const limiter = createRateLimiter(testDb.database)
    const before = await limiter.size()
    const ip = '192.0.2.77'
    const statuses: number[] = []
    for (let index = 0; index < 60; index++) {
      const madeUp = `${index}-${'x'.repeat(14 * 1024)}`
      const answer = await t.call(
        '/embedded/v1/email/connect',
        { email: freshEmail(), deviceId: newDeviceId(), origin: SITE },
        { ip, project: madeUp },
      )
      statuses.push(answer.status)
    }
    const grown = await limiter.size()
    assert.ok(grown.buckets - before.buckets <= 1, `buckets grew by ${grown.buckets - before.buckets}`)
    assert.ok(
      grown.keyChars - before.keyChars < 200,
      `keys grew by ${grown.keyChars - before.keyChars} characters`,
    )
    // RATE_LIMIT_WALLET (20 a minute) for all of them together.
    assert.equal(statuses.filter((status) => status === 401).length, 20)
    assert.equal(statuses.filter((status) => status === 429).length, 40)
    // Well-formed unknown ids land in the same shared bucket.
    const unknown = await t.call(
      '/embedded/v1/email/connect',
      { email: freshEmail(), deviceId: newDeviceId(), origin: SITE },
      { ip, project: 'no-such-project' },
    )
    assert.equal(unknown.status, 429)
    // A real project's bucket is its own: the same client still reaches it.
    const real = await connect(freshEmail(), newDeviceId(), ip)
    assert.equal(real.status, 200)
  })
})

describe('device approval after a proven code: the frame follows', () => {
  test('behavior: the frame answers VERIFY_OTP for a known address on a new browser, then VERIFY_DEVICE with the compare code from CONNECT_OTP; CONNECT_DEVICE connects once the code is typed on the link page', async () => {
    const email = freshEmail()
    const home = frameWallet(t, base)
    await home.ask('CONNECT_EMAIL', { email })
    await home.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    const address = ((await home.ask('GET_USER', {})).payload as { address: string }).address
    seconds(31)

    const fresh = frameWallet(t, base)
    const asked = await fresh.ask('CONNECT_EMAIL', { email })
    assert.deepEqual(asked, {
      type: 'CONNECT_EMAIL_SUCCESS',
      payload: { action: 'VERIFY_OTP', resendAfterSeconds: 30 },
    })
    // Before the code, the device step cannot be waited on.
    assert.equal((await fresh.ask('CONNECT_DEVICE', {})).type, 'CONNECT_DEVICE_ERROR')
    const proven = await fresh.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
    assert.equal(proven.type, 'CONNECT_OTP_SUCCESS')
    const { action, compareCode } = proven.payload as { action?: string; compareCode?: string }
    assert.equal(action, 'VERIFY_DEVICE')
    assert.match(compareCode ?? '', /^[A-HJ-NP-Z2-9]{6}$/)
    const token = linkIn(t.mailTo(email)[0]?.text) ?? ''
    const approved = await t.call('/embedded/v1/device/approve', { token, code: compareCode })
    assert.equal(deviceDetailsResponse.parse(approved.body).status, 'approved')
    assert.deepEqual(await fresh.ask('CONNECT_DEVICE', {}), { type: 'CONNECT_DEVICE_SUCCESS', payload: {} })
    assert.equal(((await fresh.ask('GET_USER', {})).payload as { address: string }).address, address)
  })
})
