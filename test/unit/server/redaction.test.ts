/**
 * Upstream URLs may hold API keys: with a secret in an upstream's path, query, password and host name,
 * every way an upstream can fail (refused, unknown host, timeout, HTML, reset, slow body) is provoked through
 * the RPC proxy and through the sign-in verifier, and the secret shows in no log line and no answer.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { getAddress } from 'viem'
import { buildApp } from '../../../server/app.ts'
import { ConfigError, loadConfig } from '../../../server/config.ts'
import { authNonceResponse } from '../../../src/protocol/api/index.ts'
import { captureLogs, devSiteMessage, freePort, openTestDatabase, sdk, type TestDatabase } from './helpers.ts'

const secret = 'sk_live_9f8e7d6c5b4a3928'
const password = 'pw-7a6b5c4d3e2f'
const hostLabel = 'acct-2b1c0d9e8f7a'
const secrets = [secret, password, hostLabel]

const { logger, lines } = captureLogs('trace')

const servers: Server[] = []
async function upstream(handler: Parameters<typeof createServer>[1]): Promise<number> {
  const server = createServer(handler)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Each failure, by the chain id that leads to it. */
const failures: Record<string, string> = {}
let testDb: TestDatabase
let app: FastifyInstance

before(async () => {
  const silent = await upstream((request) => request.resume())
  const html = await upstream((_request, response) =>
    response.writeHead(500, { 'content-type': 'text/html' }).end(`<h1>bad key ${secret}</h1>`),
  )
  const reset = await upstream((request) => request.socket.destroy())
  const slowBody = await upstream((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.write('{"jsonrpc":"2.0",')
  })
  const down = await freePort()
  const urls: Record<string, [string, string]> = {
    'eip155:11': ['refused', `http://user:${password}@127.0.0.1:${down}/v3/${secret}`],
    'eip155:12': ['unknown host', `https://${hostLabel}.invalid/v3/${secret}?key=${secret}`],
    'eip155:13': ['timeout', `http://127.0.0.1:${silent}/v3/${secret}`],
    'eip155:14': ['html', `http://127.0.0.1:${html}/${secret}?apikey=${secret}`],
    'eip155:15': ['reset', `http://127.0.0.1:${reset}/v3/${secret}`],
    'eip155:16': ['body cut off', `http://127.0.0.1:${slowBody}/v3/${secret}`],
  }
  for (const [chainId, [name]] of Object.entries(urls)) failures[chainId] = name
  testDb = await openTestDatabase('redaction')
  app = await buildApp(
    testDb.config({
      devOrigins: ['http://localhost:5173'],
      rpcTimeoutMs: 300,
      rpcUpstreams: Object.fromEntries(Object.entries(urls).map(([chainId, [, url]]) => [chainId, url])),
    }),
    { database: testDb.database, logger },
  )
})

after(async () => {
  await app?.close()
  await testDb?.close()
  for (const server of servers) {
    server.closeAllConnections()
    server.close()
  }
})

function assertNoSecret(text: string, where: string): void {
  for (const value of secrets) assert.equal(text.includes(value), false, `${where} holds ${value}: ${text}`)
}

describe('no upstream URL in any log line or answer', { timeout: 30_000 }, () => {
  test('error: every upstream failure through the RPC proxy', async () => {
    for (const [chainId, failure] of Object.entries(failures)) {
      for (const body of [
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' },
        [
          { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
          { jsonrpc: '2.0', id: 2, method: 'hardhat_mine' },
        ],
      ]) {
        const response = await app.inject({
          method: 'POST',
          url: `/v1/?chainId=${chainId}&projectId=dev-project`,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        })
        assert.ok(response.statusCode === 502 || response.statusCode === 504, `${failure}: ${response.body}`)
        assertNoSecret(response.body, `the ${failure} answer`)
      }
    }
  })

  test('error: every upstream failure while the sign-in verifier checks a smart-account signature', async () => {
    for (const [chainId, failure] of Object.entries(failures)) {
      const nonce = authNonceResponse.parse((await app.inject({ url: `/auth/v1/nonce?${sdk()}` })).json())
      const message = devSiteMessage(
        getAddress('0x000000000000000000000000000000000000bEEF'),
        nonce.nonce,
        chainId,
      )
      const response = await app.inject({
        method: 'POST',
        url: `/auth/v1/authenticate?${sdk()}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ message, signature: `0x${'cd'.repeat(66)}`, nonceToken: nonce.token }),
      })
      assert.equal(response.statusCode, 502, `${failure}: ${response.body}`)
      assertNoSecret(response.body, `the ${failure} answer`)
    }
  })

  test('error: a bad RPC_UPSTREAMS entry is reported without its URL', () => {
    try {
      loadConfig({ RPC_UPSTREAMS: `eip155:1=ftp://${hostLabel}.example/v3/${secret},nonsense${secret}` })
      assert.fail('expected a ConfigError')
    } catch (error) {
      assert.ok(error instanceof ConfigError)
      assertNoSecret(error.message, 'the configuration error')
      assert.match(
        error.message,
        /RPC_UPSTREAMS entry 1 \(eip155:1\): the URL after = must be http:\/\/ or https:\/\//,
      )
      assert.match(error.message, /RPC_UPSTREAMS entry 2: expected CAIP-2-id=URL/)
    }
  })

  test('behavior: the log lines were written, and hold none of the secret', () => {
    assert.ok(
      lines.some((line) => line.includes('"failure":"timeout"')),
      'failures were logged',
    )
    assert.ok(
      lines.some((line) => line.includes('could not check the signature')),
      'verifier failures were logged',
    )
    for (const line of lines) assertNoSecret(line, 'a log line')
  })
})
