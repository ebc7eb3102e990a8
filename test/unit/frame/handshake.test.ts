import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { acceptHandshake, type HandshakeInput } from '../../../src/frame/handshake.ts'
import { FRAME_HANDSHAKE } from '../../../src/protocol/embedded/index.ts'

const parent = { name: 'parent' }
const self = { name: 'frame' }
const nonce = 'n0nceN0nceN0nceN0nce00'
const port = { name: 'port' } as unknown as MessagePort
const site = 'https://shop.example'

const input = (overrides: Partial<HandshakeInput> = {}): HandshakeInput => ({
  data: { type: FRAME_HANDSHAKE, nonce },
  origin: site,
  source: parent,
  ports: [port],
  parent,
  self,
  nonce,
  allowed: ['https://shop.example', 'https://*.preview.example'],
  ancestorOrigins: [site],
  ...overrides,
})

describe('acceptHandshake', () => {
  it('default: the parent, an allowed origin, this load’s nonce and one port: the port', () => {
    assert.deepEqual(acceptHandshake(input()), { port })
    assert.deepEqual(
      acceptHandshake(
        input({ origin: 'https://pr-7.preview.example', ancestorOrigins: ['https://pr-7.preview.example'] }),
      ),
      { port },
    )
    // Browsers without ancestorOrigins (Firefox) rely on the origin check and the CSP.
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: undefined })), { port })
  })

  it('error: not framed, not from the parent, not a handshake, another nonce, no nonce: refused', () => {
    assert.deepEqual(acceptHandshake(input({ parent: self })), { refused: 'not-framed' })
    assert.deepEqual(acceptHandshake(input({ source: { name: 'popup' } })), { refused: 'not-from-parent' })
    assert.deepEqual(acceptHandshake(input({ source: null })), { refused: 'not-from-parent' })
    for (const data of [
      null,
      'hello',
      { type: 'other', nonce },
      { type: FRAME_HANDSHAKE },
      { type: FRAME_HANDSHAKE, nonce: 'short' },
    ])
      assert.deepEqual(acceptHandshake(input({ data })), { refused: 'not-a-handshake' })
    assert.deepEqual(acceptHandshake(input({ data: { type: FRAME_HANDSHAKE, nonce: 'x'.repeat(22) } })), {
      refused: 'wrong-nonce',
    })
    assert.deepEqual(acceptHandshake(input({ nonce: undefined })), { refused: 'wrong-nonce' })
  })

  it('error: an origin off the allow-list, a foreign ancestor, or a parent that is not the first ancestor: refused', () => {
    assert.deepEqual(
      acceptHandshake(input({ origin: 'https://evil.example', ancestorOrigins: ['https://evil.example'] })),
      {
        refused: 'origin-not-allowed',
      },
    )
    // One label only: a.b.preview.example is not under *.preview.example.
    assert.deepEqual(acceptHandshake(input({ origin: 'https://a.b.preview.example' })), {
      refused: 'origin-not-allowed',
    })
    // An allowed site framed by a foreign one (nested framing).
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: [site, 'https://evil.example'] })), {
      refused: 'ancestor-not-allowed',
    })
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: ['https://pr-1.preview.example', site] })), {
      refused: 'ancestor-not-allowed',
    })
  })

  it('behavior: masked ancestors ("null", as Firefox reports behind referrerpolicy="no-referrer") are left to the CSP; named ones are still checked', () => {
    // Firefox 153 in our iframe: the handshake used to be refused here, locking out every Firefox user.
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: ['null'] })), { port })
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: ['null', 'null'] })), { port })
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: [site, 'null'] })), { port })
    // A masked entry never lets a named foreign ancestor through, nor a named parent that is not the sender.
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: ['null', 'https://evil.example'] })), {
      refused: 'ancestor-not-allowed',
    })
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: ['https://pr-1.preview.example', 'null'] })), {
      refused: 'ancestor-not-allowed',
    })
    // The sender is still checked on its own: a masked list does not make a foreign parent allowed.
    assert.deepEqual(acceptHandshake(input({ origin: 'https://evil.example', ancestorOrigins: ['null'] })), {
      refused: 'origin-not-allowed',
    })
    assert.deepEqual(acceptHandshake(input({ origin: 'null', ancestorOrigins: ['null'] })), {
      refused: 'origin-not-allowed',
    })
    // Framed yet no ancestor named at all: not something any engine reports; refused.
    assert.deepEqual(acceptHandshake(input({ ancestorOrigins: [] })), { refused: 'ancestor-not-allowed' })
  })

  it('error: no port, or more than one: refused', () => {
    assert.deepEqual(acceptHandshake(input({ ports: [] })), { refused: 'no-port' })
    assert.deepEqual(acceptHandshake(input({ ports: [port, port] })), { refused: 'no-port' })
  })
})
