import { z } from 'zod'

/**
 * JSON-RPC error codes the dev relay answers with: the five standard ones, then the relay's own
 * in the server range.
 *
 * @example
 * if (response.error?.code === RELAY_ERROR.subscriptionLimit) unsubscribeSomething()
 */
export const RELAY_ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** The connection holds its maximum number of subscriptions. */
  subscriptionLimit: -32001,
  /** A published `message` is larger than the per-message limit. */
  messageTooLarge: -32002,
  /** The topic's mailbox, or the relay's global message store, is full. */
  mailboxLimit: -32003,
  /** The relay tracks its maximum number of topics. */
  topicLimit: -32004,
  /** The connection publishes faster than its per-second allowance. */
  publishRateLimit: -32005,
} as const

export type RelayErrorCode = (typeof RELAY_ERROR)[keyof typeof RELAY_ERROR]

/** An error a method handler throws to answer its request with a JSON-RPC error. */
export class RelayRpcError extends Error {
  override readonly name = 'RelayRpcError'
  constructor(
    readonly code: RelayErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** The relay's protocol limit on topics per batch request (same as WalletConnect's relay). */
export const MAX_BATCH_SIZE = 500

/** Tags the relay stamps on the messages of `wc_proposeSession` / `wc_approveSession` (relay tag numbers). */
export const SESSION_TAGS = {
  proposeRequest: 1100,
  proposeResponse: 1101,
  settleRequest: 1102,
} as const

const DEFAULT_SESSION_TTL_SECONDS = 300

const topic = z.string().regex(/^[0-9a-fA-F]{64}$/, 'topic must be 32 bytes of hex')
const ttl = z.number().int().min(1)
const tag = z.number().int().min(0)
const attestation = z.string().nullish()

export const publishParams = z.object({
  topic,
  message: z.string().min(1),
  ttl,
  tag: tag.optional(),
  prompt: z.boolean().optional(),
  attestation,
})
export type PublishParams = z.infer<typeof publishParams>

export const subscribeParams = z.object({ topic })
export const unsubscribeParams = z.object({ topic, id: z.string() })
export const batchTopicsParams = z.object({ topics: z.array(topic).min(1).max(MAX_BATCH_SIZE) })
export const batchUnsubscribeParams = z.object({
  subscriptions: z.array(unsubscribeParams).min(1).max(MAX_BATCH_SIZE),
})
export const batchPublishParams = z.object({ messages: z.array(publishParams).min(1).max(MAX_BATCH_SIZE) })

/** `wc_proposeSession`: publish the proposal on the pairing topic and subscribe the proposer to it. */
export const proposeSessionParams = z.object({
  pairingTopic: topic,
  sessionProposal: z.string().min(1),
  ttl: ttl.default(DEFAULT_SESSION_TTL_SECONDS),
  tag: tag.optional(),
  attestation,
})

/**
 * `wc_approveSession`: publish the proposal response on the pairing topic and the settlement request
 * on the session topic, and subscribe the approver to the session topic.
 */
export const approveSessionParams = z.object({
  pairingTopic: topic,
  sessionTopic: topic,
  sessionProposalResponse: z.string().min(1),
  sessionSettlementRequest: z.string().min(1),
  ttl: ttl.default(DEFAULT_SESSION_TTL_SECONDS),
})

/** A JSON-RPC 2.0 request as the relay accepts it: an id is required (the relay always answers). */
export const requestEnvelope = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]),
  method: z.string().min(1),
  params: z.unknown().optional(),
})

/** A JSON-RPC 2.0 response from a client: the acknowledgement of an `irn_subscription` delivery. */
export const responseEnvelope = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]),
})

/** Describes the first zod issue briefly for a -32602 message. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  if (!issue) return 'Invalid params'
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''
  return `Invalid params: ${path}${issue.message}`
}
