import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { after, describe, it } from 'node:test'
import { checkTree, layerOf, report } from '../../../scripts/check-layers.ts'

const roots: string[] = []
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true })
})

/** A small checkout: file path -> source text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const lines = (root: string) => checkTree(root).map((o) => `${o.rule}: ${o.from} -> ${o.to}`)

describe('check-layers', () => {
  it('default: a tree that follows the layers has no offence', () => {
    const root = tree({
      'src/errors/base.ts': 'export class BaseError extends Error {}\n',
      'src/protocol/caip.ts':
        "import type { BaseError } from '../errors/base.ts'\nexport type X = BaseError\n",
      'src/services/http.ts': "import { x } from '../protocol/caip.ts'\n",
      'src/core/connect.ts': "import '../services/http.ts'\nimport 'nanostores'\n",
      'src/ui/View.tsx': "import { connect } from '../core/connect.ts'\n",
      'elements/wallet-modal.ts': "import '../src/ui/View.tsx'\n",
      'src/frame/main.ts': "import '../protocol/caip.ts'\nimport '../chains/eip155/abi.ts'\n",
      'src/chains/eip155/abi.ts': 'export const abi = []\n',
      'server/app.ts': "import '../src/protocol/caip.ts'\nimport './routes/rpc.ts'\n",
      'server/routes/rpc.ts': 'export {}\n',
      'server/dev/mail/sink.ts': "import '../../app.ts'\n",
    })
    assert.deepEqual(lines(root), [])
    assert.match(report([]), /0 cycle\(s\), 0 layer offence\(s\), 0 server\/dev import\(s\)/)
  })

  it('behavior: a cycle through a type-only import is reported edge by edge', () => {
    const root = tree({
      'src/core/a.ts': "import type { B } from './b.ts'\nexport type A = B\n",
      'src/core/b.ts': "import { c } from './c.ts'\nexport type B = string\n",
      'src/core/c.ts': "export type { A } from './a.ts'\nexport const c = 1\n",
    })
    assert.deepEqual(lines(root), [
      'cycle: src/core/a.ts -> src/core/b.ts',
      'cycle: src/core/b.ts -> src/core/c.ts',
      'cycle: src/core/c.ts -> src/core/a.ts',
    ])
  })

  it('behavior: a cycle held together by a lazy import() is a cycle', () => {
    const root = tree({
      'src/core/connection/apply.ts': "import { fetchBalance } from '../actions/fetchBalance.ts'\n",
      'src/core/actions/fetchBalance.ts': "export const f = () => import('../connection/apply.ts')\n",
      'server/a.ts': "import './b'\n",
      'server/b.ts': "const x = await import('./a.ts')\n",
    })
    const found = lines(root)
    assert.ok(found.includes('cycle: src/core/actions/fetchBalance.ts -> src/core/connection/apply.ts'))
    assert.ok(found.includes('cycle: src/core/connection/apply.ts -> src/core/actions/fetchBalance.ts'))
    assert.ok(found.includes('cycle: server/a.ts -> server/b.ts'))
    assert.ok(found.includes('cycle: server/b.ts -> server/a.ts'))
    assert.match(report(checkTree(root)), /2 cycle\(s\)/)
  })

  it('error: an import pointing up the layers is a layer offence', () => {
    const root = tree({
      'src/index.ts': "export * from '../elements/wallet-modal.ts'\n",
      'elements/wallet-modal.ts': 'export {}\n',
      'src/core/index.ts': "export * from '../../elements/wallet-modal.ts'\n",
      'src/core/open.ts': "import type { View } from '../ui/views/types.ts'\n",
      'src/ui/views/types.ts': 'export type View = string\n',
      'src/services/rpc.ts': "import '../core/open.ts'\n",
      'src/protocol/x.ts': "import '../services/rpc.ts'\n",
    })
    // The package's main entry is the facade above every layer; the core's own entry is the core's.
    assert.deepEqual(lines(root), [
      'layer: src/core/index.ts -> elements/wallet-modal.ts',
      'layer: src/core/open.ts -> src/ui/views/types.ts',
      'layer: src/protocol/x.ts -> src/services/rpc.ts',
      'layer: src/services/rpc.ts -> src/core/open.ts',
    ])
    assert.match(
      report(checkTree(root)),
      /src\/core\/index\.ts -> elements\/wallet-modal\.ts {2}\[layer\] core may not import elements/,
    )
  })

  it('error: the frame may use protocol, errors, chains and the shared layer only', () => {
    const root = tree({
      'src/frame/main.ts': [
        "import '../protocol/caip.ts'",
        "import '../errors/base.ts'",
        "import '../chains/eip155/abi.ts'",
        "import '../shared/i18n/en.ts'",
        "import '../ui/i18n/index.ts'",
        "import { formatAmount } from '../core/format.ts'",
        '',
      ].join('\n'),
      'src/protocol/caip.ts': '',
      'src/errors/base.ts': '',
      'src/chains/eip155/abi.ts': '',
      'src/shared/i18n/en.ts': '',
      'src/ui/i18n/index.ts': '',
      'src/core/format.ts': '',
    })
    assert.deepEqual(lines(root), [
      'layer: src/frame/main.ts -> src/ui/i18n/index.ts',
      'layer: src/frame/main.ts -> src/core/format.ts',
    ])
  })

  it('error: production code of the service importing server/dev/ is reported; dev code is not', () => {
    const root = tree({
      'server/app.ts': "import { startMailSink } from './dev/mail/sink.ts'\n",
      'server/main.ts': "const sink = await import('./dev/mail/sink.ts')\n",
      'server/dev/mail/sink.ts': 'export const startMailSink = () => {}\n',
      'server/dev/relay/main.ts': "import '../mail/sink.ts'\n",
    })
    assert.deepEqual(lines(root), [
      'dev: server/app.ts -> server/dev/mail/sink.ts',
      'dev: server/main.ts -> server/dev/mail/sink.ts',
    ])
  })

  it('args: the most specific path owns a file', () => {
    assert.equal(layerOf('src/index.ts')?.name, 'entry')
    assert.equal(layerOf('src/core/index.ts')?.name, 'core')
    assert.equal(layerOf('src/script-tag.ts')?.name, 'elements')
    assert.equal(layerOf('src/core/actions/connect.ts')?.name, 'core')
    assert.equal(layerOf('server/dev/mail/sink.ts')?.name, 'server')
    assert.equal(layerOf('test/unit/x.ts'), undefined)
  })
})
