// Subscriptions, publishes, fetches and deliveries between the relay's connections, over the mailbox.
import { createHash } from 'node:crypto'
import { WebSocket } from 'ws'
import { type Connection, RawJson, send } from './connection.ts'
import type { RelayLimits } from './limits.ts'
import { createMailbox, type StoredMessage } from './mailbox.ts'
import type { PublishParams } from './protocol.ts'
import { RELAY_ERROR, RelayRpcError } from './protocol.ts'

/** What the relay counts over its life (its `stats()`). */
export interface RelayCounters {
  published: number
  delivered: number
  acknowledged: number
  expired: number
  refusedUpgrades: number
}

/** One message as a client publishes it (`irn_publish`, a batch's item, a session's message). */
export type OutgoingMessage = Pick<PublishParams, 'topic' | 'message' | 'ttl' | 'tag' | 'attestation'>

/**
 * The subscription id WalletConnect clients compute on their side: sha256 of topic + client id, in hex.
 *
 * @example
 * subscriptionIdOf(topic, 'did:key:z6Mk…') // '3f1c…'
 */
export function subscriptionIdOf(topic: string, clientId: string): string {
  return createHash('sha256').update(`${topic}${clientId}`, 'utf8').digest('hex')
}

/**
 * The relay's topics: who subscribes to what, the messages kept for them, and their delivery with
 * acknowledgement, within `limits`.
 *
 * @example
 * const topics = createTopics(limits, Date.now, counters)
 * topics.subscribe(connection, [topic])
 */
export function createTopics(limits: RelayLimits, now: () => number, counters: RelayCounters) {
  const mailbox = createMailbox<Connection>(limits, now, () => {
    counters.expired++
  })
  // Delivery ids look like the relay's (time-based) and never repeat within this process.
  let nextDeliveryId = Math.max(1, Math.floor(now()) * 1000)

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

  const publish = (connection: Connection, params: OutgoingMessage): StoredMessage | undefined => {
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

  /**
   * Keeps the messages and delivers them to the topics' subscribers once the publisher has its answer
   * (`after` runs after the response is sent).
   */
  const publishAll = (
    connection: Connection,
    messages: OutgoingMessage[],
    after: (task: () => void) => void,
  ): true => {
    for (const message of messages) checkSize(message.message, message.attestation)
    takePublishes(connection, messages.length)
    const stored: StoredMessage[] = []
    try {
      for (const message of messages) {
        const kept = publish(connection, message)
        if (kept) stored.push(kept)
      }
    } finally {
      // Whatever was kept before a limit stopped the batch still goes out.
      after(() => {
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

  /** Forgets a closed connection's subscriptions and deliveries. */
  const leave = (connection: Connection): void => {
    for (const topic of connection.subscriptions.keys()) {
      mailbox.get(topic)?.subscribers.delete(connection)
      mailbox.release(topic)
    }
    connection.subscriptions.clear()
    connection.pending.clear()
    connection.inflight.clear()
  }

  return {
    mailbox,
    flushTopic,
    subscribe,
    unsubscribe,
    checkSize,
    publishAll,
    fetchMessages,
    acknowledge,
    leave,
  }
}

export type Topics = ReturnType<typeof createTopics>
