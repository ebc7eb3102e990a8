import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/**
 * How long `close()` lets requests in flight finish before their connections are cut: under the 10 s
 * after which a signalled service exits anyway (server/main.ts), so a stop ends cleanly.
 */
export const closeGraceMs = 8_000

/**
 * Makes `app.close()` end even while browsers hold connections to it. Chromium opens sockets ahead of
 * need (preconnect) and may never send a request on them; Node counts such a socket as busy, so
 * Fastify's `forceCloseConnections: 'idle'` leaves it and `close()` waits for it without end. On close,
 * every socket that has not received a byte is dropped at once (nothing was asked on it), and whatever
 * is still open after `graceMs` (8 s) is cut, so a stop or a restart always finishes.
 *
 * @example
 * const app = Fastify({ forceCloseConnections: 'idle' })
 * closeConnectionsOnClose(app)
 */
export function closeConnectionsOnClose(app: FastifyInstance, graceMs = closeGraceMs): void {
  const sockets = new Set<Socket>()
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  app.addHook('preClose', async () => {
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy()
    const cut = setTimeout(() => app.server.closeAllConnections(), graceMs)
    cut.unref()
    app.server.once('close', () => clearTimeout(cut))
  })
}
