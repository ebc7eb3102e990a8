// The relay's JSON-RPC methods (`irn_*`, `wc_proposeSession`, `wc_approveSession`) and one frame's handling.
import type { RawData } from 'ws'
import type { z } from 'zod'
import { type Connection, idJson, rawDataToString, sendError, sendResult } from './connection.ts'
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
import type { Topics } from './topics.ts'

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

function createMethods(topics: Topics): Map<string, Method> {
  return new Map<string, Method>([
    [
      'irn_subscribe',
      method(subscribeParams, ({ connection, params, after }) => {
        const [id] = topics.subscribe(connection, [params.topic])
        after(() => topics.flushTopic(connection, params.topic))
        return id
      }),
    ],
    [
      'irn_batchSubscribe',
      method(batchTopicsParams, ({ connection, params, after }) => {
        const ids = topics.subscribe(connection, params.topics)
        after(() => {
          for (const topic of params.topics) topics.flushTopic(connection, topic)
        })
        return ids
      }),
    ],
    [
      'irn_unsubscribe',
      method(unsubscribeParams, ({ connection, params }) => {
        topics.unsubscribe(connection, params.topic)
        return true
      }),
    ],
    [
      'irn_batchUnsubscribe',
      method(batchUnsubscribeParams, ({ connection, params }) => {
        for (const subscription of params.subscriptions) topics.unsubscribe(connection, subscription.topic)
        return true
      }),
    ],
    [
      'irn_publish',
      method(publishParams, ({ connection, params, after }) =>
        topics.publishAll(connection, [params], after),
      ),
    ],
    [
      'irn_batchPublish',
      method(batchPublishParams, ({ connection, params, after }) =>
        topics.publishAll(connection, params.messages, after),
      ),
    ],
    [
      'irn_fetchMessages',
      method(subscribeParams, ({ connection, params }) => topics.fetchMessages(connection, [params.topic])),
    ],
    [
      'irn_batchFetchMessages',
      method(batchTopicsParams, ({ connection, params }) => topics.fetchMessages(connection, params.topics)),
    ],
    [
      'wc_proposeSession',
      method(proposeSessionParams, ({ connection, params, after }) => {
        topics.checkSize(params.sessionProposal, params.attestation)
        // The proposer sends no irn_subscribe for the pairing topic: the relay subscribes it here.
        topics.subscribe(connection, [params.pairingTopic])
        return topics.publishAll(
          connection,
          [
            {
              topic: params.pairingTopic,
              message: params.sessionProposal,
              ttl: params.ttl,
              tag: params.tag ?? SESSION_TAGS.proposeRequest,
              attestation: params.attestation,
            },
          ],
          after,
        )
      }),
    ],
    [
      'wc_approveSession',
      method(approveSessionParams, ({ connection, params, after }) => {
        topics.checkSize(params.sessionProposalResponse)
        topics.checkSize(params.sessionSettlementRequest)
        // The approver sends no irn_subscribe for the session topic: the relay subscribes it here.
        topics.subscribe(connection, [params.sessionTopic])
        return topics.publishAll(
          connection,
          [
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
          ],
          after,
        )
      }),
    ],
  ])
}

/**
 * The handler of one incoming WebSocket frame: a JSON-RPC request of a method above, answered at once
 * (what it causes is delivered after the answer), or the acknowledgement of a delivery.
 *
 * @example
 * const handleFrame = createFrameHandler(topics)
 * socket.on('message', (data) => handleFrame(connection, data))
 */
export function createFrameHandler(topics: Topics): (connection: Connection, data: RawData) => void {
  const methods = createMethods(topics)

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

  return (connection, data) => {
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
      if (response.success) topics.acknowledge(connection, response.data.id)
      return
    }
    handleRequest(connection, frame, record)
  }
}
