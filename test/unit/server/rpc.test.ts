// The RPC proxy: forwarding, the method allow-list, and real HTTP.
import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { loadConfig } from '../../../server/config.ts'
import { jsonRpcBatchResponse, jsonRpcFailure, jsonRpcResponse } from '../../../src/protocol/api/index.ts'
import { rawRequest, testLogger } from './helpers.ts'
import {
  call,
  downPort,
  impatientApp,
  live,
  rpc,
  silent,
  solanaMainnet,
  startRpcService,
  testDb,
  timeoutMs,
} from './rpc-helpers.ts'

startRpcService()

describe('POST /v1/ proxy', () => {
  test('default: a single request is forwarded and the answer returned as is', async () => {
    const response = await rpc(call(1), { origin: 'http://localhost:5173' })
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(response.body, JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x2a' }, null, 1))
    assert.equal(response.headers['access-control-allow-origin'], 'http://localhost:5173')
    assert.deepEqual(live.received, [JSON.stringify(call(1))])
  })

  test('behavior: /v1 without the trailing slash works too, and st/sv are optional', async () => {
    const response = await rpc(call(2), { path: '/v1' })
    assert.equal(response.statusCode, 200)
    assert.equal(jsonRpcResponse.parse(response.json()).id, 2)
  })

  test('behavior: a batch is forwarded in one upstream call', async () => {
    const response = await rpc([call(1), call(2, 'eth_chainId'), { jsonrpc: '2.0', method: 'test_notify' }])
    assert.equal(response.statusCode, 200)
    const answers = jsonRpcBatchResponse.parse(response.json())
    assert.equal(answers.length, 2, 'the notification gets no answer')
    assert.deepEqual(answers[0], { jsonrpc: '2.0', id: 1, result: '0x2a' })
    assert.equal(live.received.length, 1)
  })

  test('behavior: a batch of exactly 1000 is accepted', async () => {
    const response = await rpc(Array.from({ length: 1000 }, (_, index) => call(index)))
    assert.equal(response.statusCode, 200)
    assert.equal(jsonRpcBatchResponse.parse(response.json()).length, 1000)
  })

  test('behavior: upstream JSON-RPC errors pass through', async () => {
    const response = await rpc(call(9, 'test_revert'))
    assert.equal(response.statusCode, 200)
    const answer = jsonRpcFailure.parse(response.json())
    assert.deepEqual(answer.error, { code: 3, message: 'execution reverted' })
  })

  test('error: a batch of 1001 is refused with -32600 without contacting the upstream', async () => {
    const response = await rpc(Array.from({ length: 1001 }, (_, index) => call(index)))
    assert.equal(response.statusCode, 400)
    const answer = jsonRpcFailure.parse(response.json())
    assert.equal(answer.id, null)
    assert.equal(answer.error.code, -32600)
    assert.equal(answer.error.message, 'Batch of 1001 requests is over the limit of 1000 requests per batch')
    assert.equal(live.received.length, 0)
  })

  const invalid: [string, unknown, number, string][] = [
    ['an empty batch', [], -32600, 'body'],
    ['a request without jsonrpc', { id: 1, method: 'eth_blockNumber' }, -32600, 'jsonrpc'],
    ['a request with jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'eth_blockNumber' }, -32600, 'jsonrpc'],
    ['a request without method', { jsonrpc: '2.0', id: 1 }, -32600, 'method'],
    ['params that are a string', { jsonrpc: '2.0', id: 1, method: 'x', params: 'no' }, -32600, 'params'],
    ['a bad request inside a batch', [call(1), { jsonrpc: '2.0', id: 2 }], -32600, '[1].method'],
    ['a body that is not JSON', '{"jsonrpc":', -32700, 'body'],
  ]
  for (const [name, body, code, field] of invalid) {
    test(`error: ${name} answers 400 with ${code} naming ${field}`, async () => {
      const response = await rpc(body)
      assert.equal(response.statusCode, 400, response.body)
      const answer = jsonRpcFailure.parse(response.json())
      assert.equal(answer.error.code, code)
      assert.deepEqual((answer.error.data as { field?: string }).field, field)
      assert.equal(live.received.length, 0)
    })
  }

  test('error: messages say which request of a batch is wrong', async () => {
    const missing = jsonRpcFailure.parse((await rpc([call(1), { jsonrpc: '2.0', id: 2 }])).json())
    assert.equal(missing.error.message, 'Invalid request [1] of the batch: method is missing')
    const single = jsonRpcFailure.parse((await rpc({ jsonrpc: '2.0', id: 1, method: '' })).json())
    assert.equal(single.error.message, 'Invalid body field method: Expected a method name')
  })

  test('error: an unknown chain answers 400 naming chainId', async () => {
    const response = await rpc(call(1), { chainId: 'eip155:999' })
    assert.equal(response.statusCode, 400)
    const answer = jsonRpcFailure.parse(response.json())
    assert.equal(answer.error.code, -32602)
    assert.match(answer.error.message, /Unsupported chainId eip155:999/)
    assert.deepEqual(answer.error.data, { code: 'BAD_REQUEST', field: 'chainId' })
  })

  test('error: a missing or malformed chainId answers 400 naming chainId', async () => {
    for (const chainId of [null, 'eip155', 'not:a:chain']) {
      const response = await rpc(call(1), { chainId })
      assert.equal(response.statusCode, 400, String(chainId))
      assert.equal((jsonRpcFailure.parse(response.json()).error.data as { field: string }).field, 'chainId')
    }
  })

  test('error: project and origin errors answer in JSON-RPC form with the spec messages', async () => {
    const refused = await rpc(call(1), { origin: 'https://evil.test' })
    assert.equal(refused.statusCode, 403)
    assert.equal(jsonRpcFailure.parse(refused.json()).error.message, 'Invalid App Configuration')
    const unknown = await rpc(call(1), { projectId: 'nobody' })
    assert.equal(unknown.statusCode, 401)
    assert.equal(jsonRpcFailure.parse(unknown.json()).error.message, 'Invalid Project ID')
    assert.equal(live.received.length, 0)
  })

  test('error: an upstream that is down answers 502 with -32603 and the request id', async () => {
    const response = await rpc(call(5), { chainId: 'eip155:31338' })
    assert.equal(response.statusCode, 502)
    const answer = jsonRpcFailure.parse(response.json())
    assert.equal(answer.id, 5)
    assert.equal(answer.error.code, -32603)
    assert.match(answer.error.message, /The RPC upstream for eip155:31338 is unreachable \(ECONNREFUSED\)/)
    assert.equal(answer.error.message.includes(String(downPort)), false, 'the upstream URL is not disclosed')
  })

  test('error: a batch to an upstream that is down gets one error per request id', async () => {
    const response = await rpc([call(1), call(2), { jsonrpc: '2.0', method: 'test_notify' }], {
      chainId: 'eip155:31338',
    })
    assert.equal(response.statusCode, 502)
    const answers = jsonRpcBatchResponse.parse(response.json())
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [1, 2],
    )
    assert.ok(answers.every((answer) => 'error' in answer && answer.error.code === -32603))
  })

  test('error: an upstream that never answers times out with -32603 Request timed out', async () => {
    const started = performance.now()
    const response = await rpc(call(7), { chainId: 'eip155:1', via: impatientApp })
    const elapsed = performance.now() - started
    assert.equal(response.statusCode, 504)
    const answer = jsonRpcFailure.parse(response.json())
    assert.equal(answer.id, 7)
    assert.equal(answer.error.code, -32603)
    assert.equal(answer.error.message, 'Request timed out')
    assert.ok(elapsed >= timeoutMs - 20 && elapsed < timeoutMs + 2000, `took ${elapsed} ms`)
    assert.ok(silent.received.length > 0, 'the upstream was called')
  })

  test('error: an upstream answering HTML answers 502', async () => {
    const response = await rpc(call(3, 'test_html'))
    assert.equal(response.statusCode, 502)
    assert.match(jsonRpcFailure.parse(response.json()).error.message, /answered HTTP 500 without JSON/)
  })
})

describe('POST /v1/ method allow-list', () => {
  const refusedMethods = [
    'hardhat_setCode',
    'anvil_setBalance',
    'evm_mine',
    'debug_traceTransaction',
    'trace_block',
    'admin_peers',
    'personal_sign',
    'miner_start',
    'txpool_content',
    'engine_newPayloadV3',
    'eth_sign',
    'eth_signTypedData_v4',
    'eth_signTransaction',
    'eth_sendTransaction',
    'eth_accounts',
    'eth_newFilter',
    'no_suchMethod',
  ]
  for (const method of refusedMethods) {
    test(`error: ${method} answers -32601 naming it, and the upstream is not called`, async () => {
      const response = await rpc(call(4, method), { origin: 'http://localhost:5173' })
      assert.equal(response.statusCode, 200)
      assert.deepEqual(response.json(), {
        jsonrpc: '2.0',
        id: 4,
        error: {
          code: -32601,
          message: `The method ${method} is not available through this RPC proxy`,
          data: { code: 'METHOD_NOT_ALLOWED' },
        },
      })
      assert.equal(response.headers['access-control-allow-origin'], 'http://localhost:5173')
      assert.equal(live.received.length, 0)
    })
  }

  test('default: reads, fee methods and eth_sendRawTransaction are forwarded', async () => {
    const methods = [
      'eth_call',
      'eth_getBalance',
      'eth_chainId',
      'eth_blockNumber',
      'eth_getLogs',
      'eth_getCode',
      'eth_estimateGas',
      'eth_gasPrice',
      'eth_maxPriorityFeePerGas',
      'eth_feeHistory',
      'eth_getTransactionReceipt',
      'eth_getTransactionCount',
      'eth_sendRawTransaction',
      'net_version',
      'web3_clientVersion',
    ]
    const response = await rpc(methods.map((method, index) => call(index, method)))
    assert.equal(response.statusCode, 200)
    assert.equal(jsonRpcBatchResponse.parse(response.json()).length, methods.length)
    assert.equal(live.received.length, 1)
  })

  test('behavior: in a batch each refused request gets its own error, in order; only the rest goes upstream', async () => {
    const response = await rpc([
      call(1, 'eth_blockNumber'),
      call(2, 'hardhat_setCode'),
      { jsonrpc: '2.0', method: 'evm_mine' },
      call(3, 'eth_chainId'),
      call(4, 'debug_traceCall'),
    ])
    assert.equal(response.statusCode, 200)
    const answers = jsonRpcBatchResponse.parse(response.json())
    assert.deepEqual(
      answers.map((answer) => [answer.id, 'error' in answer ? answer.error.code : 'ok']),
      [
        [1, 'ok'],
        [2, -32601],
        [3, 'ok'],
        [4, -32601],
      ],
    )
    assert.deepEqual(
      live.received.map((body) => JSON.parse(body).map((entry: { method: string }) => entry.method)),
      [['eth_blockNumber', 'eth_chainId']],
    )
  })

  test('behavior: a batch of refused methods only is answered without calling the upstream', async () => {
    const response = await rpc([call(1, 'evm_mine'), call(2, 'anvil_reset')])
    assert.equal(response.statusCode, 200)
    assert.deepEqual(
      jsonRpcBatchResponse.parse(response.json()).map((answer) => answer.id),
      [1, 2],
    )
    const notification = await rpc({ jsonrpc: '2.0', method: 'evm_mine' })
    assert.equal(notification.statusCode, 204, 'a refused notification gets no answer')
    assert.equal(notification.body, '')
    assert.equal(live.received.length, 0)
  })

  test('behavior: a mixed batch to an upstream that is down gets the refusals and one failure per request', async () => {
    const response = await rpc([call(1), call(2, 'hardhat_mine')], { chainId: 'eip155:31338' })
    assert.equal(response.statusCode, 502)
    const answers = jsonRpcBatchResponse.parse(response.json())
    assert.deepEqual(
      answers.map((answer) => ('error' in answer ? [answer.id, answer.error.code] : [])),
      [
        [1, -32603],
        [2, -32601],
      ],
    )
  })

  test('error: a mixed batch whose upstream answer is not JSON answers 502, not 500', async () => {
    const response = await rpc([call(1, 'test_garbage'), call(2, 'hardhat_mine')])
    assert.equal(response.statusCode, 502)
    const answers = jsonRpcBatchResponse.parse(response.json())
    assert.deepEqual(
      answers.map((answer) => ('error' in answer ? [answer.id, answer.error.code] : [])),
      [
        [1, -32603],
        [2, -32601],
      ],
    )
  })

  test('behavior: Solana networks forward the public Solana methods, sendTransaction included, and nothing else', async () => {
    const allowed = await rpc(
      ['getBalance', 'getLatestBlockhash', 'getAccountInfo', 'sendTransaction', 'getSignatureStatuses'].map(
        (method, index) => call(index, method),
      ),
      { chainId: solanaMainnet },
    )
    assert.equal(allowed.statusCode, 200)
    assert.ok(jsonRpcBatchResponse.parse(allowed.json()).every((answer) => 'result' in answer))
    live.received.length = 0
    for (const method of ['requestAirdrop', 'eth_call', 'getStakeActivationX']) {
      const refused = await rpc(call(1, method), { chainId: solanaMainnet })
      assert.equal(jsonRpcFailure.parse(refused.json()).error.code, -32601, method)
    }
    assert.equal(live.received.length, 0)
    const evm = await rpc(call(1, 'getBalance'))
    assert.equal(jsonRpcFailure.parse(evm.json()).error.code, -32601, 'Solana methods are not EVM methods')
  })

  test('behavior: RPC_ALLOW_METHODS adds methods for every network', async () => {
    const response = await rpc(call(1, 'test_revert'))
    assert.equal(jsonRpcFailure.parse(response.json()).error.message, 'execution reverted')
    assert.equal(live.received.length, 1)
    assert.deepEqual(
      loadConfig({ RPC_ALLOW_METHODS: ' debug_traceTransaction, trace_block ' }).rpcAllowMethods,
      ['debug_traceTransaction', 'trace_block'],
    )
    assert.deepEqual(loadConfig({}).rpcAllowMethods, [])
    assert.throws(
      () => loadConfig({ RPC_ALLOW_METHODS: 'eth_call,rm -rf' }),
      /RPC_ALLOW_METHODS has "rm -rf", which is not a JSON-RPC method name/,
    )
  })
})

describe('POST /v1/ over real HTTP on 127.0.0.1', () => {
  let server: FastifyInstance
  let url = ''

  before(async () => {
    server = await buildApp(
      testDb.config({
        devOrigins: ['http://localhost:5173'],
        rpcTimeoutMs: 1000,
        rpcUpstreams: { 'eip155:31337': live.url, 'eip155:1': silent.url },
      }),
      { database: testDb.database, logger: testLogger },
    )
    url = await server.listen({ host: '127.0.0.1', port: 0 })
  })
  after(async () => {
    await server?.close()
  })

  test('default: fetch through the proxy, preflight, and a timeout', async () => {
    const response = await fetch(`${url}/v1/?chainId=eip155:31337&projectId=dev-project`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([call(1), call(2)]),
    })
    assert.equal(response.status, 200)
    assert.equal(jsonRpcBatchResponse.parse(await response.json()).length, 2)

    const preflight = await rawRequest(`${url}/v1/?chainId=eip155:31337&projectId=dev-project`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    })
    assert.equal(preflight.status, 204)
    assert.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:5173')

    const timedOut = await rawRequest(`${url}/v1/?chainId=eip155:1&projectId=dev-project`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' },
      body: JSON.stringify(call(8)),
    })
    assert.equal(timedOut.status, 504)
    assert.equal(timedOut.headers['access-control-allow-origin'], 'http://localhost:5173')
    assert.equal(jsonRpcFailure.parse(JSON.parse(timedOut.text)).error.message, 'Request timed out')
  })

  test('behavior: a client that hangs up cancels the upstream call before the timeout', async () => {
    const before = silent.hungUp()
    const started = performance.now()
    const request = httpRequest(`${url}/v1/?chainId=eip155:1&projectId=dev-project`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      agent: false,
    })
    request.on('error', () => {})
    request.end(JSON.stringify(call(11)))
    await new Promise((resolve) => setTimeout(resolve, 150))
    request.destroy()
    while (silent.hungUp() === before && performance.now() - started < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    assert.ok(silent.hungUp() > before, 'the upstream connection was closed')
    assert.ok(performance.now() - started < 900, 'before the 1000 ms timeout')
  })
})
