import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'

/**
 * Runs scripts/install-browsers.sh with only `id` on PATH (so no apt-get), and no Debian chromium,
 * firefox-esr, WebKitWebDriver, Xvfb or window manager.
 */
function install(env: Record<string, string>) {
  const bin = mkdtempSync(join(tmpdir(), 'no-apt-'))
  try {
    symlinkSync('/usr/bin/id', join(bin, 'id'))
    return spawnSync('/bin/bash', ['scripts/install-browsers.sh'], {
      env: {
        PATH: bin,
        CHROMIUM_DEFAULT_PATH: join(bin, 'chromium'),
        FIREFOX_DEFAULT_PATH: join(bin, 'firefox-esr'),
        WEBKIT_DRIVER_DEFAULT_PATH: join(bin, 'WebKitWebDriver'),
        XVFB_DEFAULT_PATH: join(bin, 'Xvfb'),
        WINDOW_MANAGER_DEFAULT_PATH: join(bin, 'matchbox-window-manager'),
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
    // Chromium, then Firefox (for the Firefox end-to-end test), then the build.
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

  test("behavior: an executable CHROME_PATH (and each engine's path) is used as it is", () => {
    const path = process.execPath
    const result = install({
      CHROME_PATH: path,
      FIREFOX_PATH: path,
      WEBKIT_DRIVER_PATH: path,
      XVFB_PATH: path,
      WINDOW_MANAGER_PATH: path,
    })
    assert.equal(result.status, 0)
    assert.equal(
      result.stdout,
      [
        `Chromium: using CHROME_PATH=${path}`,
        `Firefox: using FIREFOX_PATH=${path}`,
        `WebKitWebDriver: using WEBKIT_DRIVER_PATH=${path}`,
        `Xvfb: using XVFB_PATH=${path}`,
        `matchbox: using WINDOW_MANAGER_PATH=${path}`,
        '',
      ].join('\n'),
    )
  })

  test('behavior: without Firefox, WebKit and apt the run goes on (their tests skip; CI fails), one line each', () => {
    const result = install({ CHROME_PATH: process.execPath })
    assert.equal(result.status, 0)
    assert.equal(
      result.stderr,
      [
        'No Firefox found: the Firefox test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends firefox-esr) or set FIREFOX_PATH=/path/to/firefox.',
        'No WebKitWebDriver found: the WebKit test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends webkit2gtk-driver) or set WEBKIT_DRIVER_PATH.',
        'No Xvfb found: the WebKit test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends xvfb) or set XVFB_PATH.',
        'No matchbox-window-manager found: the WebKit test will skip (CI fails). Install it (sudo apt-get install -y --no-install-recommends matchbox-window-manager) or set WINDOW_MANAGER_PATH.',
        '',
      ].join('\n'),
    )
  })

  test("error: in CI a missing engine stops the run (the engines' journeys are required there)", () => {
    const result = install({ CHROME_PATH: process.execPath, CI: 'true' })
    assert.notEqual(result.status, 0)
    assert.match(result.stderr, /No Firefox found/)
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
