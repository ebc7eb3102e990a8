import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { checkTree, importsOf } from '../../../scripts/check-layers.ts'

const root = fileURLToPath(new URL('../../..', import.meta.url))

describe('the core: connection lifecycle', () => {
  it('default: no import cycle in src/core, lazy or type-only', () => {
    const cycles = checkTree(root).filter((o) => o.rule === 'cycle' && o.from.startsWith('src/core/'))
    assert.deepEqual(
      cycles.map((o) => `${o.from} -> ${o.to}`),
      [],
    )
  })

  it('behavior: the connection records import no action', () => {
    const imports = importsOf(root, 'src/core/connection/records.ts')
    assert.deepEqual(
      imports.filter((file) => file.startsWith('src/core/actions/')),
      [],
    )
  })

  it('behavior: actions that change the connection never move the modal (subscribers in core/follow do)', () => {
    const modalMoves = [
      'src/core/actions/navigate.ts',
      'src/core/actions/close.ts',
      'src/core/actions/open.ts',
    ]
    const actions = ['connect', 'disconnect', 'reconnect', 'signIn', 'switchNetwork', 'fetchBalance']
    for (const action of actions) {
      const imports = importsOf(root, `src/core/actions/${action}.ts`)
      assert.deepEqual(
        imports.filter((file) => modalMoves.includes(file)),
        [],
        `${action} imports what moves the modal`,
      )
    }
  })

  it('behavior: every follower is started by the config', () => {
    const followers = readdirSync(join(root, 'src/core/follow')).filter(
      (name) => !['index.ts', 'later.ts', 'show.ts'].includes(name),
    )
    const started = [
      ...importsOf(root, 'src/core/follow/index.ts'),
      ...importsOf(root, 'src/core/follow/later.ts'),
    ]
    assert.deepEqual(
      followers.map((name) => `src/core/follow/${name}`).filter((file) => !started.includes(file)),
      [],
    )
    assert.ok(importsOf(root, 'src/core/createConfig.ts').includes('src/core/follow/index.ts'))
  })
})

describe('the config hub', () => {
  it('behavior: no side table keyed by the config: its state is typed members the config can see', () => {
    const files = readdirSync(join(root, 'src/core'), { recursive: true, encoding: 'utf8' }).filter((file) =>
      /\.tsx?$/.test(file),
    )
    const tables = files.filter((file) =>
      /new WeakMap<\s*Config\b/.test(readFileSync(join(root, 'src/core', file), 'utf8')),
    )
    assert.deepEqual(tables, [])
  })

  it('behavior: createConfig composes one file per concept under core/state', () => {
    const imports = importsOf(root, 'src/core/createConfig.ts').filter((file) =>
      file.startsWith('src/core/state/'),
    )
    for (const concept of ['modal', 'connection', 'wallets', 'balances', 'send', 'swap', 'siwx', 'pairing'])
      assert.ok(imports.includes(`src/core/state/${concept}.ts`), concept)
  })
})
