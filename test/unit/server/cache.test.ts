import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createTtlCache } from '../../../server/cache.ts'

function counter() {
  let calls = 0
  return {
    load: async () => ++calls,
    get calls() {
      return calls
    },
  }
}

describe('createTtlCache', () => {
  test('default: reuses a value until its time to live has passed', async () => {
    let clock = 0
    const cache = createTtlCache<number>({ ttlMs: 1000, now: () => clock })
    const source = counter()
    assert.equal(await cache.get('a', source.load), 1)
    clock = 999
    assert.equal(await cache.get('a', source.load), 1)
    clock = 1000
    assert.equal(await cache.get('a', source.load), 2)
    assert.equal(await cache.get('b', source.load), 3)
  })

  test('behavior: concurrent callers share one load', async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000 })
    const source = counter()
    const values = await Promise.all([cache.get('a', source.load), cache.get('a', source.load)])
    assert.deepEqual(values, [1, 1])
    assert.equal(source.calls, 1)
  })

  test('behavior: a failed load is not kept', async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000 })
    await assert.rejects(
      cache.get('a', () => Promise.reject(new Error('database down'))),
      /database down/,
    )
    assert.equal(await cache.get('a', async () => 7), 7)
  })

  test('behavior: ttlMs 0 loads every time; clear forgets', async () => {
    const off = createTtlCache<number>({ ttlMs: 0 })
    const source = counter()
    await off.get('a', source.load)
    await off.get('a', source.load)
    assert.equal(source.calls, 2)
    const on = createTtlCache<number>({ ttlMs: 1000 })
    await on.get('a', source.load)
    on.clear('a')
    assert.equal(await on.get('a', source.load), 4)
  })

  test('behavior: the oldest key goes first when full', async () => {
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 2 })
    const source = counter()
    await cache.get('a', source.load)
    await cache.get('b', source.load)
    await cache.get('c', source.load)
    assert.equal(await cache.get('b', source.load), 2)
    assert.equal(await cache.get('a', source.load), 4)
  })
})
