// A project switched from operator to user custody: whom the operator can still recover, and how each
// person leaves its custody (a new share set with their own recovery; the operator's copy deleted).
import assert from 'node:assert/strict'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import { type Address, stringToHex } from 'viem'
import { runCustodyCli } from '../../../server/cli/custody.ts'
import { walletShareSets } from '../../../server/db/schema.ts'
import { keysMessages } from '../../../server/embedded/userKeys.ts'
import { withSharedKeys } from '../../../src/frame/keys/shares.ts'
import {
  authShareResponse,
  embeddedErrorBody,
  recoveryShareResponse,
  walletKeyState,
} from '../../../src/protocol/embedded/index.ts'
import { takeEverything, tryToSign } from './embedded-attacker.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import {
  createAndApprove,
  frameKeysOf,
  insertLegacyUser,
  type SessionWithKeys,
  setupBody,
  shareBytes,
  signInWithKeys,
} from './embedded-keys-helpers.ts'
import { captureLogs, openTestDatabase, runCli, type TestDatabase } from './helpers.ts'

const EVM = 'eip155:31337'
const PROJECT = 'switched-project'
let testDb: TestDatabase
let t: EmbeddedTestApp
const logs = captureLogs('trace')

const errorOf = (body: unknown) => embeddedErrorBody.parse(body).error
const fresh = (name: string) => `${name}.${randomBytes(4).toString('hex')}@example.com`
const cli = (...argv: string[]) => runCli(testDb.database, ...argv)

/** A password-sealed recovery share as the frame stores it (the service never opens it). */
const passwordRecovery = () => ({
  method: 'password' as const,
  sealed: {
    version: 1 as const,
    kdf: { name: 'scrypt' as const, N: 2 ** 17, r: 8, p: 1, salt: randomBytes(16).toString('base64') },
    iv: randomBytes(12).toString('base64'),
    ciphertext: randomBytes(48).toString('base64'),
  },
})

/** What the frame does when the person sets up their own recovery: a new set of the same secret, sealed. */
async function secureLikeTheFrame(session: SessionWithKeys) {
  const next = await frameKeysOf(session.frame.secret)
  const previousSetId = session.keys.state === 'ready' ? session.keys.setId : ''
  const answer = await t.call(
    '/embedded/v1/keys/reshare',
    { ...setupBody(next, PROJECT, 'user'), previousSetId, recovery: passwordRecovery() },
    { token: session.token },
  )
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return { next, keys: walletKeyState.parse(answer.body.keys) }
}

const storedSet = async (userId: string) => {
  const [row] = await testDb.database.db
    .select()
    .from(walletShareSets)
    .where(eq(walletShareSets.userId, userId))
  assert.ok(row)
  return row
}

/** A folder of this file's own for the dev KEK file the custody CLI makes when it finds none. */
const kekFolder = mkdtempSync(join(tmpdir(), 'wallet-elements-custody-switch-'))
after(() => rmSync(kekFolder, { recursive: true, force: true }))

/** The `npm run custody -- status` lines (the test's KEKs: the data keys' lines do not matter here). */
async function custodyStatus() {
  const lines: string[] = []
  const code = await runCustodyCli(['status'], {
    database: testDb.database,
    config: {
      ...testDb.config().embedded,
      kek: null,
      kekPrevious: [],
      kekFile: join(kekFolder, 'kek'),
      production: false,
    },
    out: (line) => lines.push(line),
    err: (line) => lines.push(`ERR ${line}`),
  })
  assert.equal(code, 0, lines.join('\n'))
  return lines.filter((line) => line.startsWith(`${PROJECT} `)).join('\n')
}

