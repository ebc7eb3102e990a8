// One client's WebSocket connection to the relay, and the JSON-RPC frames the relay sends on it.
import { type RawData, WebSocket } from 'ws'
import type { StoredMessage } from './mailbox.ts'
import type { RelayErrorCode } from './protocol.ts'

export interface Connection {
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
export class RawJson {
  constructor(readonly json: string) {}
}

/** Sends a frame when the socket is still open (a closed one is dropped by its `close` event). */
export function send(connection: Connection, frame: string): void {
  if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(frame)
}

/** Answers request `id` (JSON text, see `idJson`) with `result`. */
export function sendResult(connection: Connection, id: string, result: unknown): void {
  const json = result instanceof RawJson ? result.json : JSON.stringify(result ?? null)
  send(connection, `{"id":${id},"jsonrpc":"2.0","result":${json}}`)
}

/** Answers request `id` (JSON text, see `idJson`) with an error. */
export function sendError(connection: Connection, id: string, code: RelayErrorCode, message: string): void {
  send(connection, `{"id":${id},"jsonrpc":"2.0","error":${JSON.stringify({ code, message })}}`)
}

/** The request id as JSON text, keeping integers beyond 2^53 exactly as the client wrote them. */
export function idJson(id: string | number, frame: string): string {
  if (typeof id === 'string') return JSON.stringify(id)
  if (Number.isSafeInteger(id)) return String(id)
  for (const match of frame.matchAll(/"id"\s*:\s*(-?\d+)/g)) {
    const digits = match[1]
    if (digits !== undefined && Number(digits) === id) return digits
  }
  return JSON.stringify(id)
}

export function rawDataToString(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8')
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8')
  return Buffer.from(data).toString('utf8')
}
