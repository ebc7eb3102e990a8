// Export and leave: the keys after a fresh code, to the session's browser only, never
// logged or cached; the wallet's deletion after an export; every refusal with its message.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { eq } from 'drizzle-orm'
import { pino } from 'pino'
import { bytesToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  walletExports,
  walletIdentities,
  walletKeys,
  walletSessions,
  walletUsers,
} from '../../../server/db/schema.ts'
import { phraseOf } from '../../../src/frame/keys/secret.ts'
import { withSharedKeys } from '../../../src/frame/keys/shares.ts'
import {
  emailConnectResponse,
  embeddedUser,
  exportCodeResponse,
  exportResponse,
  sessionResponse,
  walletDeletedResponse,
} from '../../../src/protocol/embedded/index.ts'
import { decodeBase58, encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import {
  clock,
  codeIn,
  type EmbeddedTestApp,
  newDeviceId,
  newSessionKey,
  SITE,
  startEmbeddedTestApp,
} from './embedded-helpers.ts'
import { ensureKeys, type SessionWithKeys, shareBytes } from './embedded-keys-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
let t: EmbeddedTestApp
/** Every line the service logged, at every level. */
const logLines: string[] = []
let counter = 0
const freshEmail = () => `leaver${++counter}.${Date.now()}@example.com`
const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string }

before(async () => {
  testDb = await openTestDatabase('embedded_export')
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk))
      done()
    },
  })
  t = await startEmbeddedTestApp(testDb, 'export-project', { logger: pino({ level: 'trace' }, sink) })
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

/** The keys the frame shows: its device share and the exported auth share combined. */
async function exportedKeys(
  frame: SessionWithKeys['frame'],
  authShare: string,
  accounts: { eip155: { address: string }; solana: { address: string } },
) {
  const expected = { eip155: accounts.eip155.address as `0x${string}`, solana: accounts.solana.address }
  return withSharedKeys([frame.shares.device, shareBytes(authShare)], expected, (keys, secret) => {
    const pair = new Uint8Array(64)
    pair.set(keys.ed25519, 0)
    pair.set(ed25519.getPublicKey(keys.ed25519), 32)
    return {
      evmPrivateKey: bytesToHex(keys.secp256k1),
      solanaSecretKey: encodeBase58(pair),
      recoveryPhrase: phraseOf(secret) ?? null,
    }
  })
}

async function signIn(email = freshEmail(), deviceId = newDeviceId()) {
  const started = emailConnectResponse.parse(
    (await t.call('/embedded/v1/email/connect', { email, deviceId, origin: SITE })).body,
  )
  const verified = await t.call('/embedded/v1/email/verify', {
    loginId: started.loginId,
    otp: codeIn(t.mailTo(email)[0]),
    deviceId,
  })
  assert.equal(verified.status, 200, JSON.stringify(verified.body))
  const session = await ensureKeys(t, sessionResponse.parse(verified.body))
  return { email, deviceId, session, loginId: started.loginId ?? '' }
}

/** Mails a fresh code for `purpose`; answers its id and the code from the mail. */
async function freshCode(token: string, email: string, purpose: 'export' | 'delete') {
  const asked = await t.call('/embedded/v1/export/code', { purpose }, { token })
  assert.equal(asked.status, 200, JSON.stringify(asked.body))
  const { codeId } = exportCodeResponse.parse(asked.body)
  const [mail] = t.mailTo(email)
  assert.match(mail?.subject ?? '', new RegExp(`is your code to ${purpose} your wallet$`))
  return { codeId, otp: codeIn(mail) }
}

