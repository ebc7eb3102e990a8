import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { checkFramePage } from '../../../src/connectors/embedded/integrity.ts'
import { withFrameConfig } from '../../../src/protocol/embedded/frameIntegrity.ts'

const BUILT = '<!doctype html><html><head><title>Wallet</title></head><body></body></html>\n'
const PIN = `sha384-${createHash('sha384').update(BUILT).digest('base64')}`

/**
 * The element's check of the frame page (`frame-integrity`), against a real HTTP server on loopback:
 * the page as the service sends it (the build plus its settings block) passes; any other byte, an
 * error status or a malformed pin is refused with `FrameIntegrityError` and the reason in its details.
 */
describe('checkFramePage', () => {
  let server: Server
  let base: string
  const requests: string[] = []
  before(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '')
      const settings = { projectId: 'p', origins: ['https://shop.example'], frameOrigin: 'http://x' }
      if (request.url?.startsWith('/?')) return response.end(withFrameConfig(BUILT, settings))
      if (request.url === '/changed')
        return response.end(withFrameConfig(BUILT.replace('Wallet', 'Wallet '), settings))
      response.statusCode = 404
      response.end('Not found')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  after(() => server.close())

  it('default: the built page with the service’s settings block matches the build’s hash', async () => {
    await checkFramePage(fetch, `${base}/?projectId=p`, PIN)
  })

  it('error: a page changed by one character is refused, naming the hash found and the pin', async () => {
    await assert.rejects(
      checkFramePage(fetch, `${base}/changed`, PIN),
      (error: Error & { details?: string }) => {
        assert.equal(error.name, 'FrameIntegrityError')
        assert.equal(
          error.message.split('\n')[0],
          'The wallet did not load: its code is not the version this site approved',
        )
        assert.match(
          error.details ?? '',
          new RegExp(`/changed is sha384-[A-Za-z0-9+/]{64} \\(pinned: ${PIN.replace(/[+/]/g, '\\$&')}\\)$`),
        )
        return true
      },
    )
  })

  it('error: an error status is refused', async () => {
    await assert.rejects(checkFramePage(fetch, `${base}/gone`, PIN), {
      name: 'FrameIntegrityError',
      details: `${base}/gone answered 404`,
    })
  })

  it('error: a malformed pin refuses every page, and nothing is fetched', async () => {
    const before = requests.length
    for (const bad of [`sha256-${'A'.repeat(43)}=`, PIN.slice(0, -1), `${PIN} `, 'sha384-'])
      await assert.rejects(checkFramePage(fetch, `${base}/?projectId=p`, bad), {
        name: 'FrameIntegrityError',
        details:
          'frame-integrity must be sha384- and 64 base64 characters (the frame value of integrity.json)',
      })
    assert.equal(requests.length, before)
  })
})
