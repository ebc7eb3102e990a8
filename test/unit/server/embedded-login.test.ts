// E-mail sign-in: the codes and the mail they arrive in.
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { describe, test } from 'node:test'
import { emailConnectResponse, embeddedUser, sessionResponse } from '../../../src/protocol/embedded/index.ts'
import { codeIn, newDeviceId, SITE, startEmbeddedTestApp } from './embedded-helpers.ts'
import { setupKeysLikeTheFrame } from './embedded-keys-helpers.ts'
import {
  connect,
  errorOf,
  freshEmail,
  seconds,
  signIn,
  startLoginWallet,
  t,
  testDb,
} from './embedded-login-helpers.ts'

startLoginWallet()

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
    const signedIn = sessionResponse.parse(verified.body)
    const { token } = signedIn
    // A new person: no keys, so no accounts and no user yet; the frame sets the keys up.
    assert.equal(signedIn.keys.state, 'none')
    assert.equal(signedIn.user, undefined)
    const { user } = await setupKeysLikeTheFrame(t, signedIn)
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
