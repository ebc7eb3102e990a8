/** Connection status per namespace (SPEC section 4). */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'reconnecting' | 'connected'

export type ConnectionEvent =
  | { type: 'connect' }
  | { type: 'reconnect' }
  | { type: 'connected' }
  | { type: 'failed' }
  | { type: 'disconnected' }

/**
 * The connection state machine. Unknown transitions keep the state, so a late wallet event
 * cannot move a namespace somewhere it could not be.
 *
 * @example
 * transition('disconnected', { type: 'connect' }) // 'connecting'
 */
export function transition(status: ConnectionStatus, event: ConnectionEvent): ConnectionStatus {
  switch (event.type) {
    case 'connect':
      return status === 'disconnected' || status === 'connected' ? 'connecting' : status
    case 'reconnect':
      return status === 'disconnected' ? 'reconnecting' : status
    case 'connected':
      return status === 'disconnected' ? status : 'connected'
    case 'failed':
      return status === 'connecting' || status === 'reconnecting' ? 'disconnected' : status
    case 'disconnected':
      return 'disconnected'
  }
}
