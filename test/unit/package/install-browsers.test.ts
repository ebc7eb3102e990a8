import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'

/** Runs scripts/install-browsers.sh with only `id` on PATH (so no apt-get), and no Debian chromium or firefox-esr. */
function install(env: Record<string, string>) {
  const bin = mkdtempSync(join(tmpdir(), 'no-apt-'))
  try {
    symlinkSync('/usr/bin/id', join(bin, 'id'))
    return spawnSync('/bin/bash', ['scripts/install-browsers.sh'], {
      env: {
        PATH: bin,
        CHROMIUM_DEFAULT_PATH: join(bin, 'chromium'),
        FIREFOX_DEFAULT_PATH: join(bin, 'firefox-esr'),
        ...env,
      },
      encoding: 'utf8',
    })
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
}

describe('npm test on a fresh machine (scripts/install-browsers.sh)', () => {
  test('default: `npm test` installs Chromium and builds what the suites serve first (its pretest), so the README needs no third command', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts
    // Chromium, then Firefox (issue 23 item 8, for the Firefox end-to-end test), then the build.
    assert.equal(scripts.pretest, 'bash scripts/install-browsers.sh && tsx scripts/ensure-built.ts')
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
    const result = install({ CHROME_PATH: process.execPath, FIREFOX_PATH: process.execPath })
    assert.equal(result.status, 0)
    assert.equal(
      result.stdout,
      `Chromium: using CHROME_PATH=${process.execPath}\nFirefox: using FIREFOX_PATH=${process.execPath}\n`,
    )
  })

  test('behavior: without Firefox and without apt the run goes on (the Firefox test skips), saying so in one line', () => {
    const result = install({ CHROME_PATH: process.execPath })
    assert.equal(result.status, 0)
    assert.equal(
      result.stderr,
      'No Firefox found: the Firefox test will skip. Install it (sudo apt-get install -y --no-install-recommends firefox-esr) or set FIREFOX_PATH=/path/to/firefox.\n',
    )
  })

  test("error: a CHROME_PATH that is not an executable says so, then looks for Debian's chromium", () => {
    const result = install({ CHROME_PATH: '/nonexistent/chrome' })
    assert.equal(result.status, 1)
    assert.match(
      result.stderr,
      /^CHROME_PATH=\/nonexistent\/chrome is not an executable file; looking for .*chromium instead\.\nNo Chromium found/,
    )
  })
})
