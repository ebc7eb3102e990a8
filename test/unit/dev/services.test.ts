import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type RunningService, type StackService, startServices } from '../../../scripts/stack.ts'

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A fake service that records when it starts and stops. */
function fake(
  name: string,
  log: string[],
  options: { ms?: number; fail?: boolean; dependsOn?: string[] } = {},
) {
  const service: StackService = {
    name,
    ...(options.dependsOn ? { dependsOn: options.dependsOn } : {}),
    start: async (): Promise<RunningService> => {
      log.push(`start ${name}`)
      await delay(options.ms ?? 5)
      if (options.fail) throw new Error(`${name} exploded`)
      log.push(`up ${name}`)
      return {
        url: `http://127.0.0.1/${name}`,
        detail: `detail ${name}`,
        stop: async () => {
          log.push(`stop ${name}`)
        },
      }
    },
  }
  return service
}

describe('startServices', () => {
  test('default: starts independent services in parallel and stops them in reverse list order', async () => {
    const log: string[] = []
    const running = await startServices([
      fake('a', log, { ms: 20 }),
      fake('b', log, { ms: 5 }),
      fake('c', log),
    ])
    assert.deepEqual(log.slice(0, 3), ['start a', 'start b', 'start c'])
    assert.deepEqual(
      running.map(({ name, url, detail }) => ({ name, url, detail })),
      ['a', 'b', 'c'].map((name) => ({ name, url: `http://127.0.0.1/${name}`, detail: `detail ${name}` })),
    )
    log.length = 0
    await running.stop()
    await running.stop()
    assert.deepEqual(log, ['stop c', 'stop b', 'stop a'])
  })

  test('behavior: dependsOn waits for the dependency', async () => {
    const log: string[] = []
    await startServices([fake('db', log, { ms: 20 }), fake('api', log, { dependsOn: ['db'] })])
    assert.deepEqual(log, ['start db', 'up db', 'start api', 'up api'])
  })

  test('error: one failure stops the others, even those still starting, and rejects', async () => {
    const log: string[] = []
    await assert.rejects(
      startServices([fake('a', log), fake('b', log, { fail: true, ms: 1 }), fake('slow', log, { ms: 30 })]),
      /stack: b failed to start: b exploded/,
    )
    assert.deepEqual(log.filter((line) => line.startsWith('stop')).sort(), ['stop a', 'stop slow'])
  })

  test('error: a service whose dependency failed is not started', async () => {
    const log: string[] = []
    await assert.rejects(
      startServices([fake('db', log, { fail: true }), fake('api', log, { dependsOn: ['db'] })]),
      /db failed to start/,
    )
    assert.equal(log.includes('start api'), false)
  })

  test('error: unknown dependencies and duplicate names are refused', async () => {
    await assert.rejects(startServices([fake('api', [], { dependsOn: ['db'] })]), /depends on "db"/)
    await assert.rejects(startServices([fake('a', []), fake('a', [])]), /two services are named "a"/)
  })
})
