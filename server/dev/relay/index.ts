import { createHash } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import type { RawData } from 'ws'
import { WebSocket, WebSocketServer } from 'ws'
import type { z } from 'zod'
import { verifyRelayAuth } from './auth.ts'
import type { StoredMessage } from './mailbox.ts'
import { createMailbox } from './mailbox.ts'
import type { PublishParams, RelayErrorCode } from './protocol.ts'
import {
  approveSessionParams,
  batchPublishParams,
  batchTopicsParams,
  batchUnsubscribeParams,
  describeIssue,
  proposeSessionParams,
  publishParams,
  RELAY_ERROR,
  RelayRpcError,
  requestEnvelope,
  responseEnvelope,
  SESSION_TAGS,
  subscribeParams,
  unsubscribeParams,
} from './protocol.ts'

export { verifyRelayAuth } from './auth.ts'
export type { RelayErrorCode } from './protocol.ts'
export { RELAY_ERROR } from './protocol.ts'

/** Caps that keep the relay's memory bounded. */
export interface RelayLimits {
  /** Open WebSocket connections. */
  readonly maxConnections: number
  /** Topics one connection may subscribe to. */
  readonly maxSubscriptionsPerConnection: number
  /** Length of one published `message` (base64 text), in bytes. */
  readonly maxMessageBytes: number
  /** Length of one message's `attestation` (a JWT), in bytes. */
  readonly maxAttestationBytes: number
  /** Size of one WebSocket frame; a larger frame closes the socket with 1009. */
  readonly maxFrameBytes: number
  /** Deliveries a connection may leave unacknowledged; later ones wait in the mailbox. */
  readonly maxPendingAcks: number
  /** Topics the relay tracks (subscribed or holding messages). */
  readonly maxTopics: number
  /** Messages kept per topic. */
  readonly maxMessagesPerTopic: number
  /** Messages kept across all topics. */
  readonly maxMessages: number
  /** Bytes kept for one topic (messages, topic and attestations). */
  readonly maxTopicBytes: number
  /** Bytes kept across all topics. */
  readonly maxTotalBytes: number
  /** Messages one connection may publish per second (each of a batch counts), in bursts of as many. */
  readonly maxPublishesPerSecond: number
  /** Longest TTL honoured; longer ones are clamped. */
  readonly maxTtlSeconds: number
  /** Messages returned by one `irn_fetchMessages` / `irn_batchFetchMessages` (then `hasMore`). */
  readonly maxFetchMessages: number
}

/**
 * Defaults for {@link RelayLimits}: generous for a dev stack, small enough to stay bounded.
 *
 * @example
 * await startRelay({ limits: { ...DEFAULT_RELAY_LIMITS, maxPendingAcks: 100 } })
 */
export const DEFAULT_RELAY_LIMITS: RelayLimits = {
  maxConnections: 10_000,
  maxSubscriptionsPerConnection: 1_000,
  maxMessageBytes: 256 * 1024,
  maxAttestationBytes: 4 * 1024,
  maxFrameBytes: 1024 * 1024,
  maxPendingAcks: 1_000,
  maxTopics: 100_000,
  maxMessagesPerTopic: 500,
  maxMessages: 100_000,
  maxTopicBytes: 4 * 1024 * 1024,
  maxTotalBytes: 128 * 1024 * 1024,
  maxPublishesPerSecond: 100,
  maxTtlSeconds: 7 * 24 * 60 * 60,
  maxFetchMessages: 500,
}

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

interface Connection {
  readonly socket: WebSocket
  readonly clientId: string
  /** topic -> subscription id */
  readonly subscriptions: Map<string, string>
  /** delivery request id -> message awaiting acknowledgement */
  readonly pending: Map<number, StoredMessage>
  readonly inflight: Map<StoredMessage, number>
  alive: boolean
  /** Deliveries were held back by `maxPendingAcks`; flush when acknowledgements catch up. */
  deferred: boolean
  /** Publishes left in this connection's per-second allowance, and when it was last refilled. */
  publishTokens: number
  publishRefilledAt: number
}

/** A result already serialized (to reuse the messages' cached JSON). */
class RawJson {
  constructor(readonly json: string) {}
}

interface MethodContext<Params> {
  readonly connection: Connection
  readonly params: Params
  /** Runs after the response is sent, so the client sees the result before the deliveries it causes. */
  after(task: () => void): void
}

interface Method {
  readonly schema: z.ZodType
  run(context: MethodContext<unknown>): unknown
}

function method<Schema extends z.ZodType>(
  schema: Schema,
  run: (context: MethodContext<z.infer<Schema>>) => unknown,
): Method {
  return { schema, run: run as Method['run'] }
}