describe('export: the keys after a fresh code', () => {
  test('default: the auth share, with the device share, opens the same accounts (EVM hex, Solana base58 of 64 bytes) and the phrase; no-store, recorded', async () => {
    const { email, session } = await signIn()
    const code = await freshCode(session.token, email, 'export')
    const answer = await t.call('/embedded/v1/export', code, { token: session.token })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))
    assert.equal(answer.headers['cache-control'], 'no-store')
    const { setId, authShare } = exportResponse.parse(answer.body)
    assert.equal(setId, session.keys.state === 'ready' ? session.keys.setId : '')
    // What the frame does with it: device share + auth share -> the keys it shows.
    const frame = (session as SessionWithKeys).frame
    const keys = await exportedKeys(frame, authShare, session.user.accounts)
    assert.equal(
      privateKeyToAccount(keys.evmPrivateKey as `0x${string}`).address,
      session.user.accounts.eip155.address,
    )
    const pair = decodeBase58(keys.solanaSecretKey)
    assert.equal(pair?.length, 64)
    assert.ok(pair)
    assert.deepEqual(ed25519.getPublicKey(pair.slice(0, 32)), pair.slice(32))
    // A secret made in the frame has a phrase (legacy keys, migrated, have none).
    assert.equal(keys.recoveryPhrase?.split(' ').length, 12)
    assert.equal(encodeBase58(pair.slice(32)), session.user.accounts.solana.address)
    const records = await testDb.database.db
      .select()
      .from(walletExports)
      .where(eq(walletExports.projectId, t.projectId))
    // Recorded: the time and the session, no column that could hold a key.
    assert.ok(records.length >= 1)
    assert.deepEqual(Object.keys(records[0] ?? {}).sort(), [
      'deletedAt',
      'exportedAt',
      'id',
      'projectId',
      'sessionId',
      'userId',
    ])
    const me = await t.call('/embedded/v1/me', undefined, { token: session.token })
    assert.equal(embeddedUser.parse((me.body as { user: unknown }).user).exported, true)
  })

  test('behavior: no line the service logs holds a key, a share or a part of one', async () => {
    const { email, session } = await signIn()
    logLines.length = 0
    const code = await freshCode(session.token, email, 'export')
    const exported = exportResponse.parse(
      (await t.call('/embedded/v1/export', code, { token: session.token })).body,
    )
    const log = logLines.join('')
    assert.ok(log.includes('Embedded-wallet keys exported'), 'the export is logged (without its keys)')
    const frame = (session as SessionWithKeys).frame
    const keys = await exportedKeys(frame, exported.authShare, session.user.accounts)
    for (const secret of [keys.evmPrivateKey.slice(2), keys.solanaSecretKey, exported.authShare]) {
      for (let start = 0; start + 12 <= secret.length; start += 6)
        assert.ok(!log.includes(secret.slice(start, start + 12)), 'a piece of a key reached the log')
    }
  })

  test('error: a second export code within the cooldown: EMAIL_COOLDOWN, Please try again after N seconds', async () => {
    const { email, session } = await signIn()
    await freshCode(session.token, email, 'export')
    const again = await t.call('/embedded/v1/export/code', { purpose: 'export' }, { token: session.token })
    assert.equal(errorOf(again.body).code, 'EMAIL_COOLDOWN')
    assert.match(errorOf(again.body).message, /^Please try again after \d+ seconds?$/)
  })

  test('error: without a session: 401 Sign in to the wallet first', async () => {
    const { email, session } = await signIn()
    const code = await freshCode(session.token, email, 'export')
    const answer = await t.call('/embedded/v1/export', code)
    assert.equal(answer.status, 401)
    assert.equal(errorOf(answer.body).message, 'Sign in to the wallet first')
  })

  test("error: the session's token from another browser (its own key): 401, and the code still works here", async () => {
    const { email, session } = await signIn()
    const code = await freshCode(session.token, email, 'export')
    const thief = await t.call('/embedded/v1/export', code, { token: session.token, key: newSessionKey() })
    assert.equal(thief.status, 401)
    assert.equal(errorOf(thief.body).message, 'Sign in to the wallet first')
    assert.equal((await t.call('/embedded/v1/export', code, { token: session.token })).status, 200)
  })

  test('error: a code used once: 400 This code has expired or was already used: ask for a new one', async () => {
    const { email, session } = await signIn()
    const code = await freshCode(session.token, email, 'export')
    assert.equal((await t.call('/embedded/v1/export', code, { token: session.token })).status, 200)
    const again = await t.call('/embedded/v1/export', code, { token: session.token })
    assert.equal(again.status, 400)
    assert.equal(errorOf(again.body).message, 'This code has expired or was already used: ask for a new one')
  })

  test('error: a stale code (past its 10 minutes): 400 CODE_EXPIRED', async () => {
    const { email, session } = await signIn()
    const code = await freshCode(session.token, email, 'export')
    clock.now += 10 * 60_000 + 1
    const stale = await t.call('/embedded/v1/export', code, { token: session.token })
    assert.equal(stale.status, 400)
    assert.equal(errorOf(stale.body).code, 'CODE_EXPIRED')
    assert.equal(errorOf(stale.body).message, 'This code has expired or was already used: ask for a new one')
  })

  test('error: an older export code once a newer one is mailed (one live code per address): 400 CODE_EXPIRED', async () => {
    const { email, session } = await signIn()
    const older = await freshCode(session.token, email, 'export')
    clock.now += 31_000
    const newer = await freshCode(session.token, email, 'export')
    const refused = await t.call('/embedded/v1/export', older, { token: session.token })
    assert.equal(refused.status, 400)
    assert.equal(errorOf(refused.body).code, 'CODE_EXPIRED')
    assert.equal((await t.call('/embedded/v1/export', newer, { token: session.token })).status, 200)
  })

  test('error: a wrong code: 400 Invalid code: 4 tries left', async () => {
    const { email, session } = await signIn()
    const code = await freshCode(session.token, email, 'export')
    const wrong = await t.call(
      '/embedded/v1/export',
      { codeId: code.codeId, otp: code.otp === '000000' ? '111111' : '000000' },
      { token: session.token },
    )
    assert.equal(wrong.status, 400)
    assert.equal(errorOf(wrong.body).message, 'Invalid code: 4 tries left')
  })

  test('error: a sign-in code, unused, does not count: 400 This code has expired or was already used: ask for a new one', async () => {
    const { email, deviceId, session } = await signIn()
    clock.now += 31_000
    // A new sign-in code to the same address from the same browser, never typed.
    const started = emailConnectResponse.parse(
      (await t.call('/embedded/v1/email/connect', { email, deviceId, origin: SITE })).body,
    )
    assert.equal(started.action, 'VERIFY_OTP')
    const answer = await t.call(
      '/embedded/v1/export',
      { codeId: started.loginId, otp: codeIn(t.mailTo(email)[0]) },
      { token: session.token },
    )
    assert.equal(answer.status, 400)
    assert.equal(errorOf(answer.body).message, 'This code has expired or was already used: ask for a new one')
  })

  test('error: a delete code does not export: 400 CODE_EXPIRED', async () => {
    const { email, session } = await signIn()
    const first = await freshCode(session.token, email, 'export')
    assert.equal((await t.call('/embedded/v1/export', first, { token: session.token })).status, 200)
    clock.now += 31_000
    const deleteCode = await freshCode(session.token, email, 'delete')
    const answer = await t.call('/embedded/v1/export', deleteCode, { token: session.token })
    assert.equal(answer.status, 400)
    assert.equal(errorOf(answer.body).code, 'CODE_EXPIRED')
  })
})

