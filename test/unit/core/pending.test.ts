import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createConfig } from '../../../src/core/createConfig.ts'
import { trackPending } from '../../../src/core/pending.ts'

const ALICE = 'eip155:31337:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB = 'eip155:31337:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const hash = (index: number) => `0x${index.toString(16).padStart(64, '0')}`

describe('pending transactions (SPEC 9: at most 99)', () => {
  test('behavior: the 100th replaces the oldest, with a warning in the log; other accounts keep theirs', async () => {
    const config = createConfig({ enableLogger: true })
    for (let index = 0; index < 99; index++) trackPending(config, ALICE, hash(index))
    trackPending(config, BOB, hash(1_000))
    assert.equal(config.internal.pendingTransactions.get(ALICE)?.length, 99)
    assert.deepEqual(
      (await config.logger.entries()).filter((entry) => entry.level === 'warn'),
      [],
    )

    trackPending(config, ALICE, hash(99))
    const alice = config.internal.pendingTransactions.get(ALICE)
    assert.equal(alice?.length, 99)
    assert.equal(alice?.[0], hash(1), 'the oldest was replaced')
    assert.equal(alice?.at(-1), hash(99))
    assert.deepEqual(config.internal.pendingTransactions.get(BOB), [hash(1_000)])
    const warnings = (await config.logger.entries()).filter((entry) => entry.level === 'warn')
    assert.deepEqual(
      warnings.map(({ message, data }) => ({ message, data })),
      [
        {
          message: 'More than 99 pending transactions: the oldest is no longer tracked',
          data: { account: ALICE, dropped: hash(0) },
        },
      ],
    )
  })

  test('default: a confirmed transaction stops being tracked, and an account with none leaves no entry', () => {
    const config = createConfig({})
    const first = trackPending(config, ALICE, hash(1))
    const second = trackPending(config, ALICE, hash(2))
    first()
    assert.deepEqual(config.internal.pendingTransactions.get(ALICE), [hash(2)])
    second()
    second()
    assert.equal(config.internal.pendingTransactions.size, 0)
  })
})