/**
 * The subscription id WalletConnect clients compute on their side: sha256 of topic + client id, in hex.
 *
 * @example
 * subscriptionIdOf(topic, 'did:key:z6Mk…') // '3f1c…'
 */
export function subscriptionIdOf(topic: string, clientId: string): string {
  return createHash('sha256').update(`${topic}${clientId}`, 'utf8').digest('hex')
}

/** The request id as JSON text, keeping integers beyond 2^53 exactly as the client wrote them. */
function idJson(id: string | number, frame: string): string {
  if (typeof id === 'string') return JSON.stringify(id)
  if (Number.isSafeInteger(id)) return String(id)
  for (const match of frame.matchAll(/"id"\s*:\s*(-?\d+)/g)) {
    const digits = match[1]
    if (digits !== undefined && Number(digits) === id) return digits
  }
  return JSON.stringify(id)
}

function rawDataToString(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}

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

function refuse(socket: Duplex, status: 401 | 403 | 503, reason: string): void {
  const text = { 401: 'Unauthorized', 403: 'Forbidden', 503: 'Service Unavailable' }[status]
  const body = `${reason}\n`
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
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
  const counters = { published: 0, delivered: 0, acknowledged: 0, expired: 0, refusedUpgrades: 0 }
  const mailbox = createMailbox<Connection>(limits, now, () => {
    counters.expired++
  })
  // Delivery ids look like the relay's (time-based) and never repeat within this process.
  let nextDeliveryId = Math.max(1, Math.floor(now()) * 1000)

  const send = (connection: Connection, frame: string): void => {
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(frame)
  }

  const sendResult = (connection: Connection, id: string, result: unknown): void => {
    const json = result instanceof RawJson ? result.json : JSON.stringify(result ?? null)
    send(connection, `{"id":${id},"jsonrpc":"2.0","result":${json}}`)
  }

  const sendError = (connection: Connection, id: string, code: RelayErrorCode, message: string): void => {
    send(connection, `{"id":${id},"jsonrpc":"2.0","error":${JSON.stringify({ code, message })}}`)
  }

  const deliver = (connection: Connection, message: StoredMessage): void => {
    if (message.publisher === connection.clientId || connection.inflight.has(message)) return
    const subscriptionId = connection.subscriptions.get(message.topic)
    if (subscriptionId === undefined || connection.socket.readyState !== WebSocket.OPEN) return
    if (connection.pending.size >= limits.maxPendingAcks) {
      connection.deferred = true
      return
    }
    const id = nextDeliveryId++
    connection.pending.set(id, message)
    connection.inflight.set(message, id)
    counters.delivered++
    send(
      connection,
      `{"id":${id},"jsonrpc":"2.0","method":"irn_subscription","params":{"id":"${subscriptionId}","data":${message.data}}}`,
    )
  }

  const flushTopic = (connection: Connection, topic: string): void => {
    for (const message of mailbox.live(topic)) deliver(connection, message)
  }

  const fanOut = (message: StoredMessage): void => {
    const state = mailbox.get(message.topic)
    if (!state) return
    for (const subscriber of state.subscribers) deliver(subscriber, message)
  }

  const subscribe = (connection: Connection, topics: readonly string[]): string[] => {
    const added = new Set(topics.filter((topic) => !connection.subscriptions.has(topic)))
    if (connection.subscriptions.size + added.size > limits.maxSubscriptionsPerConnection) {
      throw new RelayRpcError(
        RELAY_ERROR.subscriptionLimit,
        `Subscription limit exceeded (${limits.maxSubscriptionsPerConnection} per connection)`,
      )
    }
    return topics.map((topic) => {
      const existing = connection.subscriptions.get(topic)
      if (existing !== undefined) return existing
      const state = mailbox.ensure(topic)
      const id = subscriptionIdOf(topic, connection.clientId)
      connection.subscriptions.set(topic, id)
      state.subscribers.add(connection)
      return id
    })
  }

  const unsubscribe = (connection: Connection, topic: string): void => {
    if (!connection.subscriptions.delete(topic)) return
    mailbox.get(topic)?.subscribers.delete(connection)
    mailbox.release(topic)
  }

  const checkSize = (message: string, attestation?: string | null): void => {
    if (Buffer.byteLength(message, 'utf8') > limits.maxMessageBytes) {
      throw new RelayRpcError(
        RELAY_ERROR.messageTooLarge,
        `Message too large (limit ${limits.maxMessageBytes} bytes)`,
      )
    }
    if (attestation && Buffer.byteLength(attestation, 'utf8') > limits.maxAttestationBytes) {
      throw new RelayRpcError(
        RELAY_ERROR.messageTooLarge,
        `Attestation too large (limit ${limits.maxAttestationBytes} bytes)`,
      )
    }
  }

  /** Takes `count` publishes from the connection's allowance (a token bucket refilled every second). */
  const takePublishes = (connection: Connection, count: number): void => {
    const at = now()
    const perMs = limits.maxPublishesPerSecond / 1000
    connection.publishTokens = Math.min(
      limits.maxPublishesPerSecond,
      connection.publishTokens + Math.max(0, at - connection.publishRefilledAt) * perMs,
    )
    connection.publishRefilledAt = at
    if (connection.publishTokens < count) {
      throw new RelayRpcError(
        RELAY_ERROR.publishRateLimit,
        `Too many publishes: over ${limits.maxPublishesPerSecond} a second on this connection`,
      )
    }
    connection.publishTokens -= count
  }

  const publish = (
    connection: Connection,
    params: Pick<PublishParams, 'topic' | 'message' | 'ttl' | 'tag' | 'attestation'>,
  ): StoredMessage | undefined => {
    const stored = mailbox.store({
      topic: params.topic,
      message: params.message,
      ttlSeconds: params.ttl,
      tag: params.tag ?? 0,
      publisher: connection.clientId,
      attestation: params.attestation,
    })
    if (stored) counters.published++
    return stored
  }

  const publishAll = (
    context: MethodContext<unknown>,
    messages: Pick<PublishParams, 'topic' | 'message' | 'ttl' | 'tag' | 'attestation'>[],
  ): true => {
    for (const message of messages) checkSize(message.message, message.attestation)
    takePublishes(context.connection, messages.length)
    const stored: StoredMessage[] = []
    try {
      for (const message of messages) {
        const kept = publish(context.connection, message)
        if (kept) stored.push(kept)
      }
    } finally {
      // Whatever was kept before a limit stopped the batch still goes out.
      context.after(() => {
        for (const message of stored) fanOut(message)
      })
    }
    return true
  }

  const fetchMessages = (connection: Connection, topics: readonly string[]): RawJson => {
    const taken: StoredMessage[] = []
    let hasMore = false
    outer: for (const topic of topics) {
      for (const message of mailbox.live(topic)) {
        if (message.publisher === connection.clientId) continue
        if (taken.length >= limits.maxFetchMessages) {
          hasMore = true
          break outer
        }
        taken.push(message)
      }
    }
    // Fetching receives the messages, as an acknowledged delivery does; that is what makes `hasMore` page.
    for (const message of taken) mailbox.remove(message)
    return new RawJson(
      `{"messages":[${taken.map((message) => message.data).join(',')}],"hasMore":${hasMore}}`,
    )
  }

  const methods = new Map<string, Method>([
    [
      'irn_subscribe',
      method(subscribeParams, ({ connection, params, after }) => {
        const [id] = subscribe(connection, [params.topic])
        after(() => flushTopic(connection, params.topic))
        return id
      }),
    ],
    [
      'irn_batchSubscribe',
      method(batchTopicsParams, ({ connection, params, after }) => {
        const ids = subscribe(connection, params.topics)
        after(() => {
          for (const topic of params.topics) flushTopic(connection, topic)
        })
        return ids
      }),
    ],
    [
      'irn_unsubscribe',
      method(unsubscribeParams, ({ connection, params }) => {
        unsubscribe(connection, params.topic)
        return true
      }),
    ],
    [
      'irn_batchUnsubscribe',
      method(batchUnsubscribeParams, ({ connection, params }) => {
        for (const subscription of params.subscriptions) unsubscribe(connection, subscription.topic)
        return true
      }),
    ],
    ['irn_publish', method(publishParams, (context) => publishAll(context, [context.params]))],
    [
      'irn_batchPublish',
      method(batchPublishParams, (context) => publishAll(context, context.params.messages)),
    ],
    [
      'irn_fetchMessages',
      method(subscribeParams, ({ connection, params }) => fetchMessages(connection, [params.topic])),
    ],
    [
      'irn_batchFetchMessages',
      method(batchTopicsParams, ({ connection, params }) => fetchMessages(connection, params.topics)),
    ],
    [
      'wc_proposeSession',
      method(proposeSessionParams, (context) => {
        const { connection, params } = context
        checkSize(params.sessionProposal, params.attestation)
        // The proposer sends no irn_subscribe for the pairing topic: the relay subscribes it here.
        subscribe(connection, [params.pairingTopic])
        return publishAll(context, [
          {
            topic: params.pairingTopic,
            message: params.sessionProposal,
            ttl: params.ttl,
            tag: params.tag ?? SESSION_TAGS.proposeRequest,
            attestation: params.attestation,
          },
        ])
      }),
    ],
    [
      'wc_approveSession',
      method(approveSessionParams, (context) => {
        const { connection, params } = context
        checkSize(params.sessionProposalResponse)
        checkSize(params.sessionSettlementRequest)
        // The approver sends no irn_subscribe for the session topic: the relay subscribes it here.
        subscribe(connection, [params.sessionTopic])
        return publishAll(context, [
          {
            topic: params.pairingTopic,
            message: params.sessionProposalResponse,
            ttl: params.ttl,
            tag: SESSION_TAGS.proposeResponse,
          },
          {
            topic: params.sessionTopic,
            message: params.sessionSettlementRequest,
            ttl: params.ttl,
            tag: SESSION_TAGS.settleRequest,
          },
        ])
      }),
    ],
  ])

  const acknowledge = (connection: Connection, id: string | number): void => {
    const key = typeof id === 'number' ? id : Number(id)
    const message = connection.pending.get(key)
    if (!message) return
    connection.pending.delete(key)
    connection.inflight.delete(message)
    counters.acknowledged++
    // Topics join two parties, so once the other party has it the message is done.
    if (message.publisher !== connection.clientId) mailbox.remove(message)
    if (connection.deferred && connection.pending.size <= Math.floor(limits.maxPendingAcks / 2)) {
      connection.deferred = false
      for (const topic of connection.subscriptions.keys()) flushTopic(connection, topic)
    }
  }

  const handleRequest = (connection: Connection, frame: string, payload: Record<string, unknown>): void => {
    const envelope = requestEnvelope.safeParse(payload)
    const rawId = payload.id
    const fallbackId = typeof rawId === 'string' || typeof rawId === 'number' ? idJson(rawId, frame) : 'null'
    if (!envelope.success) {
      sendError(
        connection,
        fallbackId,
        RELAY_ERROR.invalidRequest,
        'Invalid request: not a JSON-RPC 2.0 request',
      )
      return
    }
    const id = idJson(envelope.data.id, frame)
    const handler = methods.get(envelope.data.method)
    if (!handler) {
      sendError(connection, id, RELAY_ERROR.methodNotFound, `Method not found: ${envelope.data.method}`)
      return
    }
    const params = handler.schema.safeParse(envelope.data.params)
    if (!params.success) {
      sendError(connection, id, RELAY_ERROR.invalidParams, describeIssue(params.error))
      return
    }
    const tasks: (() => void)[] = []
    try {
      const result = handler.run({ connection, params: params.data, after: (task) => tasks.push(task) })
      sendResult(connection, id, result)
    } catch (error) {
      if (error instanceof RelayRpcError) sendError(connection, id, error.code, error.message)
      else sendError(connection, id, RELAY_ERROR.internal, 'Internal error')
    }
    for (const task of tasks) task()
  }

  const handleFrame = (connection: Connection, data: RawData): void => {
    connection.alive = true
    const frame = rawDataToString(data)
    let payload: unknown
    try {
      payload = JSON.parse(frame)
    } catch {
      sendError(connection, 'null', RELAY_ERROR.parse, 'Parse error: not JSON')
      return
    }
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
      sendError(
        connection,
        'null',
        RELAY_ERROR.invalidRequest,
        'Invalid request: expected a JSON-RPC 2.0 object',
      )
      return
    }
    const record = payload as Record<string, unknown>
    if (!('method' in record) && ('result' in record || 'error' in record)) {
      const response = responseEnvelope.safeParse(record)
      if (response.success) acknowledge(connection, response.data.id)
      return
    }
    handleRequest(connection, frame, record)
  }

  const dropConnection = (connection: Connection): void => {
    if (!connections.delete(connection)) return
    for (const topic of connection.subscriptions.keys()) {
      mailbox.get(topic)?.subscribers.delete(connection)
      mailbox.release(topic)
    }
    connection.subscriptions.clear()
    connection.pending.clear()
    connection.inflight.clear()
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

  const authenticate = (
    request: IncomingMessage,
  ): { clientId: string } | { status: 401 | 403; reason: string } => {
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
    const result = verifyRelayAuth(auth, { audiences, now: now() })
    if (!result.ok) return { status: 401, reason: result.reason }
    return { clientId: result.claims.clientId }
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    // A page on another site must not reach a relay on this machine (DNS rebinding, a visited page).
    const origin = request.headers.origin
    if (origin !== undefined && !isLoopbackOrigin(origin) && !options.allowedOrigins?.includes(origin)) {
      counters.refusedUpgrades++
      refuse(socket, 403, 'origin not allowed')
      return
    }
    const result = authenticate(request)
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
