import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import type { Relay, RelayOptions } from '../../../server/dev/relay/index.ts'
import { RELAY_ERROR, startRelay } from '../../../server/dev/relay/index.ts'
import { makeAuth, newTopic, RawClient } from './helpers.ts'

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

/** Starts a relay on a free port for one test and stops it (and the test's clients) afterwards. */
async function withRelay(
  options: RelayOptions,
  body: (relay: Relay, connect: typeof RawClient.connect) => Promise<void>,
): Promise<void> {
  const relay = await startRelay({ port: 0, ...options })
  const clients: RawClient[] = []
  const connect: typeof RawClient.connect = async (url, connectOptions) => {
    const client = await RawClient.connect(url, connectOptions)
    clients.push(client)
    return client
  }
  try {
    await body(relay, connect)
  } finally {
    await Promise.all(clients.map((client) => client.close()))
    await relay.stop()
  }
}

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

describe('dev relay TTL', () => {
  test('behavior: expired messages are not delivered and are evicted by the timer', async () => {
    let clock = Date.now()
    await withRelay(
      { now: () => clock, sweepIntervalMs: 20, limits: { maxTtlSeconds: 60 } },
      async (relay, connect) => {
        const publisher = await connect(relay.url)
        const topic = newTopic()
        await publisher.request('irn_publish', { topic, message: 'short', ttl: 10 })
        await publisher.request('irn_publish', { topic, message: 'clamped', ttl: 86_400 })
        assert.equal(relay.stats().messages, 2)

        clock += 11_000
        const late = await connect(relay.url)
        await late.request('irn_subscribe', { topic })
        const delivery = await late.nextDelivery()
        assert.equal(delivery.params.data.message, 'clamped')
        assert.ok(await late.noDelivery(100), 'the 10 s message expired on access')
        await late.close()

        clock += 50_000 // past the 60 s cap of the "clamped" one
        await waitFor(() => relay.stats().messages === 0)
        assert.equal(relay.stats().expired, 2)
        assert.equal(relay.stats().topics, 0)
      },
    )
  })
})

describe('dev relay TTL at the caps', () => {
  test('behavior: an expired copy of a message, or expired messages at the global cap, make room', async () => {
    let clock = Date.now()
    await withRelay(
      { now: () => clock, sweepIntervalMs: 60_000, limits: { maxMessages: 1 } },
      async (relay, connect) => {
        const publisher = await connect(relay.url)
        const topic = newTopic()
        await publisher.request('irn_publish', { topic, message: 'same', ttl: 10 })
        clock += 11_000
        await publisher.request('irn_publish', { topic, message: 'same', ttl: 10 })
        assert.deepEqual([relay.stats().messages, relay.stats().expired], [1, 1])
        clock += 11_000
        await publisher.request('irn_publish', { topic: newTopic(), message: 'other', ttl: 10 })
        assert.deepEqual([relay.stats().messages, relay.stats().expired, relay.stats().topics], [1, 2, 1])
      },
    )
  })
})

