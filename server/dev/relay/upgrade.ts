// Who may open a WebSocket to the relay: the page's origin and the client's auth JWT.
import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import { verifyRelayAuth } from './auth.ts'

/** Whether a page origin is on this machine: `localhost` (and `*.localhost`), 127.0.0.0/8 or `[::1]`. */
export function isLoopbackOrigin(origin: string): boolean {
  try {
    const { protocol, hostname } = new URL(origin)
    if (protocol !== 'http:' && protocol !== 'https:') return false
    return (
      hostname === 'localhost' ||
      hostname.endsWith('.localhost') ||
      hostname === '[::1]' ||
      /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
    )
  } catch {
    return false
  }
}

/** Ends an upgrade that is refused with a plain HTTP answer. */
export function refuse(socket: Duplex, status: 401 | 403 | 503, reason: string): void {
  const text = { 401: 'Unauthorized', 403: 'Forbidden', 503: 'Service Unavailable' }[status]
  const body = `${reason}\n`
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/**
 * The client id of an upgrade request (its `auth` JWT's `iss`), or why it is refused: no auth or
 * project id, a project id not allowed, or a JWT that does not verify for this relay's URL.
 */
export function authenticate(
  request: IncomingMessage,
  options: { projectIds?: readonly string[] | undefined; audiences?: readonly string[] | undefined },
  now: number,
): { clientId: string } | { status: 401 | 403; reason: string } {
  const url = new URL(request.url ?? '/', 'http://relay')
  const auth = url.searchParams.get('auth')
  const projectId = url.searchParams.get('projectId')
  if (!auth) return { status: 401, reason: 'missing auth' }
  if (!projectId) return { status: 401, reason: 'missing projectId' }
  if (options.projectIds && !options.projectIds.includes(projectId)) {
    return { status: 403, reason: 'unknown projectId' }
  }
  const hostHeader = request.headers.host
  const audiences = [
    ...(hostHeader ? [`ws://${hostHeader}`, `wss://${hostHeader}`] : []),
    ...(options.audiences ?? []),
  ]
  const result = verifyRelayAuth(auth, { audiences, now })
  if (!result.ok) return { status: 401, reason: result.reason }
  return { clientId: result.claims.clientId }
}
