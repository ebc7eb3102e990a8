// The dev relay's TTLs, size and rate limits, and many clients at once (the protocol itself is in
// protocol.test.ts).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RELAY_ERROR } from '../../../server/dev/relay/index.ts'
import { makeAuth, newTopic } from './helpers.ts'
import { waitFor, withRelay } from './protocol-helpers.ts'

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
