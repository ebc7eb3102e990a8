import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Relay } from '../../../server/dev/relay/index.ts'
import { RELAY_ERROR, startRelay } from '../../../server/dev/relay/index.ts'
import { makeAuth, newTopic, RawClient } from './helpers.ts'
import { sha256, waitFor } from './protocol-helpers.ts'

describe('dev relay protocol', () => {
  let relay: Relay
  const clients: RawClient[] = []
  const connect = async (options: Parameters<typeof RawClient.connect>[1] = {}): Promise<RawClient> => {
    const client = await RawClient.connect(relay.url, options)
    clients.push(client)
    return client
  }

  before(async () => {
    relay = await startRelay({ port: 0 })
  })
  after(async () => {
    await Promise.all(clients.map((client) => client.close()))
    await relay.stop()
  })

  test('default: binds loopback and answers irn_subscribe with sha256(topic + clientId)', async () => {
    assert.match(relay.url, /^ws:\/\/127\.0\.0\.1:\d+$/)
    const client = await connect()
    const topic = newTopic()
    const id = await client.request('irn_subscribe', { topic })
    assert.equal(id, sha256(topic + client.auth.clientId))
  })

  test('behavior: publish delivers to the subscriber, not back to the publisher; ack drops it', async () => {
    const subscriber = await connect()
    const publisher = await connect()
    const topic = newTopic()
    const subscriptionId = await subscriber.request('irn_subscribe', { topic })
    await publisher.request('irn_subscribe', { topic })
    const kept = relay.stats().messages

    const result = await publisher.request('irn_publish', { topic, message: 'aGVsbG8=', ttl: 300, tag: 1108 })
    assert.equal(result, true)
    const delivery = await subscriber.nextDelivery()
    assert.equal(delivery.method, 'irn_subscription')
    assert.equal(delivery.params.id, subscriptionId)
    assert.equal(delivery.params.data.topic, topic)
    assert.equal(delivery.params.data.message, 'aGVsbG8=')
    assert.equal(delivery.params.data.tag, 1108)
    assert.equal(typeof delivery.params.data.publishedAt, 'number')
    assert.ok(await publisher.noDelivery(), 'the publisher does not get its own message')
    assert.equal(relay.stats().messages, kept + 1)

    subscriber.ack(delivery.id)
    await waitFor(() => relay.stats().messages === kept)
  })

  test('behavior: a message published before anyone subscribes waits in the mailbox', async () => {
    const publisher = await connect()
    const topic = newTopic()
    await publisher.request('irn_publish', { topic, message: 'early', ttl: 300, attestation: 'att' })
    const late = await connect()
    await late.request('irn_subscribe', { topic })
    const delivery = await late.nextDelivery()
    assert.equal(delivery.params.data.message, 'early')
    assert.equal(delivery.params.data.attestation, 'att')
    late.ack(delivery.id)
  })

  test('behavior: an unacknowledged message is delivered again after reconnecting; not after an ack', async () => {
    const publisher = await connect()
    const topic = newTopic()
    const first = await connect()
    await first.request('irn_subscribe', { topic })
    await publisher.request('irn_publish', { topic, message: 'again', ttl: 300 })
    const unacked = await first.nextDelivery()
    assert.equal(unacked.params.data.message, 'again')
    await first.close()

    // Same client key, new socket: the client's reconnect path (irn_batchSubscribe).
    const second = await connect({ auth: await makeAuth(relay.url, { keyPair: first.auth.keyPair }) })
    await second.request('irn_batchSubscribe', { topics: [topic] })
    const redelivered = await second.nextDelivery()
    assert.equal(redelivered.params.data.message, 'again')
    assert.equal(redelivered.params.id, sha256(topic + first.auth.clientId))
    second.ack(redelivered.id)
    await second.close()

    const third = await connect({ auth: await makeAuth(relay.url, { keyPair: first.auth.keyPair }) })
    await third.request('irn_subscribe', { topic })
    assert.ok(await third.noDelivery())
  })

  test('behavior: resubscribing on the same socket does not duplicate a delivery in flight', async () => {
    const publisher = await connect()
    const subscriber = await connect()
    const topic = newTopic()
    await subscriber.request('irn_subscribe', { topic })
    await publisher.request('irn_publish', { topic, message: 'once', ttl: 300 })
    const delivery = await subscriber.nextDelivery()
    await subscriber.request('irn_subscribe', { topic })
    assert.ok(await subscriber.noDelivery())
    subscriber.ack(delivery.id)
  })

  test('behavior: the same message published twice is kept and delivered once', async () => {
    const publisher = await connect()
    const subscriber = await connect({ autoAck: true })
    const topic = newTopic()
    await subscriber.request('irn_subscribe', { topic })
    await publisher.request('irn_publish', { topic, message: 'dup', ttl: 300 })
    await publisher.request('irn_publish', { topic, message: 'dup', ttl: 300 })
    await subscriber.nextDelivery()
    assert.ok(await subscriber.noDelivery())
  })

  test('behavior: batch subscribe, publish and unsubscribe', async () => {
    const publisher = await connect()
    const subscriber = await connect({ autoAck: true })
    const topics = [newTopic(), newTopic(), newTopic()]
    const ids = await subscriber.request<string[]>('irn_batchSubscribe', { topics })
    assert.deepEqual(
      ids,
      topics.map((topic) => sha256(topic + subscriber.auth.clientId)),
    )

    const messages = topics.map((topic, index) => ({ topic, message: `m${index}`, ttl: 300, tag: index }))
    assert.equal(await publisher.request('irn_batchPublish', { messages }), true)
    const received = [
      await subscriber.nextDelivery(),
      await subscriber.nextDelivery(),
      await subscriber.nextDelivery(),
    ]
    assert.deepEqual(received.map((delivery) => delivery.params.data.message).sort(), ['m0', 'm1', 'm2'])
    for (const delivery of received) {
      assert.equal(delivery.params.id, sha256(delivery.params.data.topic + subscriber.auth.clientId))
    }

    const subscriptions = topics.map((topic, index) => ({ topic, id: ids[index] }))
    assert.equal(await subscriber.request('irn_batchUnsubscribe', { subscriptions }), true)
    await publisher.request('irn_batchPublish', {
      messages: topics.map((topic) => ({ topic, message: 'after', ttl: 300 })),
    })
    assert.ok(await subscriber.noDelivery())
  })

  test('behavior: irn_unsubscribe stops delivery', async () => {
    const publisher = await connect()
    const subscriber = await connect({ autoAck: true })
    const topic = newTopic()
    const id = await subscriber.request('irn_subscribe', { topic })
    await publisher.request('irn_publish', { topic, message: 'before', ttl: 300 })
    await subscriber.nextDelivery()
    assert.equal(await subscriber.request('irn_unsubscribe', { topic, id }), true)
    await publisher.request('irn_publish', { topic, message: 'after', ttl: 300 })
    assert.ok(await subscriber.noDelivery())
  })

  test('behavior: irn_fetchMessages returns {messages, hasMore} and receives them', async () => {
    const publisher = await connect()
    const topic = newTopic()
    await publisher.request('irn_publish', { topic, message: 'one', ttl: 300, tag: 7 })
    await publisher.request('irn_publish', { topic, message: 'two', ttl: 300 })
    const reader = await connect()

    const own = await publisher.request<{ messages: unknown[] }>('irn_fetchMessages', { topic })
    assert.equal(own.messages.length, 0, 'a client does not fetch its own messages')

    const fetched = await reader.request<{
      messages: { topic: string; message: string; tag: number }[]
      hasMore: boolean
    }>('irn_fetchMessages', { topic })
    assert.equal(fetched.hasMore, false)
    assert.deepEqual(
      fetched.messages.map(({ topic, message, tag }) => ({ topic, message, tag })),
      [
        { topic, message: 'one', tag: 7 },
        { topic, message: 'two', tag: 0 },
      ],
    )
    const again = await reader.request<{ messages: unknown[] }>('irn_fetchMessages', { topic })
    assert.deepEqual(again.messages, [])
  })

  test('behavior: wc_proposeSession and wc_approveSession publish and subscribe implicitly', async () => {
    const dapp = await connect({ autoAck: true })
    const wallet = await connect({ autoAck: true })
    const pairingTopic = newTopic()
    const sessionTopic = newTopic()

    const proposed = await dapp.request('wc_proposeSession', {
      pairingTopic,
      sessionProposal: 'proposal',
      ttl: 300,
      correlationId: 1,
    })
    assert.equal(proposed, true)
    assert.ok(await dapp.noDelivery(100), 'the proposer does not get its own proposal')

    await wallet.request('irn_subscribe', { topic: pairingTopic })
    const proposal = await wallet.nextDelivery()
    assert.equal(proposal.params.data.message, 'proposal')
    assert.equal(proposal.params.data.tag, 1100)

    const approved = await wallet.request('wc_approveSession', {
      pairingTopic,
      sessionTopic,
      sessionProposalResponse: 'response',
      sessionSettlementRequest: 'settle',
      ttl: 300,
    })
    assert.equal(approved, true)
    const response = await dapp.nextDelivery()
    assert.equal(response.params.data.message, 'response')
    assert.equal(response.params.data.topic, pairingTopic)
    assert.equal(response.params.id, sha256(pairingTopic + dapp.auth.clientId))

    await dapp.request('irn_subscribe', { topic: sessionTopic })
    const settle = await dapp.nextDelivery()
    assert.equal(settle.params.data.message, 'settle')
    assert.equal(settle.params.data.tag, 1102)

    await dapp.request('irn_publish', { topic: sessionTopic, message: 'settled', ttl: 300 })
    const settled = await wallet.nextDelivery()
    assert.equal(settled.params.data.message, 'settled')
    assert.equal(settled.params.id, sha256(sessionTopic + wallet.auth.clientId))
  })

  test('error: malformed frames get JSON-RPC errors and the socket stays usable', async () => {
    const client = await connect()
    const cases: [string, number, unknown][] = [
      ['not json', RELAY_ERROR.parse, null],
      ['[1,2]', RELAY_ERROR.invalidRequest, null],
      ['42', RELAY_ERROR.invalidRequest, null],
      ['{"jsonrpc":"1.0","id":5,"method":"irn_subscribe","params":{}}', RELAY_ERROR.invalidRequest, 5],
      ['{"jsonrpc":"2.0","method":"irn_subscribe","params":{}}', RELAY_ERROR.invalidRequest, null],
      ['{"jsonrpc":"2.0","id":{},"method":"irn_subscribe"}', RELAY_ERROR.invalidRequest, null],
      ['{"jsonrpc":"2.0","id":6,"method":"irn_nothing"}', RELAY_ERROR.methodNotFound, 6],
      [
        '{"jsonrpc":"2.0","id":"7","method":"irn_subscribe","params":{"topic":"xyz"}}',
        RELAY_ERROR.invalidParams,
        '7',
      ],
      ['{"jsonrpc":"2.0","id":8,"method":"irn_subscribe"}', RELAY_ERROR.invalidParams, 8],
      [
        `{"jsonrpc":"2.0","id":9,"method":"irn_publish","params":{"topic":"${newTopic()}","message":"x"}}`,
        RELAY_ERROR.invalidParams,
        9,
      ],
      [
        `{"jsonrpc":"2.0","id":10,"method":"irn_publish","params":{"topic":"${newTopic()}","message":"x","ttl":-1}}`,
        RELAY_ERROR.invalidParams,
        10,
      ],
      [
        '{"jsonrpc":"2.0","id":11,"method":"irn_batchSubscribe","params":{"topics":[]}}',
        RELAY_ERROR.invalidParams,
        11,
      ],
      [
        `{"jsonrpc":"2.0","id":12,"method":"irn_batchSubscribe","params":{"topics":${JSON.stringify(
          Array.from({ length: 501 }, newTopic),
        )}}}`,
        RELAY_ERROR.invalidParams,
        12,
      ],
      [
        '{"jsonrpc":"2.0","id":13,"method":"wc_approveSession","params":{"pairingTopic":"a"}}',
        RELAY_ERROR.invalidParams,
        13,
      ],
    ]
    for (const [frame, code, id] of cases) {
      const response = await client.sendRaw(frame)
      assert.equal(response.error?.code, code, frame.slice(0, 80))
      assert.deepEqual(response.id, id, frame.slice(0, 80))
      assert.equal(response.jsonrpc, '2.0')
    }
    // A stray response (an ack for nothing) is ignored.
    client.socket.send('{"jsonrpc":"2.0","id":424242,"result":true}')

    const topic = newTopic()
    assert.equal(await client.request('irn_subscribe', { topic }), sha256(topic + client.auth.clientId))
  })

  test('behavior: request ids beyond 2^53 come back exactly as sent', async () => {
    const client = await connect()
    const raw = new Promise<string>((resolve) =>
      client.socket.once('message', (data) => resolve(String(data))),
    )
    client.socket.send(
      `{"jsonrpc":"2.0","id":1745000000000000123,"method":"irn_subscribe","params":{"topic":"${newTopic()}"}}`,
    )
    assert.match(await raw, /^\{"id":1745000000000000123,/)
  })
})
