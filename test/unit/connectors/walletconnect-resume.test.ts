// The WalletConnect connector across a phone's suspended page: the relay socket dies without a word
// while the page is in the background (the wallet app in front), the wallet approves meanwhile, and
// the page coming back to the front reconnects and picks the approval up. The pairings no wallet
// answered (one replaced before its expiry, one abandoned) are deleted, not left behind. Against the dev relay, through
// a loopback proxy that can drop the connection silently (no close, no error: what a suspended page's
// socket looks like); a sign-client in Node plays the phone wallet.
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { SignClient } from '@walletconnect/sign-client'
import { type Relay, startRelay } from '../../../server/dev/relay/index.ts'
import { createWalletConnectConnector } from '../../../src/connectors/walletconnect/connector.ts'
import { buildNamespaces } from '../../../src/connectors/walletconnect/namespaces.ts'
import { memoryStorage } from '../../support/memoryStorage.ts'
import { walletConnectInNode } from './walletconnect-node.ts'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const CHAIN = 'eip155:31337'
const CORE_KEY = '_walletConnectCore_wallet-elements'
const globals = globalThis as unknown as Record<string, unknown>

/** A TCP proxy in front of the relay whose current connections can be dropped silently. */
async function silentDropProxy(target: number) {
  const pairs = new Set<[Socket, Socket]>()
  const server: Server = createServer((page) => {
    const relay = tcpConnect(target, '127.0.0.1')
    const pair: [Socket, Socket] = [page, relay]
    pairs.add(pair)
    page.pipe(relay)
    relay.pipe(page)
    const end = () => {
      pairs.delete(pair)
      page.destroy()
      relay.destroy()
    }
    page.on('error', end)
    relay.on('error', end)
    page.on('close', end)
    relay.on('close', end)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const dead: Socket[] = []
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Stops carrying bytes on today's connections, both ways, and tells neither end. */
    drop() {
      for (const pair of pairs) {
        const [page, relay] = pair
        page.unpipe(relay)
        relay.unpipe(page)
        page.pause()
        relay.pause()
        page.removeAllListeners('data')
        relay.removeAllListeners('data')
        dead.push(page, relay)
      }
      pairs.clear()
    },
    async close() {
      for (const socket of dead) socket.destroy()
      for (const [page, relay] of pairs) {
        page.destroy()
        relay.destroy()
      }
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** A page whose visibility the test sets. */
function fakePage() {
  const win = new EventTarget() as EventTarget & { document: EventTarget & { visibilityState: string } }
  win.document = Object.assign(new EventTarget(), { visibilityState: 'visible' })
  const set = (state: string) => {
    win.document.visibilityState = state
    win.document.dispatchEvent(new Event('visibilitychange'))
  }
  return { window: win as unknown as Window, hide: () => set('hidden'), show: () => set('visible') }
}

describe('WalletConnect connector on a phone: pairings made ahead, and a suspended page', {
  timeout: 60_000,
}, () => {
  let relay: Relay
  let proxy: Awaited<ReturnType<typeof silentDropProxy>>
  let wallet: Awaited<ReturnType<typeof SignClient.init>>
  let restore = () => {}

  before(async () => {
    restore = walletConnectInNode('wc-resume-')
    relay = await startRelay({ port: 0 })
    proxy = await silentDropProxy(relay.port)
    wallet = await SignClient.init({
      relayUrl: relay.url,
      projectId: 'dev-project',
      telemetryEnabled: false,
      logger: 'silent',
      storage: memoryStorage(),
      customStoragePrefix: 'resume-wallet',
      metadata: { name: 'Phone wallet', description: 'test wallet', url: 'http://127.0.0.1', icons: [] },
    })
  })

  after(async () => {
    const core = globals[CORE_KEY] as
      | { heartbeat: { stop(): void }; relayer: { transportClose(): Promise<void> } }
      | undefined
    core?.heartbeat.stop()
    await core?.relayer.transportClose().catch(() => {})
    delete globals[CORE_KEY]
    delete globals[`${CORE_KEY}_count`]
    wallet?.core.heartbeat.stop()
    await wallet?.core.relayer.transportClose().catch(() => {})
    await proxy?.close()
    await relay?.stop()
    restore()
  })

  /** The connector's WalletConnect core (one per storage prefix in the process): its pairings. */
  const pairingTopics = () =>
    (globals[CORE_KEY] as { pairing: { getPairings(): { topic: string }[] } } | undefined)?.pairing
      .getPairings()
      .map((pairing) => pairing.topic) ?? []
  const topicOf = (uri: string) => /^wc:([^@]+)@/.exec(uri)?.[1] ?? ''
  /** Waits for the client's own bookkeeping (a pairing deleted) to settle. */
  async function until(check: () => boolean, what: string) {
    for (let turn = 0; turn < 200 && !check(); turn++) await new Promise((resolve) => setTimeout(resolve, 25))
    assert.ok(check(), what)
  }

  test('behavior: the socket dropped while hidden; back in front, the session approved meanwhile connects', async () => {
    const page = fakePage()
    const connector = createWalletConnectConnector({
      projectId: 'dev-project',
      relayUrl: proxy.url,
      metadata: { name: 'Shop', description: 'shop', url: 'http://127.0.0.1', icons: [] },
      namespaces: () => buildNamespaces([CHAIN], () => 'http://127.0.0.1:1'),
      rpcUrl: () => undefined,
      fetch,
      window: page.window,
    })
    // A pairing made ahead, then replaced as it neared its expiry: the wallet answers the second.
    const { uri: replaced } = await connector.pair()
    const { uri } = await connector.pair()
    let settled = false
    const connected = connector.connect({ namespace: 'eip155' }).finally(() => {
      settled = true
    })

    // The person taps the wallet: the page goes to the background and its socket dies unannounced.
    page.hide()
    proxy.drop()
    const approved = new Promise<void>((resolve, reject) => {
      wallet.on('session_proposal', (proposal) => {
        wallet
          .approve({
            id: proposal.id,
            namespaces: {
              eip155: {
                chains: [CHAIN],
                accounts: [`${CHAIN}:${ALICE}`],
                methods: ['personal_sign', 'eth_sendTransaction'],
                events: ['accountsChanged', 'chainChanged'],
              },
            },
          })
          .then(() => resolve(), reject)
      })
    })
    await wallet.pair({ uri })
    // The wallet's approval is on the relay...
    await approved
    // ...and has not reached the page: its socket is dead and it does not know.
    assert.equal(settled, false)

    // Back in front: a new socket, the approval picked up.
    page.show()
    const state = await connected
    assert.deepEqual(state.accounts, [ALICE])
    assert.equal(state.chainId, CHAIN)

    // The replaced pairing, which no wallet answered, is deleted with the session made: none is left behind.
    await until(() => !pairingTopics().includes(topicOf(replaced)), 'the replaced pairing deleted')
    assert.ok(pairingTopics().includes(topicOf(uri)), 'the answered pairing stays, with its session')

    // A pairing made ahead and abandoned (the modal closed) is deleted too.
    const { uri: abandoned } = await connector.pair()
    assert.ok(pairingTopics().includes(topicOf(abandoned)))
    connector.cancel()
    await until(() => !pairingTopics().includes(topicOf(abandoned)), 'the abandoned pairing deleted')
  })
})
