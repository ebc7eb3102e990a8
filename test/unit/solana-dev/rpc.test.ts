import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js'
import { WebSocket } from 'ws'
import { encodeBase58 } from '../../../server/dev/solana/codec.ts'
import { type LocalSolana, startSolana } from '../../../server/dev/solana/index.ts'
import { canListen, post, rpc, stopCleanly } from './helpers.ts'

type Message = Record<string, unknown>

/** A raw WebSocket client that queues every message it receives. */
async function openSocket(url: string): Promise<{
  socket: WebSocket
  send(payload: unknown): void
  next(predicate?: (message: Message) => boolean): Promise<Message>
}> {
  const socket = new WebSocket(url)
  const queue: Message[] = []
  const waiters: { predicate: (message: Message) => boolean; resolve(message: Message): void }[] = []
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Message
    const index = waiters.findIndex((waiter) => waiter.predicate(message))
    if (index >= 0) waiters.splice(index, 1)[0]?.resolve(message)
    else queue.push(message)
  })
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve())
    socket.once('error', reject)
  })
  return {
    socket,
    send: (payload) => socket.send(typeof payload === 'string' ? payload : JSON.stringify(payload)),
    next(predicate = () => true) {
      const index = queue.findIndex(predicate)
      if (index >= 0) return Promise.resolve(queue.splice(index, 1)[0] as Message)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no message')), 5_000)
        waiters.push({
          predicate,
          resolve: (message) => {
            clearTimeout(timer)
            resolve(message)
          },
        })
      })
    },
  }
}

function transferWire(solana: LocalSolana, lamports: number): { wire: Buffer; signature: string } {
  const from = solana.devKeys[0]
  assert.ok(from)
  const { blockhash, lastValidBlockHeight } = solana.ledger.latestBlockhash()
  const tx = new Transaction({ feePayer: from.publicKey, blockhash, lastValidBlockHeight }).add(
    SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: Keypair.generate().publicKey, lamports }),
  )
  tx.sign(from)
  return { wire: tx.serialize(), signature: encodeBase58(tx.signature ?? new Uint8Array(64)) }
}

