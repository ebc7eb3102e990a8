import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { SignClient } from '@walletconnect/sign-client'
import { stringToHex, verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Relay } from '../../../server/dev/relay/index.ts'
import { startRelay } from '../../../server/dev/relay/index.ts'
import { memoryStorage } from '../../support/memoryStorage.ts'

type Client = Awaited<ReturnType<typeof SignClient.init>>

// Hardhat's first dev account: a known key, nothing of value.
const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const CHAIN = 'eip155:31337'

function initClient(relay: Relay, name: string): Promise<Client> {
  return SignClient.init({
    relayUrl: relay.url,
    projectId: 'dev-project',
    telemetryEnabled: false,
    logger: 'silent',
    storage: memoryStorage(),
    // Each client gets its own core; without a prefix the second init reuses the first one's.
    customStoragePrefix: name,
    metadata: { name, description: `${name} (relay interop test)`, url: 'http://127.0.0.1', icons: [] },
  })
}

/**
 * Stops the client's heartbeat and socket. The wallet may still hold a 5 s timer of its own: offline,
 * its Verify API lookup fails at once but the abort timer it set stays until it fires.
 */
async function closeClient(client: Client): Promise<void> {
  client.core.heartbeat.stop()
  await client.core.relayer.transportClose().catch(() => {})
}

function once<T>(
  register: (resolve: (value: T) => void) => void,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)
    register((value) => {
      clearTimeout(timer)
      resolve(value)
    })
  })
}

describe('dev relay with @walletconnect/sign-client', { timeout: 30_000 }, () => {
  let relay: Relay
  let dapp: Client
  let wallet: Client

  // sign-client answers a message that arrives for a session it has just deleted (the peer's ack of
  // the disconnect, late on a loaded machine) with a rejection nobody awaits: "Record was recently
  // deleted". That is the library's own bookkeeping after the test's last assertion; any other
  // unhandled rejection still fails the suite.
  const unexpected: unknown[] = []
  const onUnhandled = (reason: unknown) => {
    if (
      reason instanceof Error &&
      reason.message.startsWith('Missing or invalid. Record was recently deleted')
    )
      return
    unexpected.push(reason)
  }

  before(async () => {
    process.on('unhandledRejection', onUnhandled)
    relay = await startRelay({ port: 0 })
    ;[dapp, wallet] = await Promise.all([initClient(relay, 'dapp'), initClient(relay, 'wallet')])
  })

  after(async () => {
    await Promise.all([dapp, wallet].filter(Boolean).map(closeClient))
    await relay.stop()
    process.off('unhandledRejection', onUnhandled)
    assert.deepEqual(unexpected, [])
  })

  test('behavior: pair, approve, personal_sign and a wallet-side disconnect', async () => {
    wallet.on('session_proposal', async (proposal) => {
      await wallet.approve({
        id: proposal.id,
        namespaces: {
          eip155: {
            chains: [CHAIN],
            accounts: [`${CHAIN}:${account.address}`],
            methods: ['personal_sign'],
            events: ['accountsChanged', 'chainChanged'],
          },
        },
      })
    })
    wallet.on('session_request', async (event) => {
      const [message] = event.params.request.params as [`0x${string}`, string]
      const signature = await account.signMessage({ message: { raw: message } })
      await wallet.respond({
        topic: event.topic,
        response: { id: event.id, jsonrpc: '2.0', result: signature },
      })
    })

    const { uri, approval } = await dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: [CHAIN],
          methods: ['personal_sign'],
          events: ['accountsChanged', 'chainChanged'],
        },
      },
    })
    if (!uri) throw new Error('a new pairing gives a URI')
    assert.match(uri, /^wc:/)
    // approval() before the wallet can settle: its promise misses a session that settled earlier.
    const settled = approval()
    await wallet.pair({ uri })
    const session = await settled
    assert.deepEqual(session.namespaces.eip155?.accounts, [`${CHAIN}:${account.address}`])
    assert.ok(wallet.session.keys.includes(session.topic))

    const message = stringToHex('Sign in to wallet-elements')
    const signature = await dapp.request<`0x${string}`>({
      topic: session.topic,
      chainId: CHAIN,
      request: { method: 'personal_sign', params: [message, account.address] },
    })
    assert.ok(await verifyMessage({ address: account.address, message: { raw: message }, signature }))

    const deleted = once<string>(
      (resolve) => dapp.on('session_delete', ({ topic }) => resolve(topic)),
      'session_delete',
    )
    await wallet.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    assert.equal(await deleted, session.topic)
    assert.equal(dapp.session.keys.includes(session.topic), false)
  })
})
