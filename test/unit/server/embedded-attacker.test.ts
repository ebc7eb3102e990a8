// The attacker test: with the database, the KEK, the logs and a heap snapshot, no signature in user custody.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { type Address, stringToHex } from 'viem'
import { updateProject } from '../../../server/projects/store.ts'
import { takeEverything, tryToSign } from './embedded-attacker.ts'
import { type EmbeddedTestApp, startEmbeddedTestApp } from './embedded-helpers.ts'
import { createAndApprove, signInWithKeys } from './embedded-keys-helpers.ts'
import { captureLogs, openTestDatabase, type TestDatabase } from './helpers.ts'

const EVM = 'eip155:31337'
let testDb: TestDatabase
const logs = captureLogs('trace')

before(async () => {
  testDb = await openTestDatabase('embedded_attacker')
})
after(async () => {
  await testDb?.close()
})

/** A person of a project in `custody` who set up keys like the frame and signed a message end to end. */
async function personWhoSigned(projectId: string, custody: 'user' | 'operator') {
  const t: EmbeddedTestApp = await startEmbeddedTestApp(testDb, projectId, {
    rpcUpstreams: { [EVM]: 'http://127.0.0.1:9' },
    logger: logs.logger,
  })
  await updateProject(testDb.database.db, projectId, { custody })
  const session = await signInWithKeys(t, `${custody}.${randomBytes(4).toString('hex')}@example.com`)
  const address = session.user.accounts.eip155.address as Address
  const { answer } = await createAndApprove(t, session, {
    chainId: EVM,
    method: 'personal_sign',
    params: [stringToHex('pay the shop'), address],
  })
  assert.equal(answer.status, 200, JSON.stringify(answer.body))
  return { t, address }
}

describe('the attacker who has everything the service has', () => {
  test('behavior: user custody: the tables, the KEK, every log line and a heap snapshot give no signature', async () => {
    const { t, address } = await personWhoSigned('attacked-user', 'user')
    try {
      const loot = await takeEverything(
        testDb.database.db,
        t.wallet.keks.all.map((kek) => kek.key),
        logs.lines,
      )
      assert.ok((loot.tables.wallet_share_sets ?? []).length >= 1, 'the share set is in the dump')
      assert.ok(loot.logs.length > 0 && loot.heapStrings.length > 1000, 'logs and heap were taken')
      assert.equal(await tryToSign(loot, address), undefined)
    } finally {
      await t.close()
    }
  })

  test('behavior: operator custody: the same script signs (so the test can fail)', async () => {
    const { t, address } = await personWhoSigned('attacked-operator', 'operator')
    try {
      const loot = await takeEverything(
        testDb.database.db,
        t.wallet.keks.all.map((kek) => kek.key),
        logs.lines,
      )
      assert.deepEqual(await tryToSign(loot, address), { how: 'two shares of one set' })
    } finally {
      await t.close()
    }
  })
})
