import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join, sep } from 'node:path'
import { describe, test } from 'node:test'
import { licenseAllowed, packageDirOf, runtimePackages } from '../../../scripts/licenses.ts'

describe('licences (scripts/licenses.ts)', () => {
  test('args: SPDX expressions against the allow-list', () => {
    for (const allowed of [
      'MIT',
      'ISC',
      'Apache-2.0',
      'BSD-3-Clause',
      '(MIT OR GPL-3.0)',
      'MIT AND ISC',
      'Apache-2.0 WITH LLVM-exception',
      // MIT without attribution (nodemailer, the service's mailer).
      'MIT-0',
    ])
      assert.equal(licenseAllowed(allowed), true, allowed)
    for (const refused of [
      'GPL-3.0',
      'MIT AND GPL-3.0',
      'SEE LICENSE IN LICENSE.md',
      'UNKNOWN (no license field)',
      '',
    ])
      assert.equal(licenseAllowed(refused), false, refused)
  })

  test('behavior: WalletConnect is pinned to its last Apache-2.0 release (2.21.8), not the Community License', () => {
    for (const name of ['sign-client', 'core', 'utils', 'types']) {
      const manifest = JSON.parse(
        readFileSync(join('node_modules', '@walletconnect', name, 'package.json'), 'utf8'),
      )
      assert.equal(manifest.version, '2.21.8', name)
      assert.equal(manifest.license, 'Apache-2.0', name)
    }
    const walletkit = JSON.parse(readFileSync('node_modules/@reown/walletkit/package.json', 'utf8'))
    assert.deepEqual([walletkit.version, walletkit.license], ['1.2.10', 'Apache-2.0'])
  })

  test('behavior: everything the service runs and the package installs is under an allowed licence', () => {
    const service = runtimePackages('server')
    assert.ok(service.some((pkg) => pkg.name === 'fastify'))
    assert.deepEqual(
      service.filter((pkg) => !licenseAllowed(pkg.license)).map((pkg) => `${pkg.name} ${pkg.license}`),
      [],
    )
    const installed = runtimePackages('.', true).map((pkg) => pkg.name)
    assert.deepEqual(installed.sort(), [
      '@r2wc/core',
      '@r2wc/react-to-web-component',
      'nanostores',
      'react',
      'react-dom',
      'scheduler',
      'zod',
    ])
  })

  test('args: a bundled file belongs to the package after its last node_modules', () => {
    const root = `${sep}repo${sep}node_modules${sep}`
    assert.equal(packageDirOf(`${root}@scope${sep}pkg${sep}dist${sep}a.js`), `${root}@scope${sep}pkg`)
    assert.equal(
      packageDirOf(`${root}a${sep}node_modules${sep}b${sep}index.js`),
      `${root}a${sep}node_modules${sep}b`,
    )
    assert.equal(packageDirOf(`${sep}repo${sep}src${sep}index.ts`), undefined)
  })
})
