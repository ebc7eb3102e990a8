// Shared set-up of the RPC proxy tests: upstream stand-ins and a service forwarding to them.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import { freePort, openTestDatabase, type TestDatabase, testLogger } from './helpers.ts'

export interface Upstream {
  url: string
  /** Bodies received, in order. */
  received: string[]
  /** Times the proxy closed a connection that was waiting for an answer. */
  hungUp: () => number
  close: () => Promise<void>
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

/**
 * A tiny JSON-RPC node: eth_blockNumber answers 0x2a; `test_revert` a JSON-RPC error; `test_html` a 500
 * page. The `test_*` methods reach it through the operator's `RPC_ALLOW_METHODS`.
 */
export async function startUpstream(): Promise<Upstream> {
  const received: string[] = []
  const answer = (request: { id?: unknown; method?: unknown }) => {
    if (request.method === 'test_revert') {
      return { jsonrpc: '2.0', id: request.id, error: { code: 3, message: 'execution reverted' } }
    }
    return { jsonrpc: '2.0', id: request.id, result: request.method === 'eth_blockNumber' ? '0x2a' : null }
  }
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
    })
    request.on('end', () => {
      received.push(body)
      const parsed = JSON.parse(body) as
        | { id?: unknown; method?: unknown }
        | { id?: unknown; method?: unknown }[]
      if (!Array.isArray(parsed) && parsed.method === 'test_html') {
        response.writeHead(500, { 'content-type': 'text/html' }).end('<h1>Internal error</h1>')
        return
      }
      if (Array.isArray(parsed) && parsed.some((entry) => entry.method === 'test_garbage')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": oops')
        return
      }
      // Notifications (no id) get no answer, as JSON-RPC 2.0 says.
      const result = Array.isArray(parsed)
        ? parsed.filter((entry) => 'id' in entry).map(answer)
        : answer(parsed as { id?: unknown; method?: unknown })
      // Unusual spacing, to check the proxy passes the upstream's text through untouched.
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result, null, 1))
    })
  })
  const url = await listen(server)
  return { url, received, hungUp: () => 0, close: () => closeServer(server) }
}

/** An upstream that accepts connections and never answers. */
export async function startSilentUpstream(): Promise<Upstream> {
  const received: string[] = []
  let hungUp = 0
  const server = createServer((request) => {
    request.resume()
    received.push('request')
    request.socket.on('close', () => {
      hungUp++
    })
  })
  const url = await listen(server)
  return { url, received, hungUp: () => hungUp, close: () => closeServer(server) }
}

export let testDb: TestDatabase
export let app: FastifyInstance
/** Same service with a short upstream timeout, for the timeout cases. */
export let impatientApp: FastifyInstance
export let live: Upstream
export let silent: Upstream
export let downPort: number
export const timeoutMs = 300
export const solanaMainnet = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

export function rpc(
  body: unknown,
  options: {
    chainId?: string | null
    projectId?: string
    origin?: string
    path?: string
    via?: FastifyInstance
  } = {},
) {
  const chainId = options.chainId === undefined ? 'eip155:31337' : options.chainId
  const query = [
    ...(chainId === null ? [] : [`chainId=${chainId}`]),
    `projectId=${options.projectId ?? 'dev-project'}`,
  ].join('&')
  return (options.via ?? app).inject({
    method: 'POST',
    url: `${options.path ?? '/v1/'}?${query}`,
    headers: { 'content-type': 'application/json', ...(options.origin ? { origin: options.origin } : {}) },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

export const call = (id: number, method = 'eth_blockNumber') => ({ jsonrpc: '2.0', id, method, params: [] })

/** Registers the suite's set-up and tear-down; call once at the top of each test file. */
export function startRpcService() {
  before(async () => {
    ;[testDb, live, silent, downPort] = await Promise.all([
      openTestDatabase('rpc'),
      startUpstream(),
      startSilentUpstream(),
      freePort(),
    ])
    const config = testDb.config({
      devOrigins: ['http://localhost:5173'],
      rpcAllowMethods: ['test_revert', 'test_html', 'test_notify', 'test_garbage'],
      rpcUpstreams: {
        'eip155:31337': live.url,
        'eip155:31338': `http://127.0.0.1:${downPort}`,
        'eip155:1': silent.url,
        [solanaMainnet]: live.url,
      },
    })
    app = await buildApp(config, { database: testDb.database, logger: testLogger })
    impatientApp = await buildApp(
      { ...config, rpcTimeoutMs: timeoutMs, devProjectId: null },
      { database: testDb.database, logger: testLogger },
    )
  })
  after(async () => {
    await app?.close()
    await impatientApp?.close()
    await Promise.all([live?.close(), silent?.close()])
    await testDb?.close()
  })
  beforeEach(() => {
    live.received.length = 0
  })
}
