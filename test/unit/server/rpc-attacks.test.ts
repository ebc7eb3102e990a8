/**
 * The RPC proxy and sign-in as an attacker with plain HTTP (no `Origin`, no browser) would try them,
 * against a real local Hardhat chain behind the service on 127.0.0.1.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { type Address, createPublicClient, getAddress, type Hex, http } from 'viem'
import { buildApp } from '../../../server/app.ts'
import { type LocalChain, startChain } from '../../../server/dev/chain/index.ts'
import {
  authErrorBody,
  authNonceResponse,
  jsonRpcBatchResponse,
  jsonRpcFailure,
} from '../../../src/protocol/api/index.ts'
import {
  devSiteMessage,
  freePort,
  openTestDatabase,
  rawRequest,
  sdk,
  type TestDatabase,
  testLogger,
} from './helpers.ts'

/** Runtime code that answers every call with the EIP-1271 magic value `0x1626ba7e`: "any signature is valid". */
const yesToEverything: Hex = '0x631626ba7e60e01b60005260206000f3'
/** An address nobody holds a key for, the account the attacker wants a session for. */
const victim: Address = getAddress('0x000000000000000000000000000000000000bEEF')
/** The dev chain's first unlocked account. */
const devAccount: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

let testDb: TestDatabase
let app: FastifyInstance
let chain: LocalChain
let url = ''

before(
  async () => {
    chain = await startChain({ port: await freePort(), chainId: 31337 })
    testDb = await openTestDatabase('rpc_attacks')
    app = await buildApp(
      testDb.config({
        devOrigins: ['http://localhost:5173'],
        rpcUpstreams: { 'eip155:31337': chain.url },
        rpcTimeoutMs: 5000,
      }),
      { database: testDb.database, logger: testLogger },
    )
    url = await app.listen({ host: '127.0.0.1', port: 0 })
  },
  { timeout: 60_000 },
)

after(async () => {
  await app?.close()
  await testDb?.close()
  await chain?.stop()
})

/** A JSON-RPC call through the proxy, as curl would send it: no `Origin`, no `st`/`sv`. */
async function proxy(body: unknown) {
  const response = await rawRequest(`${url}/v1/?chainId=eip155:31337&projectId=dev-project`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: response.text === '' ? undefined : JSON.parse(response.text) }
}

describe('an attacker with plain HTTP', { timeout: 60_000 }, () => {
  test('error: hardhat_setCode through the proxy, then a junk EIP-1271 signature, opens no session', async () => {
    const setCode = await proxy({
      jsonrpc: '2.0',
      id: 1,
      method: 'hardhat_setCode',
      params: [victim, yesToEverything],
    })
    assert.equal(setCode.status, 200)
    const refusal = jsonRpcFailure.parse(setCode.json)
    assert.equal(refusal.id, 1)
    assert.equal(refusal.error.code, -32601)
    assert.equal(refusal.error.message, 'The method hardhat_setCode is not available through this RPC proxy')
    const chainClient = createPublicClient({ transport: http(chain.url) })
    assert.equal(await chainClient.getCode({ address: victim }), undefined, 'the chain never got the call')

    const nonce = await rawRequest(`${url}/auth/v1/nonce?${sdk()}`)
    assert.equal(nonce.status, 200, nonce.text)
    const { nonce: value, token } = authNonceResponse.parse(JSON.parse(nonce.text))
    const message = devSiteMessage(victim, value, 'eip155:31337')
    const junk = `0x${'ab'.repeat(66)}`
    const signIn = await rawRequest(`${url}/auth/v1/authenticate?${sdk()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature: junk, nonceToken: token }),
    })
    assert.equal(signIn.status, 401, signIn.text)
    assert.equal(authErrorBody.parse(JSON.parse(signIn.text)).error.code, 'INVALID_SIGNATURE')
  })

  test('error: node-side signing, test-chain controls and admin methods never reach the chain', async () => {
    const before = await createPublicClient({ transport: http(chain.url) }).getBlockNumber()
    const attempts = [
      { method: 'eth_sendTransaction', params: [{ from: devAccount, to: victim, value: '0x1' }] },
      { method: 'eth_sign', params: [devAccount, '0x00'] },
      { method: 'personal_sign', params: ['0x00', devAccount] },
      { method: 'hardhat_impersonateAccount', params: [victim] },
      { method: 'hardhat_setBalance', params: [victim, '0xffffffffffff'] },
      { method: 'evm_mine', params: [] },
      { method: 'evm_setNextBlockTimestamp', params: [4_000_000_000] },
      { method: 'debug_traceTransaction', params: [`0x${'00'.repeat(32)}`] },
    ]
    const batch = await proxy([
      ...attempts.map((attempt, index) => ({ jsonrpc: '2.0', id: index, ...attempt })),
      { jsonrpc: '2.0', id: 'read', method: 'eth_blockNumber', params: [] },
    ])
    assert.equal(batch.status, 200)
    const answers = jsonRpcBatchResponse.parse(batch.json)
    assert.equal(answers.length, attempts.length + 1)
    for (const [index, attempt] of attempts.entries()) {
      const answer = answers[index]
      assert.ok(answer && 'error' in answer, attempt.method)
      assert.equal(answer.id, index)
      assert.equal(answer.error.code, -32601)
      assert.match(answer.error.message, new RegExp(`The method ${attempt.method} `))
    }
    const read = answers.at(-1)
    assert.ok(read && 'result' in read, 'the allowed read in the same batch is answered by the chain')
    assert.equal(BigInt(read.result as string), before)
    const client = createPublicClient({ transport: http(chain.url) })
    assert.equal(await client.getBlockNumber(), before, 'nothing was mined')
    assert.equal(await client.getBalance({ address: victim }), 0n)
  })
})
