import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ConnectionEvent, ConnectionStatus } from '../../../src/core/connection/machine.ts'
import { transition } from '../../../src/core/connection/machine.ts'

type EventType = ConnectionEvent['type']

// The whole table: rows are the current status, columns the event; unlisted moves keep the state.
const table: Record<ConnectionStatus, Record<EventType, ConnectionStatus>> = {
  disconnected: {
    connect: 'connecting',
    reconnect: 'reconnecting',
    connected: 'disconnected',
    failed: 'disconnected',
    disconnected: 'disconnected',
  },
  connecting: {
    connect: 'connecting',
    reconnect: 'connecting',
    connected: 'connected',
    failed: 'disconnected',
    disconnected: 'disconnected',
  },
  reconnecting: {
    connect: 'reconnecting',
    reconnect: 'reconnecting',
    connected: 'connected',
    failed: 'disconnected',
    disconnected: 'disconnected',
  },
  connected: {
    connect: 'connecting',
    reconnect: 'connected',
    connected: 'connected',
    failed: 'connected',
    disconnected: 'disconnected',
  },
}

/** The statuses visited from `from`, one per event. */
function walk(from: ConnectionStatus, events: EventType[]): ConnectionStatus[] {
  const path: ConnectionStatus[] = []
  let status = from
  for (const type of events) {
    status = transition(status, { type })
    path.push(status)
  }
  return path
}

describe('connection machine (SPEC 4)', () => {
  for (const [from, row] of Object.entries(table) as [
    ConnectionStatus,
    Record<EventType, ConnectionStatus>,
  ][]) {
    for (const [type, to] of Object.entries(row) as [EventType, ConnectionStatus][]) {
      test(`behavior: ${type} while ${from} ${from === to ? 'stays' : 'goes'} ${to}`, () => {
        assert.equal(transition(from, { type }), to)
      })
    }
  }

  test('behavior: the table covers every status and event', () => {
    assert.deepEqual(Object.keys(table).sort(), ['connected', 'connecting', 'disconnected', 'reconnecting'])
    for (const row of Object.values(table))
      assert.deepEqual(Object.keys(row).sort(), [
        'connect',
        'connected',
        'disconnected',
        'failed',
        'reconnect',
      ])
  })

  test('behavior: a late wallet event cannot connect a disconnected namespace', () => {
    assert.equal(transition('disconnected', { type: 'connected' }), 'disconnected')
  })

  test('behavior: a late failure does not drop a live connection', () => {
    assert.equal(transition('connected', { type: 'failed' }), 'connected')
  })

  test('behavior: reconnecting -> connected -> disconnected', () => {
    assert.deepEqual(walk('disconnected', ['reconnect', 'connected', 'disconnected']), [
      'reconnecting',
      'connected',
      'disconnected',
    ])
  })

  test('behavior: a failed reconnect falls back to disconnected and may connect again', () => {
    assert.deepEqual(walk('disconnected', ['reconnect', 'failed', 'connect', 'connected']), [
      'reconnecting',
      'disconnected',
      'connecting',
      'connected',
    ])
  })

  test('behavior: connecting again from connected (another wallet) then a rejection ends disconnected', () => {
    assert.deepEqual(walk('connected', ['connect', 'failed']), ['connecting', 'disconnected'])
  })
})