describe('dev relay limits', () => {
  test('error: subscriptions per connection', async () => {
    await withRelay({ limits: { maxSubscriptionsPerConnection: 2 } }, async (relay, connect) => {
      const client = await connect(relay.url)
      await client.request('irn_subscribe', { topic: newTopic() })
      const response = await client.call('irn_batchSubscribe', { topics: [newTopic(), newTopic()] })
      assert.equal(response.error?.code, RELAY_ERROR.subscriptionLimit)
      assert.equal(relay.stats().subscriptions, 1, 'a refused batch subscribes nothing')
      await client.request('irn_subscribe', { topic: newTopic() })
      const third = await client.call('irn_subscribe', { topic: newTopic() })
      assert.equal(third.error?.code, RELAY_ERROR.subscriptionLimit)
      const implicit = await client.call('wc_proposeSession', {
        pairingTopic: newTopic(),
        sessionProposal: 'p',
      })
      assert.equal(implicit.error?.code, RELAY_ERROR.subscriptionLimit)
    })
  })

  test('error: message size, mailbox per topic, global store and topics', async () => {
    const limits = { maxMessageBytes: 100, maxMessagesPerTopic: 2, maxMessages: 3, maxTopics: 3 }
    await withRelay({ limits }, async (relay, connect) => {
      const client = await connect(relay.url)
      const [a, b, c, d] = [newTopic(), newTopic(), newTopic(), newTopic()]
      const big = await client.call('irn_publish', { topic: a, message: 'x'.repeat(101), ttl: 300 })
      assert.equal(big.error?.code, RELAY_ERROR.messageTooLarge)
      await client.request('irn_publish', { topic: a, message: 'x'.repeat(100), ttl: 300 })
      await client.request('irn_publish', { topic: a, message: 'a2', ttl: 300 })
      const full = await client.call('irn_publish', { topic: a, message: 'a3', ttl: 300 })
      assert.equal(full.error?.code, RELAY_ERROR.mailboxLimit)
      await client.request('irn_publish', { topic: b, message: 'b1', ttl: 300 })
      const global = await client.call('irn_publish', { topic: c, message: 'c1', ttl: 300 })
      assert.equal(global.error?.code, RELAY_ERROR.mailboxLimit)
      await client.request('irn_subscribe', { topic: c })
      const topics = await client.call('irn_subscribe', { topic: d })
      assert.equal(topics.error?.code, RELAY_ERROR.topicLimit)
      assert.deepEqual(
        { messages: relay.stats().messages, topics: relay.stats().topics },
        { messages: 3, topics: 3 },
      )
    })
  })

  test('error: attestation size, bytes per topic and bytes overall', async () => {
    const limits = { maxAttestationBytes: 50, maxTopicBytes: 300, maxTotalBytes: 400 }
    await withRelay({ limits }, async (relay, connect) => {
      const client = await connect(relay.url)
      const [a, b, c] = [newTopic(), newTopic(), newTopic()]
      const attested = await client.call('irn_publish', {
        topic: a,
        message: 'm',
        ttl: 300,
        attestation: 'x'.repeat(51),
      })
      assert.deepEqual(attested.error, {
        code: RELAY_ERROR.messageTooLarge,
        message: 'Attestation too large (limit 50 bytes)',
      })
      // Each message keeps 100 + 64 (topic) bytes.
      await client.request('irn_publish', { topic: a, message: 'a'.repeat(100), ttl: 300 })
      const topicFull = await client.call('irn_publish', { topic: a, message: 'b'.repeat(100), ttl: 300 })
      assert.deepEqual(topicFull.error, {
        code: RELAY_ERROR.mailboxLimit,
        message: 'Mailbox byte limit exceeded for this topic (300 bytes)',
      })
      await client.request('irn_publish', { topic: b, message: 'c'.repeat(100), ttl: 300 })
      const storeFull = await client.call('irn_publish', { topic: c, message: 'd'.repeat(100), ttl: 300 })
      assert.deepEqual(storeFull.error, {
        code: RELAY_ERROR.mailboxLimit,
        message: 'Relay message store is full (400 bytes)',
      })
      assert.equal(relay.stats().messageBytes, 328)
      assert.equal(relay.stats().topics, 2, 'the refused topic is not kept')
    })
  })

  test('error: publishes per connection per second, batches counted message by message', async () => {
    let clock = Date.now()
    await withRelay({ now: () => clock, limits: { maxPublishesPerSecond: 3 } }, async (relay, connect) => {
      const client = await connect(relay.url)
      const other = await connect(relay.url)
      const topic = newTopic()
      for (const message of ['1', '2', '3']) await client.request('irn_publish', { topic, message, ttl: 300 })
      const refused = await client.call('irn_publish', { topic, message: '4', ttl: 300 })
      assert.deepEqual(refused.error, {
        code: RELAY_ERROR.publishRateLimit,
        message: 'Too many publishes: over 3 a second on this connection',
      })
      await other.request('irn_publish', { topic, message: 'other', ttl: 300 })
      clock += 1000
      const batch = (count: number) =>
        client.call('irn_batchPublish', {
          messages: Array.from({ length: count }, (_, index) => ({
            topic,
            message: `b${clock}-${index}`,
            ttl: 300,
          })),
        })
      assert.equal((await batch(4)).error?.code, RELAY_ERROR.publishRateLimit)
      assert.equal((await batch(3)).error, undefined)
      assert.equal(relay.stats().published, 7)
    })
  })

  test('error: a page origin that is not on this machine cannot connect; Node clients and local pages can', async () => {
    await withRelay({ allowedOrigins: ['https://wallet.example'] }, async (relay) => {
      const { WebSocket } = await import('ws')
      const attempt = async (origin: string | undefined) => {
        const auth = await makeAuth(relay.url)
        const socket = new WebSocket(
          `${relay.url}/?auth=${auth.jwt}&projectId=dev-project`,
          origin === undefined ? {} : { origin },
        )
        return new Promise<number>((resolve) => {
          socket.once('open', () => {
            socket.close()
            resolve(101)
          })
          socket.once('unexpected-response', (_request, response) => {
            socket.terminate()
            resolve(response.statusCode ?? 0)
          })
          socket.once('error', () => resolve(-1))
        })
      }
      for (const origin of [
        'https://evil.example',
        'http://localhost.evil.example',
        'null',
        'http://10.0.0.5:5173',
      ]) {
        assert.equal(await attempt(origin), 403, origin)
      }
      for (const origin of [
        undefined,
        'http://localhost:5173',
        'http://127.0.0.1:4173',
        'http://[::1]:5173',
        'https://wallet.example',
      ]) {
        assert.equal(await attempt(origin), 101, String(origin))
      }
      assert.equal(relay.stats().refusedUpgrades, 4)
    })
  })

  test('behavior: deliveries beyond maxPendingAcks wait until acknowledgements catch up', async () => {
    await withRelay({ limits: { maxPendingAcks: 2 } }, async (relay, connect) => {
      const publisher = await connect(relay.url)
      const subscriber = await connect(relay.url)
      const topic = newTopic()
      await subscriber.request('irn_subscribe', { topic })
      for (const message of ['m1', 'm2', 'm3', 'm4']) {
        await publisher.request('irn_publish', { topic, message, ttl: 300 })
      }
      const first = await subscriber.nextDelivery()
      const second = await subscriber.nextDelivery()
      assert.ok(await subscriber.noDelivery(100))
      assert.equal(relay.stats().pendingAcks, 2)

      subscriber.ack(first.id)
      const third = await subscriber.nextDelivery()
      subscriber.ack(second.id)
      const fourth = await subscriber.nextDelivery()
      assert.deepEqual(
        [first, second, third, fourth].map((delivery) => delivery.params.data.message),
        ['m1', 'm2', 'm3', 'm4'],
      )
    })
  })

  test('error: a frame over maxFrameBytes closes the socket with 1009', async () => {
    await withRelay({ limits: { maxFrameBytes: 1024 } }, async (relay, connect) => {
      const client = await connect(relay.url)
      const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)))
      client.socket.send('x'.repeat(2048))
      assert.equal(await closed, 1009)
      await waitFor(() => relay.stats().connections === 0)
    })
  })

  test('behavior: a socket that stops answering pings is closed', async () => {
    await withRelay({ heartbeatIntervalMs: 50 }, async (relay, connect) => {
      const healthy = await connect(relay.url)
      const auth = await makeAuth(relay.url)
      const { WebSocket } = await import('ws')
      const silent = new WebSocket(`${relay.url}/?auth=${auth.jwt}&projectId=dev-project`, {
        autoPong: false,
      })
      await new Promise((resolve) => silent.once('open', resolve))
      const closed = new Promise<void>((resolve) => silent.once('close', () => resolve()))
      await closed
      assert.equal(healthy.socket.readyState, WebSocket.OPEN)
      assert.equal(relay.stats().connections, 1)
    })
  })
})

