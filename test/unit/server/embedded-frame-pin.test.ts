import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { builtFramePage } from '../../../src/protocol/embedded/frameIntegrity.ts'
import { type EmbeddedTestApp, FRAME_IMPORT_MAP, SITE, startEmbeddedTestApp } from './embedded-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

let testDb: TestDatabase
let t: EmbeddedTestApp

before(async () => {
  testDb = await openTestDatabase('embedded_frame_pin')
  t = await startEmbeddedTestApp(testDb, 'pin-project')
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

const sha384 = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`

/**
 * What a site needs to check the frame against the build's published hash (a pinned frame build): the
 * frame's HTML pages readable by any site, the page's bytes the build's but for the project's settings,
 * and its CSP allowing the build's import map by hash and no other inline script. The API stays
 * without CORS.
 */
describe('the frame origin, for a pinned build', () => {
  test('default: the frame page is the built page plus its settings, readable by any site, and its CSP allows only its import map inline', async () => {
    const page = await t.app.inject({
      url: `/?projectId=${t.projectId}&chainId=eip155:1&version=4&enableLogger=false`,
      headers: { origin: 'https://any.example' },
    })
    assert.equal(page.statusCode, 200)
    assert.equal(page.headers['access-control-allow-origin'], '*')
    assert.equal(page.headers['access-control-allow-credentials'], undefined)
    const built = await readFile(join(t.config.embedded.frameDir, 'index.html'), 'utf8')
    assert.notEqual(page.body, built, 'the service adds the project’s settings')
    assert.equal(sha384(builtFramePage(page.body)), sha384(built))
    const mapHash = createHash('sha256').update(FRAME_IMPORT_MAP).digest('base64')
    assert.match(
      String(page.headers['content-security-policy']),
      new RegExp(`(^|; )script-src 'self' 'sha256-${mapHash.replace(/[+/]/g, '\\$&')}'(;|$)`),
    )
    for (const url of ['/device', '/approve']) {
      const other = await t.app.inject({ url, headers: { origin: SITE } })
      assert.equal(other.headers['access-control-allow-origin'], '*', url)
      // Their fixtures have no import map: nothing inline at all.
      assert.match(String(other.headers['content-security-policy']), /(^|; )script-src 'self'(;|$)/, url)
    }
  })

  test('error: the API and the built assets stay without CORS', async () => {
    const api = await t.call('/embedded/v1/email/connect', { email: 'pin@example.com' })
    assert.equal(api.headers['access-control-allow-origin'], undefined)
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/embedded/v1/email/connect',
      headers: { origin: 'https://any.example', 'access-control-request-method': 'POST' },
    })
    assert.equal(preflight.headers['access-control-allow-origin'], undefined)
    const asset = await t.app.inject({ url: '/assets/frame-abc.js', headers: { origin: SITE } })
    assert.equal(asset.statusCode, 200)
    assert.equal(asset.headers['access-control-allow-origin'], undefined)
  })

  test('error: a page changed anywhere but the settings block no longer hashes to the build', async () => {
    const built = await readFile(join(t.config.embedded.frameDir, 'index.html'), 'utf8')
    const page = (await t.app.inject({ url: `/?projectId=${t.projectId}` })).body
    const changed = page.replace('<title>frame</title>', '<title>frame</title><script src="/x.js"></script>')
    assert.notEqual(sha384(builtFramePage(changed)), sha384(built))
    // A second settings block is not removed: only the one the service adds, before </head>.
    const twice = page.replace(
      '<title>',
      '<script type="application/json" id="wallet-frame-config">{}</script><title>',
    )
    assert.notEqual(sha384(builtFramePage(twice)), sha384(built))
  })
})
