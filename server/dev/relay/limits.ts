// The caps that keep the dev relay's memory bounded, and their defaults.

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