describe('dev relay with many clients', () => {
  test('behavior: 100 clients in 50 pairs each get exactly their peer messages', async () => {
    await withRelay({}, async (relay, connect) => {
      const pairs = 50
      const perPublisher = 5
      const subscribers = await Promise.all(
        Array.from({ length: pairs }, () => connect(relay.url, { autoAck: true })),
      )
      const publishers = await Promise.all(Array.from({ length: pairs }, () => connect(relay.url)))
      const topics = subscribers.map(() => newTopic())
      await Promise.all(
        subscribers.map((client, index) => client.request('irn_subscribe', { topic: topics[index] })),
      )
      await Promise.all(
        publishers.map(async (client, index) => {
          for (let n = 0; n < perPublisher; n++) {
            await client.request('irn_publish', { topic: topics[index], message: `${index}:${n}`, ttl: 300 })
          }
        }),
      )
      await Promise.all(
        subscribers.map(async (client, index) => {
          const received: string[] = []
          for (let n = 0; n < perPublisher; n++)
            received.push((await client.nextDelivery()).params.data.message)
          assert.deepEqual(
            received,
            Array.from({ length: perPublisher }, (_, n) => `${index}:${n}`),
          )
        }),
      )
      await waitFor(() => relay.stats().messages === 0 && relay.stats().pendingAcks === 0)
      assert.equal(relay.stats().connections, pairs * 2)
      assert.equal(relay.stats().delivered, pairs * perPublisher)
    })
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
