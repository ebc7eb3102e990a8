// The port ranges the test runners give the processes they start side by side (scripts/test/lanes.ts).
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nextPortRange } from '../../../scripts/test/lanes.ts'

const bounds = (range: string) => range.split('-').map(Number) as [number, number]

describe('nextPortRange', () => {
  it('behavior: a run given its own TEST_PORT_RANGE shares it out, a quarter a process, and never leaves it', () => {
    const ranges = Array.from({ length: 4 }, () => nextPortRange('43000-43999'))
    assert.deepEqual(
      ranges.map(bounds).sort(([a], [b]) => a - b),
      [
        [43000, 43249],
        [43250, 43499],
        [43500, 43749],
        [43750, 43999],
      ],
    )
    // A fifth process starts the quarters over, still inside the given range.
    const [low, high] = bounds(nextPortRange('43000-43999'))
    assert.ok(low >= 43000 && high <= 43999)
  })

  it('default: without one, 1,000 ports each from 20000', () => {
    const [low, high] = bounds(nextPortRange(''))
    assert.equal(high - low, 999)
    assert.ok(low >= 20000 && high < 32000)
  })

  it('behavior: a range too small to share is given whole', () => {
    assert.equal(nextPortRange('43000-43099'), '43000-43099')
  })
})
