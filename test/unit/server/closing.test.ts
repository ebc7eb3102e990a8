import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { describe, test } from 'node:test'
import Fastify from 'fastify'
import { closeConnectionsOnClose } from '../../../server/http/closing.ts'

/** A listening app with the service's close options; `/hang` answers only when `release` is called. */
async function listeningApp(graceMs?: number) {
  const app = Fastify({ forceCloseConnections: 'idle' })
  closeConnectionsOnClose(app, graceMs)
  let release = () => {}
  app.get('/hang', () => new Promise<string>((resolve) => (release = () => resolve('late'))))
  app.get('/ok', async () => 'ok')
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const open = async (): Promise<Socket> => {
    const socket = connect(port, '127.0.0.1')
    await once(socket, 'connect')
    return socket
  }
  return { app, open, release: () => release() }
}

/** Whether `promise` settles within `ms` (a hang fails the test instead of stalling the suite). */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
  ])

describe('closing the service while browsers hold connections', () => {
  test('error: a browser’s preconnected socket (no byte sent) does not keep close() waiting', async () => {
    const { app, open } = await listeningApp()
    // What Chromium does for a page that may soon ask this origin: a connection, and no request yet.
    const preconnected = await open()
    const dropped = once(preconnected, 'close')
    assert.equal(await settlesWithin(app.close(), 5_000), true, 'close() finishes')
    await dropped
  })

  test('behavior: a request in flight is answered when it ends within the grace', async () => {
    const { app, open, release } = await listeningApp(5_000)
    const client = await open()
    client.write('GET /hang HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    let answer = ''
    client.on('data', (chunk: Buffer) => (answer += chunk.toString()))
    await new Promise((resolve) => setTimeout(resolve, 100))
    const ended = once(client, 'end')
    const closing = app.close()
    release()
    await Promise.all([closing, ended])
    assert.match(answer, /^HTTP\/1\.1 200/)
    assert.match(answer, /late$/)
    client.destroy()
  })

  test('error: a request that never ends is cut after the grace, and close() finishes', async () => {
    const { app, open } = await listeningApp(200)
    const client = await open()
    client.write('GET /hang HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await new Promise((resolve) => setTimeout(resolve, 100))
    const cut = once(client, 'close')
    assert.equal(await settlesWithin(app.close(), 5_000), true, 'close() finishes')
    await cut
  })
})
