import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { WebSocketServer } from 'ws'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { Platform } from '../../../src/core/platform.ts'
import {
  isWalletConnectRelay,
  relayProjectId,
  walletConnectConnector,
} from '../../../src/core/walletConnect.ts'
import { walletConnectInNode } from './walletconnect-node.ts'

type RelayCore = {
  heartbeat: { stop(): void }
  relayer: { transportClose(): Promise<void> }
}

// The sign-client keeps one core per storage prefix on globalThis (the connector's is
// `wallet-elements`); a second client in the same process would reuse the first one's socket.
const CORE_KEY = '_walletConnectCore_wallet-elements'
const globals = globalThis as unknown as Record<string, unknown>

/** Node has no window or storage here; nothing is fetched (no `api-url`). */
const platform: Platform = {
  window: undefined,
  storage: undefined,
  fetch: () => Promise.reject(new Error('offline')),
  now: () => Date.now(),
  isMobile: () => false,
  prefersDark: () => false,
}

/**
 * The project id the WalletConnect sign-client gives the relay, seen where the relay sees it: the
 * `projectId` query parameter of the WebSocket connection it opens, at a tiny relay on loopback (it
 * accepts the socket and says yes to each request). `walletconnect-project-id` wins over the service's
 * `project-id`; without it the relay gets `project-id`, as before the option existed.
 */
describe('WalletConnect relay project id', { timeout: 30_000 }, () => {
  let relay: WebSocketServer
  let relayUrl: string
  const waiters: ((url: URL) => void)[] = []
  let restore = () => {}

  before(async () => {
    restore = walletConnectInNode('wc-project-id-')
    relay = new WebSocketServer({ host: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => relay.once('listening', resolve))
    relayUrl = `ws://127.0.0.1:${(relay.address() as AddressInfo).port}`
    relay.on('connection', (socket, request) => {
      const url = new URL(request.url ?? '/', relayUrl)
      for (const waiter of waiters.splice(0)) waiter(url)
      // Enough of the relay's JSON-RPC for a pairing: a subscription id, or true.
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; method?: string }
        if (message.id === undefined || !message.method) return
        const result = message.method.endsWith('_subscribe') ? randomBytes(32).toString('hex') : true
        socket.send(JSON.stringify({ id: message.id, jsonrpc: '2.0', result }))
      })
    })
  })

  after(async () => {
    for (const client of relay.clients) client.terminate()
    await new Promise((resolve) => relay.close(resolve))
    restore()
  })

  /** Loads the config's WalletConnect client (as reconnecting on reload does) and returns the relay's URL. */
  async function relayConnection(options: { projectId?: string; walletConnectProjectId?: string }) {
    const config = createConfig({ networks: 'eip155:31337', relayUrl, ...options }, platform)
    const opened = new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no connection reached the relay')), 10_000)
      waiters.push((url) => {
        clearTimeout(timer)
        resolve(url)
      })
    })
    const connector = await walletConnectConnector(config)
    // The client connects when it first needs the relay: for a pairing URI, as the modal asks.
    const { uri } = await connector.pair()
    const url = await opened
    assert.match(uri, /^wc:/)
    const connecting = connector.connect({ namespace: 'eip155' }).catch((error: unknown) => error)
    connector.cancel()
    assert.equal(((await connecting) as Error).name, 'RequestAbortedError')
    const core = globals[CORE_KEY] as RelayCore | undefined
    core?.heartbeat.stop()
    await core?.relayer.transportClose().catch(() => {})
    delete globals[CORE_KEY]
    delete globals[`${CORE_KEY}_count`]
    return url
  }

  test('behavior: walletconnect-project-id is the relay connection projectId, not project-id', async () => {
    const url = await relayConnection({ projectId: 'service-project', walletConnectProjectId: 'wc-cloud-id' })
    assert.equal(url.searchParams.get('projectId'), 'wc-cloud-id')
    assert.notEqual(url.searchParams.get('projectId'), 'service-project')
    assert.ok(url.searchParams.get('auth'), 'the relay still gets its signed auth token')
  })

  test('default: without it the relay gets project-id, as before', async () => {
    const url = await relayConnection({ projectId: 'service-project' })
    assert.equal(url.searchParams.get('projectId'), 'service-project')
  })

  test('default: relayProjectId', () => {
    assert.equal(relayProjectId({ projectId: 'service', walletConnectProjectId: 'wc' }), 'wc')
    assert.equal(relayProjectId({ projectId: 'service', walletConnectProjectId: undefined }), 'service')
    assert.equal(relayProjectId({ projectId: undefined, walletConnectProjectId: undefined }), '')
  })

  test("args: Verify is asked for on WalletConnect's own relays only", () => {
    assert.equal(isWalletConnectRelay('wss://relay.walletconnect.org'), true)
    assert.equal(isWalletConnectRelay('wss://relay.walletconnect.com/'), true)
    assert.equal(isWalletConnectRelay('ws://127.0.0.1:8789'), false)
    assert.equal(isWalletConnectRelay('wss://relay.walletconnect.org.evil.example'), false)
    assert.equal(isWalletConnectRelay('wss://relay.example.com'), false)
  })
})
