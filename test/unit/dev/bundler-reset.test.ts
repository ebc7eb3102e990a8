// The local bundler's requests to the chain survive the chain closing a kept-alive connection under them.
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, describe, it } from 'node:test'
import { resetOnce } from '../../../server/dev/bundler/index.ts'

/** A JSON-RPC server that resets the first `resets` connections before answering, then answers. */
async function serve(resets: number): Promise<{ url: string; server: Server; seen: () => number }> {
  let seen = 0
  const server = createServer((request, response) => {
    seen++
    if (seen <= resets) {
      request.socket.destroy()
      return
    }
    response.setHeader('content-type', 'application/json')
    response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x7a69' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen: () => seen }
}

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
const servers: Server[] = []
after(() => {
  for (const server of servers) server.close()
})

describe('the local bundler’s requests to the chain', () => {
  it('behavior: a connection reset before any answer is sent again once, and the answer comes', async () => {
    const chain = await serve(1)
    servers.push(chain.server)
    const response = await resetOnce(chain.url, { method: 'POST', body })
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 1, result: '0x7a69' })
    assert.equal(chain.seen(), 2)
  })

  it('error: a chain that resets every connection fails after one resend, not in a loop', async () => {
    const chain = await serve(Number.POSITIVE_INFINITY)
    servers.push(chain.server)
    await assert.rejects(resetOnce(chain.url, { method: 'POST', body }), TypeError)
    assert.equal(chain.seen(), 2)
  })
})