describe('delete: after an export, with a second fresh code', () => {
  test('error: before any export: 409 Export your wallet before you delete it: its keys would be lost', async () => {
    const { session } = await signIn()
    const asked = await t.call('/embedded/v1/export/code', { purpose: 'delete' }, { token: session.token })
    assert.equal(asked.status, 409)
    assert.deepEqual(errorOf(asked.body), {
      code: 'EXPORT_FIRST',
      message: 'Export your wallet before you delete it: its keys would be lost',
    })
    const direct = await t.call(
      '/embedded/v1/wallet/delete',
      { codeId: 'AAAAAAAAAAAAAAAAAAAAAA', otp: '123456' },
      { token: session.token },
    )
    assert.equal(direct.status, 409)
    assert.equal(errorOf(direct.body).code, 'EXPORT_FIRST')
  })

  test('default: the user, keys, identities and sessions go (every browser signed out); the export record stays; the same address later gets a new wallet', async () => {
    const { email, session } = await signIn()
    // A second browser of the same person (approved via the device step is not needed: same device id).
    const exportCode = await freshCode(session.token, email, 'export')
    assert.equal((await t.call('/embedded/v1/export', exportCode, { token: session.token })).status, 200)
    clock.now += 31_000
    const deleteCode = await freshCode(session.token, email, 'delete')
    const deleted = await t.call('/embedded/v1/wallet/delete', deleteCode, { token: session.token })
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body))
    assert.equal(walletDeletedResponse.parse(deleted.body).revoked, 1)
    const db = testDb.database.db
    const userId = (
      await db.select().from(walletExports).where(eq(walletExports.projectId, t.projectId))
    ).find((row) => row.deletedAt !== null)?.userId
    assert.ok(userId, 'the export record stays, marked deleted')
    assert.equal((await db.select().from(walletUsers).where(eq(walletUsers.id, userId))).length, 0)
    assert.equal((await db.select().from(walletKeys).where(eq(walletKeys.userId, userId))).length, 0)
    assert.equal((await db.select().from(walletSessions).where(eq(walletSessions.userId, userId))).length, 0)
    assert.equal(
      (await db.select().from(walletIdentities).where(eq(walletIdentities.userId, userId))).length,
      0,
    )

    // Signed out: the old session answers 401, and so does an export of the deleted user.
    const me = await t.call('/embedded/v1/me', undefined, { token: session.token })
    assert.equal(me.status, 401)
    const again = await t.call('/embedded/v1/export/code', { purpose: 'export' }, { token: session.token })
    assert.equal(again.status, 401)
    assert.equal(errorOf(again.body).message, 'Sign in to the wallet first')

    clock.now += 31_000
    const back = await signIn(email)
    assert.notEqual(back.session.user.accounts.eip155.address, session.user.accounts.eip155.address)
    assert.notEqual(back.session.user.accounts.solana.address, session.user.accounts.solana.address)
    const meAgain = await t.call('/embedded/v1/me', undefined, { token: back.session.token })
    assert.equal(embeddedUser.parse((meAgain.body as { user: unknown }).user).exported, undefined)
  })

  test('error: an export code does not delete: 400 CODE_EXPIRED, and the wallet stays', async () => {
    const { email, session } = await signIn()
    const first = await freshCode(session.token, email, 'export')
    assert.equal((await t.call('/embedded/v1/export', first, { token: session.token })).status, 200)
    clock.now += 31_000
    const second = await freshCode(session.token, email, 'export')
    const answer = await t.call('/embedded/v1/wallet/delete', second, { token: session.token })
    assert.equal(answer.status, 400)
    assert.equal(errorOf(answer.body).code, 'CODE_EXPIRED')
    assert.equal((await t.call('/embedded/v1/me', undefined, { token: session.token })).status, 200)
  })
})