describe('local Solana JSON-RPC and PubSub envelopes', { timeout: 30_000 }, () => {
  let solana: LocalSolana

  before(async () => {
    // Port 0: both ports are picked by the system (the URLs say which).
    solana = await startSolana({ port: 0 })
  })

  after(async () => {
    if (!solana) return
    await stopCleanly(solana)
    assert.ok(await canListen(Number(new URL(solana.url).port)), 'HTTP port released')
    assert.ok(await canListen(Number(new URL(solana.wsUrl).port)), 'WebSocket port released')
  })

  test('an unknown method is -32601 method not found', async () => {
    const reply = await rpc(solana.url, 'getEverything', [])
    assert.deepEqual(reply, { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 1 })
  })

  test('malformed JSON is -32700 with a null id', async () => {
    const reply = await post(solana.url, '{"jsonrpc":"2.0","id":1,"method":')
    assert.equal(reply.status, 200)
    assert.deepEqual(reply.body, {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error' },
      id: null,
    })
  })

  test('a request without a method, or an empty batch, is -32600', async () => {
    const noMethod = await post(solana.url, JSON.stringify({ jsonrpc: '2.0', id: 7 }))
    assert.deepEqual(noMethod.body, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request' },
      id: 7,
    })
    const wrongVersion = await post(solana.url, JSON.stringify({ jsonrpc: '1.0', id: 8, method: 'getSlot' }))
    assert.equal(
      (wrongVersion.body as Message).error && ((wrongVersion.body as Message).error as Message).code,
      -32600,
    )
    const empty = await post(solana.url, '[]')
    assert.deepEqual(empty.body, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request' },
      id: null,
    })
  })

  test('a batch is answered in order, each entry on its own', async () => {
    const owner = solana.devKeys[0]?.publicKey.toBase58()
    const reply = await post(
      solana.url,
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'getBalance', params: [owner] },
        { jsonrpc: '2.0', id: 'b', method: 'nope' },
        { jsonrpc: '2.0', method: 'getSlot' },
        { jsonrpc: '2.0', id: 'c', method: 'getHealth' },
        42,
      ]),
    )
    const body = reply.body as Message[]
    assert.equal(body.length, 4, 'the notification (no id) gets no answer')
    assert.equal(body[0]?.id, 'a')
    assert.equal(typeof (body[0]?.result as Message | undefined)?.value, 'number')
    assert.deepEqual(body[1], {
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found' },
      id: 'b',
    })
    assert.deepEqual(body[2], { jsonrpc: '2.0', result: 'ok', id: 'c' })
    assert.deepEqual(body[3], {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request' },
      id: null,
    })

    const onlyNotifications = await post(solana.url, JSON.stringify([{ jsonrpc: '2.0', method: 'getSlot' }]))
    assert.equal(onlyNotifications.status, 204)
  })

  test('bad params are -32602', async () => {
    const badKey = await rpc(solana.url, 'getBalance', ['not-a-key'])
    assert.equal((badKey.error as Message).code, -32602)
    const missing = await rpc(solana.url, 'getBalance')
    assert.equal((missing.error as Message).code, -32602)
    const tooMany = await rpc(solana.url, 'getSignaturesForAddress', [
      solana.mint.address.toBase58(),
      { limit: 5_000 },
    ])
    assert.equal((tooMany.error as Message).code, -32602)
    const notToken = await rpc(solana.url, 'getTokenAccountBalance', [
      solana.devKeys[0]?.publicKey.toBase58(),
    ])
    assert.deepEqual(notToken.error, { code: -32602, message: 'Invalid params: not a Token account' })
    const garbage = await rpc(solana.url, 'sendTransaction', ['AAAA', { encoding: 'base64' }])
    assert.equal((garbage.error as Message).code, -32602)
  })

  test('sendTransaction takes base58 (the default) and base64', async () => {
    const first = transferWire(solana, LAMPORTS_PER_SOL)
    const base58 = await rpc(solana.url, 'sendTransaction', [encodeBase58(first.wire)])
    assert.equal(base58.result, first.signature)
    const second = transferWire(solana, LAMPORTS_PER_SOL + 1)
    const base64 = await rpc(solana.url, 'sendTransaction', [
      second.wire.toString('base64'),
      { encoding: 'base64' },
    ])
    assert.equal(base64.result, second.signature)
    const statuses = await rpc(solana.url, 'getSignatureStatuses', [
      [first.signature, second.signature, encodeBase58(new Uint8Array(64).fill(1))],
    ])
    const value = (statuses.result as Message).value as (Message | null)[]
    assert.equal(value[0]?.err, null)
    assert.deepEqual(value[0]?.status, { Ok: null })
    assert.equal(value[1]?.confirmationStatus, 'finalized')
    assert.equal(value[2], null)
  })

  test('a refused transaction carries the SVM error and logs in error.data, as a validator does', async () => {
    const { wire } = transferWire(solana, 10_000 * LAMPORTS_PER_SOL)
    const reply = await rpc(solana.url, 'sendTransaction', [wire.toString('base64'), { encoding: 'base64' }])
    const error = reply.error as { code: number; message: string; data: { err: unknown; logs: string[] } }
    assert.equal(error.code, -32002)
    assert.equal(
      error.message,
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    )
    assert.deepEqual(error.data.err, { InstructionError: [0, { Custom: 1 }] })
    assert.ok(error.data.logs.some((line) => line.includes('insufficient lamports')))
  })

  test('getTransaction encodings and the version rule', async () => {
    const { wire, signature } = transferWire(solana, LAMPORTS_PER_SOL)
    await rpc(solana.url, 'sendTransaction', [wire.toString('base64'), { encoding: 'base64' }])
    const json = (await rpc(solana.url, 'getTransaction', [signature])).result as Message
    assert.equal('version' in json, false, 'no version without maxSupportedTransactionVersion')
    assert.equal(((json.transaction as Message).signatures as string[])[0], signature)
    const b64 = (await rpc(solana.url, 'getTransaction', [signature, { encoding: 'base64' }]))
      .result as Message
    assert.deepEqual(b64.transaction, [wire.toString('base64'), 'base64'])
    const missing = await rpc(solana.url, 'getTransaction', [encodeBase58(new Uint8Array(64).fill(2))])
    assert.equal(missing.result, null)
  })

  test('CORS preflight and /health', async () => {
    const preflight = await fetch(solana.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-headers': 'content-type,solana-client',
      },
    })
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*')
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /solana-client/)
    const health = await fetch(`${solana.url}/health`)
    assert.equal(await health.text(), 'ok')
  })

  test('WebSocket: unknown methods, bad JSON, signature and slot subscriptions', async () => {
    const client = await openSocket(solana.wsUrl)
    try {
      client.send({ jsonrpc: '2.0', id: 1, method: 'blockSubscribe', params: [] })
      assert.deepEqual(await client.next((m) => m.id === 1), {
        jsonrpc: '2.0',
        error: { code: -32601, message: 'Method not found' },
        id: 1,
      })
      client.send('{oops')
      assert.equal(((await client.next((m) => m.id === null)).error as Message).code, -32700)

      // A signature that is not there yet: notified when it lands, then the subscription is gone.
      const { wire, signature } = transferWire(solana, LAMPORTS_PER_SOL)
      client.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'signatureSubscribe',
        params: [signature, { commitment: 'confirmed' }],
      })
      const subscription = (await client.next((m) => m.id === 2)).result
      assert.equal(typeof subscription, 'number')
      client.send({ jsonrpc: '2.0', id: 3, method: 'slotSubscribe' })
      const slotSubscription = (await client.next((m) => m.id === 3)).result
      await rpc(solana.url, 'sendTransaction', [wire.toString('base64'), { encoding: 'base64' }])
      const notification = await client.next((m) => m.method === 'signatureNotification')
      const params = notification.params as {
        subscription: number
        result: { context: { slot: number }; value: unknown }
      }
      assert.equal(params.subscription, subscription)
      assert.deepEqual(params.result.value, { err: null })
      const slot = await client.next((m) => m.method === 'slotNotification')
      assert.equal((slot.params as Message).subscription, slotSubscription)

      // Unsubscribing an auto-disposed signature subscription still succeeds (web3.js may race it).
      client.send({ jsonrpc: '2.0', id: 4, method: 'signatureUnsubscribe', params: [subscription] })
      assert.equal((await client.next((m) => m.id === 4)).result, true)
      client.send({ jsonrpc: '2.0', id: 5, method: 'accountUnsubscribe', params: [123_456] })
      assert.equal(((await client.next((m) => m.id === 5)).error as Message).code, -32602)

      // A signature that already landed is notified right away.
      client.send({ jsonrpc: '2.0', id: 6, method: 'signatureSubscribe', params: [signature] })
      const late = (await client.next((m) => m.id === 6)).result
      const lateNotification = await client.next((m) => m.method === 'signatureNotification')
      assert.equal((lateNotification.params as Message).subscription, late)
      client.send({ jsonrpc: '2.0', id: 7, method: 'slotUnsubscribe', params: [slotSubscription] })
      assert.equal((await client.next((m) => m.id === 7)).result, true)
    } finally {
      client.socket.close()
    }
  })

  test('the HTTP port accepts WebSocket upgrades too', async () => {
    const client = await openSocket(solana.url.replace('http', 'ws'))
    try {
      client.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'accountSubscribe',
        params: [solana.mint.address.toBase58(), { encoding: 'jsonParsed' }],
      })
      const id = (await client.next((m) => m.id === 1)).result
      client.send({ jsonrpc: '2.0', id: 2, method: 'accountUnsubscribe', params: [id] })
      assert.equal((await client.next((m) => m.id === 2)).result, true)
    } finally {
      client.socket.close()
    }
  })
})
