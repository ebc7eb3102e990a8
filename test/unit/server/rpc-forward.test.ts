// The RPC proxy's upstream client against an upstream that closes kept-alive connections.
import assert from 'node:assert/strict'
import { createServer, type Server, type Socket } from 'node:net'
import { after, describe, test } from 'node:test'
import { createRpcForwarder, UpstreamError } from '../../../server/rpc/forward.ts'

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })
const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2a' })

/**
 * A bare HTTP/1.1 upstream on loopback: `decide(connection, request)` says, per request, whether to
 * answer it (keeping the connection open) or reset the connection without answering, which is what a
 * client sees when the upstream's idle timeout closes a kept-alive connection as a request is written.
 */
async function upstream(decide: (connection: number, request: number) => 'answer' | 'reset') {
  const seen: { connection: number; request: number }[] = []
  let connections = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    const connection = ++connections
    let requests = 0
    let buffered = ''
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1')
      // One request at a time: headers, then a body of content-length bytes.
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n')
        if (end < 0) return
        const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0)
        if (buffered.length < end + 4 + length) return
        buffered = buffered.slice(end + 4 + length)
        const request = ++requests
        seen.push({ connection, request })
        if (decide(connection, request) === 'reset') {
          socket.resetAndDestroy()
          return
        }
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${answer.length}\r\nconnection: keep-alive\r\n\r\n${answer}`,
        )
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

describe('the RPC proxy upstream client on kept-alive connections', () => {
  const forwarder = createRpcForwarder()
  after(() => forwarder.close())
  const forward = (upstreamUrl: string) =>
    forwarder.forward({ chainId: 'eip155:31337', upstreamUrl, body, timeoutMs: 5_000 })

  test('behavior: a kept-alive connection the upstream closes as the next request goes out: sent again on a new one, answered', async () => {
    // The first connection answers its first request and resets on its second (its idle timeout).
    const server = await upstream((connection, request) =>
      connection === 1 && request === 2 ? 'reset' : 'answer',
    )
    try {
      assert.equal((await forward(server.url)).body, answer)
      assert.equal((await forward(server.url)).body, answer)
      assert.deepEqual(server.seen, [
        { connection: 1, request: 1 },
        { connection: 1, request: 2 },
        { connection: 2, request: 1 },
      ])
    } finally {
      await server.close()
    }
  })

  test('behavior: the upstream closes every idle connection at once: the resend goes on a connection of its own, not the next stale one', async () => {
    // Two kept-alive connections in the pool; both answer their first request and reset on later ones.
    const server = await upstream((connection, request) =>
      connection <= 2 && request >= 2 ? 'reset' : 'answer',
    )
    const own = createRpcForwarder()
    try {
      const forward = () =>
        own.forward({ chainId: 'eip155:31337', upstreamUrl: server.url, body, timeoutMs: 5_000 })
      await Promise.all([forward(), forward()])
      assert.equal((await forward()).body, answer)
      assert.equal(server.seen.length, 4)
      assert.deepEqual(server.seen.at(-1), { connection: 3, request: 1 }, 'resent on a new connection')
    } finally {
      own.close()
      await server.close()
    }
  })

  test('error: an upstream that resets a new connection fails at once, named, without a second try', async () => {
    const server = await upstream(() => 'reset')
    try {
      await assert.rejects(forward(server.url), (error: unknown) => {
        assert.ok(error instanceof UpstreamError)
        assert.equal(error.failure, 'unreachable')
        assert.equal(error.message, 'The RPC upstream for eip155:31337 is unreachable (ECONNRESET)')
        return true
      })
      assert.equal(server.seen.length, 1, 'a reset on a new connection is not sent again')
    } finally {
      await server.close()
    }
  })

  test('error: a kept-alive connection reset twice in a row: tried once more, then the failure', async () => {
    // Every connection answers its first request and resets on later ones, and the second connection
    // resets at once: the retry is one, not a loop.
    const server = await upstream((connection, request) =>
      connection === 1 && request === 1 ? 'answer' : 'reset',
    )
    try {
      assert.equal((await forward(server.url)).body, answer)
      await assert.rejects(forward(server.url), /unreachable \(ECONNRESET\)/)
      assert.equal(server.seen.length, 3)
    } finally {
      await server.close()
    }
  })
})
