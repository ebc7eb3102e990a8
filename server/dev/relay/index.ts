import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { type Connection, sendError } from './connection.ts'
import { DEFAULT_RELAY_LIMITS, type RelayLimits } from './limits.ts'
import { createFrameHandler } from './methods.ts'
import { RELAY_ERROR } from './protocol.ts'
import { createTopics, type RelayCounters } from './topics.ts'
import { authenticate, isLoopbackOrigin, refuse } from './upgrade.ts'

export { verifyRelayAuth } from './auth.ts'
export { DEFAULT_RELAY_LIMITS, type RelayLimits } from './limits.ts'
export type { RelayErrorCode } from './protocol.ts'
export { RELAY_ERROR } from './protocol.ts'
export { subscriptionIdOf } from './topics.ts'
export { isLoopbackOrigin } from './upgrade.ts'

export interface RelayOptions {
  /** Interface to bind; the dev relay is meant for loopback. Default `127.0.0.1`. */
  readonly host?: string
  /** Port; `0` picks a free one. Default `8789`. */
  readonly port?: number
  readonly limits?: Partial<RelayLimits>
  /** Extra `aud` origins accepted besides the URL the client connected to (for a proxy in front). */
  readonly audiences?: readonly string[]
  /**
   * Page origins allowed to connect besides loopback ones (`http://localhost:5173`, `http://127.0.0.1:4173`).
   * Connections without an `Origin` (Node clients, wallets) are allowed.
   */
  readonly allowedOrigins?: readonly string[]
  /** When set, only these project ids may connect; otherwise any non-empty one. */
  readonly projectIds?: readonly string[]
  /** Ping interval; a socket that missed the previous pong is closed. Default 15 s (clients give up after 35 s). */
  readonly heartbeatIntervalMs?: number
  /** How often expired messages are evicted. Default 1 s. */
  readonly sweepIntervalMs?: number
  /** Clock in milliseconds, injectable for tests. Default `Date.now`. */
  readonly now?: () => number
}

export interface RelayStats {
  readonly connections: number
  readonly subscriptions: number
  readonly topics: number
  readonly messages: number
  /** Bytes of kept messages (message text, topic, attestation). */
  readonly messageBytes: number
  readonly pendingAcks: number
  readonly published: number
  readonly delivered: number
  readonly acknowledged: number
  readonly expired: number
  readonly refusedUpgrades: number
}

export interface Relay {
  /** `ws://host:port`, the value for `relayUrl` / `relay-url`. */
  readonly url: string
  readonly port: number
  stats(): RelayStats
  /** Closes every socket and the server. */
  stop(): Promise<void>
}

/**
 * Starts the dev WalletConnect relay: the relay's JSON-RPC over WebSocket (`irn_*` plus
 * `wc_proposeSession` / `wc_approveSession`), a mailbox per topic with TTLs, auth JWT checks and
 * bounded memory. It serves `@walletconnect/sign-client` with `relayUrl` set to its `url`.
 *
 * @example
 * const relay = await startRelay({ port: 0 })
 * const client = await SignClient.init({ relayUrl: relay.url, projectId: 'dev-project' })
 * // …
 * await relay.stop()
 */
export async function startRelay(options: RelayOptions = {}): Promise<Relay> {
  const host = options.host ?? '127.0.0.1'
  const limits: RelayLimits = { ...DEFAULT_RELAY_LIMITS, ...options.limits }
  const now = options.now ?? Date.now
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 15_000
  const sweepIntervalMs = options.sweepIntervalMs ?? 1_000

  const connections = new Set<Connection>()
  const counters: RelayCounters = {
    published: 0,
    delivered: 0,
    acknowledged: 0,
    expired: 0,
    refusedUpgrades: 0,
  }
  const topics = createTopics(limits, now, counters)
  const { mailbox } = topics
  const handleFrame = createFrameHandler(topics)

  const dropConnection = (connection: Connection): void => {
    if (!connections.delete(connection)) return
    topics.leave(connection)
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxFrameBytes,
    perMessageDeflate: false,
    clientTracking: false,
  })

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://relay').pathname
    if (path === '/health') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n')
      return
    }
    response
      .writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' })
      .end('wallet-elements dev relay: connect with a WebSocket\n')
  })

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    // A page on another site must not reach a relay on this machine (DNS rebinding, a visited page).
    const origin = request.headers.origin
    if (origin !== undefined && !isLoopbackOrigin(origin) && !options.allowedOrigins?.includes(origin)) {
      counters.refusedUpgrades++
      refuse(socket, 403, 'origin not allowed')
      return
    }
    const result = authenticate(request, options, now())
    if ('status' in result) {
      counters.refusedUpgrades++
      refuse(socket, result.status, result.reason)
      return
    }
    if (connections.size >= limits.maxConnections) {
      counters.refusedUpgrades++
      refuse(socket, 503, 'connection limit reached')
      return
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const connection: Connection = {
        socket: ws,
        clientId: result.clientId,
        subscriptions: new Map(),
        pending: new Map(),
        inflight: new Map(),
        alive: true,
        deferred: false,
        publishTokens: limits.maxPublishesPerSecond,
        publishRefilledAt: now(),
      }
      connections.add(connection)
      ws.on('message', (data) => {
        try {
          handleFrame(connection, data)
        } catch {
          sendError(connection, 'null', RELAY_ERROR.internal, 'Internal error')
        }
      })
      ws.on('pong', () => {
        connection.alive = true
      })
      ws.on('close', () => dropConnection(connection))
      ws.on('error', () => {
        ws.terminate()
        dropConnection(connection)
      })
    })
  })

  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.socket.terminate()
        dropConnection(connection)
        continue
      }
      connection.alive = false
      connection.socket.ping()
    }
  }, heartbeatIntervalMs)
  heartbeat.unref()

  const sweeper = setInterval(() => mailbox.sweep(), sweepIntervalMs)
  sweeper.unref()

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8789, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const urlHost = host.includes(':') ? `[${host}]` : host

  let stopping: Promise<void> | undefined
  return {
    url: `ws://${urlHost}:${port}`,
    port,
    stats() {
      let subscriptions = 0
      let pendingAcks = 0
      for (const connection of connections) {
        subscriptions += connection.subscriptions.size
        pendingAcks += connection.pending.size
      }
      return {
        connections: connections.size,
        subscriptions,
        topics: mailbox.topicCount,
        messages: mailbox.messageCount,
        messageBytes: mailbox.bytes,
        pendingAcks,
        ...counters,
      }
    },
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        clearInterval(heartbeat)
        clearInterval(sweeper)
        for (const connection of [...connections]) {
          connection.socket.terminate()
          dropConnection(connection)
        }
        wss.close()
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return stopping
    },
  }
}
