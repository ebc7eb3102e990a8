import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'

/** Runs scripts/install-chromium.sh with only `id` on PATH (so no apt-get) and no Debian chromium. */
function install(env: Record<string, string>) {
  const bin = mkdtempSync(join(tmpdir(), 'no-apt-'))
  try {
    symlinkSync('/usr/bin/id', join(bin, 'id'))
    return spawnSync('/bin/bash', ['scripts/install-chromium.sh'], {
      env: { PATH: bin, CHROMIUM_DEFAULT_PATH: join(bin, 'chromium'), ...env },
      encoding: 'utf8',
    })
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
}

describe('npm test on a fresh machine (scripts/install-chromium.sh)', () => {
  test('default: `npm test` installs Chromium and builds what the suites serve first (its pretest), so the README needs no third command', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts
    assert.equal(scripts.pretest, 'bash scripts/install-chromium.sh && tsx scripts/ensure-built.ts')
  })

  test('error: without Chromium and without apt it stops with one line saying what to do', () => {
    const result = install({})
    assert.equal(result.status, 1)
    assert.equal(
      result.stderr,
      'No Chromium found: install it (sudo apt-get install -y --no-install-recommends chromium) or set CHROME_PATH=/path/to/chrome, then run npm test again.\n',
    )
  })

  test('behavior: an executable CHROME_PATH is used as it is', () => {
    const result = install({ CHROME_PATH: process.execPath })
    assert.equal(result.status, 0)
    assert.equal(result.stdout, `Chromium: using CHROME_PATH=${process.execPath}\n`)
  })
})