before(async () => {
  testDb = await openTestDatabase('embedded_custody_switch')
  t = await startEmbeddedTestApp(testDb, PROJECT, {
    rpcUpstreams: { [EVM]: 'http://127.0.0.1:9' },
    logger: logs.logger,
  })
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

describe('a switch from operator to user custody', () => {
  let ada: SessionWithKeys
  let bob: SessionWithKeys

  test('default: set --custody user counts the people the operator can still recover; list and custody status show it until it is zero', async () => {
    const operator = await cli('set', '--id', PROJECT, '--custody', 'operator')
    assert.equal(operator.code, 0, operator.err)
    assert.match(operator.out, /custody operator: the operator can sign for every user of this project/)
    ada = await signInWithKeys(t, fresh('ada'))
    bob = await signInWithKeys(t, fresh('bob'))
    assert.deepEqual(ada.keys.state === 'ready' && ada.keys.recovery, ['operator'])

    const switched = await cli('set', '--id', PROJECT, '--custody', 'user')
    assert.equal(switched.code, 0, switched.err)
    assert.doesNotMatch(switched.out, /the operator can sign for every user/)
    assert.match(
      switched.out,
      /custody user: the operator can still recover 2 people of this project \(2 with a recovery share it holds\); each is asked to set up their own recovery at their next visit/,
    )
    assert.match((await cli('list')).out, /custody user: the operator can still recover 2 people/)
    assert.match(await custodyStatus(), /the operator can still recover 2 people/)

    // Where Ada's keys stand now: user custody, the recovery still the operator's (the frame asks her).
    const state = walletKeyState.parse(
      (await t.call('/embedded/v1/keys', undefined, { method: 'GET', token: ada.token })).body,
    )
    assert.equal(state.custody, 'user')
    assert.deepEqual(state.state === 'ready' && state.recovery, ['operator'])

    // Ada secures her wallet: one left.
    await secureLikeTheFrame(ada)
    assert.match((await cli('list')).out, /the operator can still recover 1 person of this project/)
    assert.match(await custodyStatus(), /the operator can still recover 1 person/)

    // Bob too: nobody is left, and list says nothing more of it.
    await secureLikeTheFrame(bob)
    const listed = await cli('list')
    assert.match(listed.out, new RegExp(`${PROJECT} {2}\\S+ {2}\\(analytics on\\) {2}custody user\\n`))
    assert.doesNotMatch(listed.out, /the operator can still recover/)
    assert.equal(await custodyStatus(), '')
    const again = await cli('set', '--id', PROJECT, '--custody', 'user')
    assert.match(again.out, /custody user: the operator can recover nobody of this project/)

    // Keys the service made before keys were split count too, until the frame moves them.
    await insertLegacyUser(testDb.database.db, t.wallet.custody, {
      id: randomUUID(),
      projectId: PROJECT,
      email: fresh('legacy'),
    })
    assert.match(
      (await cli('list')).out,
      /the operator can still recover 1 person of this project \(1 with keys it made and still keeps\)/,
    )
  })

  test("behavior: the person's own recovery comes with a new share set: the operator's recovery share is deleted, the old set retired", async () => {
    await cli('set', '--id', PROJECT, '--custody', 'operator')
    const carol = await signInWithKeys(t, fresh('carol'))
    await cli('set', '--id', PROJECT, '--custody', 'user')
    const before = await storedSet(carol.keys.userId)
    assert.equal(before.recoveryMethod, 'operator')
    assert.ok(before.recoveryShare, 'the operator holds the recovery share')

    // Sealing a recovery onto the set the operator holds the recovery of is refused: nothing changes.
    const sealedOnly = await t.call(
      '/embedded/v1/keys/recovery',
      { setId: before.setId, recovery: passwordRecovery() },
      { token: carol.token },
    )
    assert.equal(sealedOnly.status, 409)
    assert.equal(errorOf(sealedOnly.body).message, keysMessages.operatorHoldsRecovery)
    assert.deepEqual(await storedSet(carol.keys.userId), before)

    const { next, keys } = await secureLikeTheFrame(carol)
    assert.ok(keys.state === 'ready')
    assert.notEqual(keys.setId, before.setId)
    assert.deepEqual(keys.recovery, ['password'])
    assert.deepEqual(keys.addresses, carol.frame.addresses, 'the same accounts')
    const stored = await storedSet(carol.keys.userId)
    assert.equal(stored.recoveryShare, null, "the operator's recovery share is deleted")
    assert.equal(stored.recoveryMethod, 'password')
    assert.equal(stored.setId, next.setId)
    assert.ok(
      logs.lines.some(
        (line) =>
          line.includes('Embedded-wallet keys reshared') && line.includes('"operatorRecoveryDeleted":true'),
      ),
    )

    // What the service answers now: the sealed share, and an auth share of the new set only.
    const recovery = recoveryShareResponse.parse(
      (await t.call('/embedded/v1/keys/recovery-share', {}, { token: carol.token })).body,
    )
    assert.equal(recovery.method, 'password')
    const auth = authShareResponse.parse(
      (await t.call('/embedded/v1/keys/auth-share', {}, { token: carol.token })).body,
    )
    assert.equal(auth.setId, next.setId)
    // The person's own shares of the new set still open the wallet.
    assert.equal(
      await withSharedKeys(
        [next.shares.device, shareBytes(auth.authShare)],
        carol.frame.addresses,
        () => true,
      ),
      true,
    )
  })

  test('attack: the operator kept the recovery share it held; once the person has their own recovery, it and everything the service holds (tables, KEK, logs) sign nothing', async () => {
    await cli('set', '--id', PROJECT, '--custody', 'operator')
    const dana = await signInWithKeys(t, fresh('dana'))
    const address = dana.user.accounts.eip155.address as Address
    const keks = t.wallet.keks.all.map((kek) => kek.key)

    // Before the switch the operator can sign (the script works), and it keeps the recovery share it
    // holds: opened with its KEK, as `keys/recovery-share` answers it in operator custody.
    const backup = await takeEverything(testDb.database.db, keks, logs.lines)
    assert.deepEqual(await tryToSign(backup, address), { how: 'two shares of one set' })
    const held = recoveryShareResponse.parse(
      (await t.call('/embedded/v1/keys/recovery-share', {}, { token: dana.token })).body,
    )
    assert.ok(held.method === 'operator')
    const kept = shareBytes(held.recoveryShare)

    await cli('set', '--id', PROJECT, '--custody', 'user')
    // A client that only seals a recovery would leave the kept share opening the key: refused.
    const sealedOnly = await t.call(
      '/embedded/v1/keys/recovery',
      { setId: held.setId, recovery: passwordRecovery() },
      { token: dana.token },
    )
    assert.equal(sealedOnly.status, 409)
    await secureLikeTheFrame(dana)
    // The person still signs with the new set.
    const { answer } = await createAndApprove(t, dana, {
      chainId: EVM,
      method: 'personal_sign',
      params: [stringToHex('still mine'), address],
    })
    assert.equal(answer.status, 200, JSON.stringify(answer.body))

    // The operator tries its kept share with all it holds now: no signature.
    // (No heap: this process is the test's too, and it still holds what the person's frame sent.)
    const now = await takeEverything(testDb.database.db, keks, logs.lines)
    assert.equal(await tryToSign({ ...now, heapStrings: [], kept: [kept] }, address), undefined)
    // Its kept share and the current auth share, combined directly: refused (another set).
    const auth = authShareResponse.parse(
      (await t.call('/embedded/v1/keys/auth-share', {}, { token: dana.token })).body,
    )
    await assert.rejects(withSharedKeys([kept, shareBytes(auth.authShare)], dana.frame.addresses, () => true))

    // The limit: a backup taken before the switch still holds two shares of the old set, and a new
    // set splits the same secret: that backup still signs (see EMBEDDED-WALLET.md, Custody).
    assert.deepEqual(await tryToSign(backup, address), { how: 'two shares of one set' })
  })
})
