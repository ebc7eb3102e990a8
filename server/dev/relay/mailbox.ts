import { RELAY_ERROR, RelayRpcError } from './protocol.ts'

/** One published message while the relay keeps it. */
export interface StoredMessage {
  readonly topic: string
  readonly message: string
  readonly publishedAt: number
  readonly expiresAt: number
  readonly tag: number
  /** Client id (did:key) of the publisher, who never gets its own message back. */
  readonly publisher: string
  /** The `irn_subscription` `data` object, serialized once and reused for every delivery. */
  readonly data: string
  /** Characters of message, topic and attestation (base64 and hex, so bytes). */
  readonly size: number
}

/** A topic's state: who listens, and the messages kept for those who come later. */
export interface TopicState<Subscriber> {
  readonly subscribers: Set<Subscriber>
  /** Keyed by the message itself: a republished message is the same message. */
  readonly messages: Map<string, StoredMessage>
  /** Bytes of the messages kept (their `size`). */
  bytes: number
}

export interface MailboxLimits {
  readonly maxTopics: number
  readonly maxMessagesPerTopic: number
  readonly maxMessages: number
  /** Bytes kept per topic and across all topics (message, topic and attestation). */
  readonly maxTopicBytes: number
  readonly maxTotalBytes: number
  readonly maxTtlSeconds: number
}

export interface StoreParameters {
  readonly topic: string
  readonly message: string
  readonly ttlSeconds: number
  readonly tag: number
  readonly publisher: string
  readonly attestation?: string | null | undefined
}

export interface Mailbox<Subscriber> {
  readonly topicCount: number
  readonly messageCount: number
  readonly bytes: number
  get(topic: string): TopicState<Subscriber> | undefined
  /** The topic's state, created if needed; throws `topicLimit` when the relay tracks too many topics. */
  ensure(topic: string): TopicState<Subscriber>
  /** Keeps a message; `undefined` when the same message is already kept. Throws on a full mailbox. */
  store(parameters: StoreParameters): StoredMessage | undefined
  /** The topic's unexpired messages, oldest first; expired ones met on the way are evicted. */
  live(topic: string): StoredMessage[]
  remove(message: StoredMessage): void
  /** Forgets the topic when nobody listens and nothing is kept. */
  release(topic: string): void
  /** Evicts every expired message; returns how many. */
  sweep(): number
}

/**
 * A mailbox per topic with TTLs and hard caps on topics and messages.
 *
 * @example
 * const mailbox = createMailbox<Connection>(limits, Date.now)
 * mailbox.store({ topic, message, ttlSeconds: 300, tag: 0, publisher: clientId })
 */
export function createMailbox<Subscriber>(
  limits: MailboxLimits,
  now: () => number,
  onExpire: (message: StoredMessage) => void = () => {},
): Mailbox<Subscriber> {
  const topics = new Map<string, TopicState<Subscriber>>()
  let messageCount = 0
  let bytes = 0

  const drop = (state: TopicState<Subscriber>, message: StoredMessage): void => {
    if (state.messages.get(message.message) !== message) return
    state.messages.delete(message.message)
    messageCount--
    bytes -= message.size
    state.bytes -= message.size
  }

  const release = (topic: string): void => {
    const state = topics.get(topic)
    if (state && state.subscribers.size === 0 && state.messages.size === 0) topics.delete(topic)
  }

  const ensure = (topic: string): TopicState<Subscriber> => {
    let state = topics.get(topic)
    if (!state) {
      if (topics.size >= limits.maxTopics) {
        throw new RelayRpcError(RELAY_ERROR.topicLimit, 'Topic limit exceeded')
      }
      state = { subscribers: new Set(), messages: new Map(), bytes: 0 }
      topics.set(topic, state)
    }
    return state
  }

  const evictExpired = (state: TopicState<Subscriber>, at: number): number => {
    let evicted = 0
    for (const message of state.messages.values()) {
      if (message.expiresAt > at) continue
      drop(state, message)
      onExpire(message)
      evicted++
    }
    return evicted
  }

  const sweep = (at: number): number => {
    let evicted = 0
    for (const [topic, state] of topics) {
      evicted += evictExpired(state, at)
      release(topic)
    }
    return evicted
  }

  return {
    get topicCount() {
      return topics.size
    },
    get messageCount() {
      return messageCount
    },
    get bytes() {
      return bytes
    },
    get: (topic) => topics.get(topic),
    ensure,
    store(parameters) {
      const at = now()
      const existing = topics.get(parameters.topic)
      const same = existing?.messages.get(parameters.message)
      if (existing && same) {
        if (same.expiresAt > at) return undefined
        drop(existing, same)
        onExpire(same)
      }
      let state = existing ?? ensure(parameters.topic)
      // Expired messages are looked for only when a cap is reached, to keep publishing O(1).
      if (state.messages.size >= limits.maxMessagesPerTopic) evictExpired(state, at)
      if (state.messages.size >= limits.maxMessagesPerTopic) {
        throw new RelayRpcError(RELAY_ERROR.mailboxLimit, 'Mailbox limit exceeded for this topic')
      }
      if (messageCount >= limits.maxMessages) {
        sweep(at)
        state = topics.get(parameters.topic) ?? ensure(parameters.topic)
      }
      if (messageCount >= limits.maxMessages) {
        release(parameters.topic)
        throw new RelayRpcError(RELAY_ERROR.mailboxLimit, 'Relay message store is full')
      }
      const size = parameters.message.length + parameters.topic.length + (parameters.attestation?.length ?? 0)
      if (state.bytes + size > limits.maxTopicBytes) evictExpired(state, at)
      if (state.bytes + size > limits.maxTopicBytes) {
        release(parameters.topic)
        throw new RelayRpcError(
          RELAY_ERROR.mailboxLimit,
          `Mailbox byte limit exceeded for this topic (${limits.maxTopicBytes} bytes)`,
        )
      }
      if (bytes + size > limits.maxTotalBytes) {
        sweep(at)
        state = topics.get(parameters.topic) ?? ensure(parameters.topic)
      }
      if (bytes + size > limits.maxTotalBytes) {
        release(parameters.topic)
        throw new RelayRpcError(
          RELAY_ERROR.mailboxLimit,
          `Relay message store is full (${limits.maxTotalBytes} bytes)`,
        )
      }
      const ttlSeconds = Math.min(parameters.ttlSeconds, limits.maxTtlSeconds)
      const data: Record<string, unknown> = {
        topic: parameters.topic,
        message: parameters.message,
        publishedAt: at,
        tag: parameters.tag,
      }
      if (parameters.attestation) data.attestation = parameters.attestation
      const stored: StoredMessage = {
        topic: parameters.topic,
        message: parameters.message,
        publishedAt: at,
        expiresAt: at + ttlSeconds * 1000,
        tag: parameters.tag,
        publisher: parameters.publisher,
        data: JSON.stringify(data),
        size,
      }
      state.messages.set(stored.message, stored)
      messageCount++
      bytes += stored.size
      state.bytes += stored.size
      return stored
    },
    live(topic) {
      const state = topics.get(topic)
      if (!state) return []
      evictExpired(state, now())
      return [...state.messages.values()]
    },
    remove(message) {
      const state = topics.get(message.topic)
      if (!state) return
      drop(state, message)
      release(message.topic)
    },
    release,
    sweep: () => sweep(now()),
  }
}
