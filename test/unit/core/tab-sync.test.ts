// A page's tabs kept in step (src/core/connection/tabs.ts and sync.ts), in node: two configs share one
// storage, whose writes reach the other tab as `storage` events, and a BroadcastChannel, as two tabs of
// one origin do; each has a window of its own. The tab that follows has a wallet that tells it nothing
// itself (an embedded wallet's frame, a wallet with a state per tab), so only the sync can move it.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { disconnect } from '../../../src/core/actions/disconnect.ts'
import { open } from '../../../src/core/actions/open.ts'
import { reconnect } from '../../../src/core/actions/reconnect.ts'
import { switchNetwork } from '../../../src/core/actions/switchNetwork.ts'
import { TAB_CHANNEL } from '../../../src/core/connection/sync.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { clearSession, storeSession } from '../../../src/core/siwx/session.ts'
import type { SiwxSession, SiwxVerifier } from '../../../src/protocol/config.ts'
import { createCacao } from '../../../src/protocol/siwx/index.ts'
import { STORAGE_PREFIX, StorageKey } from '../../../src/protocol/storage.ts'
import {
  ALICE,
  BOB,
  connected,
  type DemoWallet,
  type Harness,
  named,
  type Recorded,
  setup,
  sleep,
  until,
  useLocalChains,
} from './actions-helpers.ts'

/** What a tab did that the others could hear: its storage writes (keys) and its channel's posts. */
interface Tab extends Harness {
  window: EventTarget & { document: { visibilityState: string } }
  writes: string[]
  posts: number
  /** Channels the tab opened (the sync opens one when it starts). */
  channels: number
}

const SHARED = [
  StorageKey.connector,
  StorageKey.connectionStatus,
  StorageKey.lastChain,
  StorageKey.disconnected,
]
const sharedWrites = (tab: Tab) =>
  tab.writes.filter((key) => SHARED.some((name) => key === STORAGE_PREFIX + name))

/**
 * A wallet that answers this tab but tells it nothing itself: no events (see the file's comment);
 * `knows`: the networks it can switch to without adding one (4902 for the others, as a wallet that
 * never saw the network another tab added).
 */
const deaf = (wallet: DemoWallet, knows?: readonly number[]): DemoWallet => {
  const provider = {
    ...wallet.provider,
    request: (args: Parameters<DemoWallet['provider']['request']>[0]) => {
      const asked = Number((args.params as { chainId?: string }[] | undefined)?.[0]?.chainId)
      if (knows && args.method === 'wallet_switchEthereumChain' && !knows.includes(asked))
        return Promise.reject(Object.assign(new Error('Unrecognized chain'), { code: 4902 }))
      return wallet.provider.request(args)
    },
    on: () => provider,
    removeListener: () => provider,
  } as DemoWallet['provider']
  return { ...wallet, provider }
}

/** Tabs of one origin: a shared storage that tells the others of each change, a shared channel name. */
function origin() {
  const items = new Map<string, string>()
  const tabs: Tab[] = []
  const channels = new Set<{
    name: string
    from: Tab
    onmessage: ((event: { data: unknown }) => void) | null
  }>()
  // Storage events reach the other tabs (never the writer) after the write, as a task.
  const tell = (from: Tab, key: string, oldValue: string | null, newValue: string | null) => {
    for (const tab of tabs)
      if (tab !== from)
        setTimeout(() =>
          tab.window.dispatchEvent(Object.assign(new Event('storage'), { key, oldValue, newValue })),
        )
  }
  const tab = (parameters: { wallet?: DemoWallet; siwx?: SiwxVerifier | 'optional' } = {}): Tab => {
    const window = Object.assign(new EventTarget(), { document: { visibilityState: 'visible' } })
    const self = { writes: [] as string[], posts: 0, channels: 0 } as Tab
    class Channel {
      onmessage: ((event: { data: unknown }) => void) | null = null
      readonly from = self
      constructor(readonly name: string) {
        self.channels++
        channels.add(this)
      }
      postMessage(data: unknown) {
        self.posts++
        for (const other of channels)
          if (other !== this && other.name === this.name) setTimeout(() => other.onmessage?.({ data }))
      }
      close() {
        channels.delete(this)
      }
    }
    const storage: Platform['storage'] = {
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => {
        self.writes.push(key)
        const old = items.get(key) ?? null
        items.set(key, value)
        if (old !== value) tell(self, key, old, value)
      },
      removeItem: (key) => {
        self.writes.push(key)
        const old = items.get(key)
        items.delete(key)
        if (old !== undefined) tell(self, key, old, null)
      },
    }
    const harness = setup({
      items,
      ...(parameters.wallet ? { wallet: parameters.wallet } : {}),
      platform: {
        window: Object.assign(window, { BroadcastChannel: Channel }) as unknown as Window,
        storage,
      },
    })
    if (parameters.siwx) harness.config.update({ siwx: parameters.siwx })
    // The harness records the connection's events; the sign-in's too, here.
    for (const name of ['sign-in', 'sign-out'] as const)
      harness.config.events.on(name, (detail) => void harness.events.push([name, detail] as Recorded))
    Object.assign(self, harness, { window })
    tabs.push(self)
    return self
  }
  return { tab }
}

/**
 * Two tabs connected to one wallet: the first connected by the person, the second restored as after a
 * reload, its wallet deaf (see `deaf`).
 */
async function twoConnectedTabs(
  parameters: { knows?: readonly number[]; siwx?: SiwxVerifier | 'optional' } = {},
) {
  const page = origin()
  const a = page.tab(parameters.siwx ? { siwx: parameters.siwx } : {})
  await connected(a)
  const b = page.tab({
    wallet: deaf(a.wallet, parameters.knows),
    ...(parameters.siwx ? { siwx: parameters.siwx } : {}),
  })
  await reconnect(b.config)
  return { a, b }
}

/** The tab hidden and shown again (another app, a phone's suspension). */
const showAgain = (tab: Tab) => {
  tab.window.document.visibilityState = 'hidden'
  tab.window.dispatchEvent(new Event('visibilitychange'))
  tab.window.document.visibilityState = 'visible'
  tab.window.dispatchEvent(new Event('visibilitychange'))
}

/** Lets the tabs hear each other out: storage events and messages are tasks, a look runs after them. */
const settle = () => sleep(150)

describe('tabs of a page kept in step: connect, disconnect, network, account, sign-in; resume', {
  timeout: 60_000,
}, () => {
  useLocalChains()

  test('default: a disconnect in one tab ends the other’s connection, which asks its wallet nothing and writes nothing back', async () => {
    const { a, b } = await twoConnectedTabs()
    assert.equal(b.config.$status.get(), 'connected')
    const asked = b.calls.length
    b.writes.length = 0

    await disconnect(a.config)
    await until(() => b.config.$status.get() === 'disconnected', 'the other tab disconnected')
    await settle()
    assert.deepEqual(named(b.events, 'disconnect'), [{ namespace: 'eip155' }])
    assert.equal(b.config.$account.get(), undefined)
    assert.deepEqual(b.calls.slice(asked), [], 'the other tab asked its wallet nothing')
    assert.deepEqual(sharedWrites(b), [], 'the other tab wrote nothing back')
    assert.equal(b.posts, 0, 'nor told anyone')
    // A reload of either stays disconnected (the explicit disconnect is kept).
    assert.equal(a.stored(StorageKey.disconnected), true)
  })

  test('behavior: a connect in one tab is restored in the other without a prompt, with wallet-connect there', async () => {
    const page = origin()
    const a = page.tab()
    const b = page.tab({ wallet: deaf(a.wallet) })
    // Both tabs are open, neither connected; the person connects in the first.
    a.wallet.controls.autoApprove(true)
    await connected(a)
    await until(() => b.config.$status.get() === 'connected', 'the other tab connected')
    await settle()
    assert.equal(b.config.$account.get()?.address, ALICE)
    assert.ok(b.calls.includes('eth_accounts ok'), 'read as after a reload')
    assert.ok(!b.calls.some((call) => call.startsWith('eth_requestAccounts')), 'no connect prompt')
    assert.equal(a.wallet.controls.pending(), 0)
    assert.deepEqual(
      named(b.events, 'connect').map((detail) => [detail.address, detail.chainId, detail.connector.id]),
      [[ALICE, 'eip155:31337', 'dev.wallet-elements.demo']],
    )
    assert.deepEqual(sharedWrites(b), [], 'the restoring tab wrote nothing back')
  })

  test('behavior: a network switch in one tab moves the other, whose wallet switches without a prompt', async () => {
    const { a, b } = await twoConnectedTabs()
    b.writes.length = 0

    await switchNetwork(a.config, { caipNetworkId: 'eip155:31338' })
    await until(
      () => b.config.$network.get()?.caipNetworkId === 'eip155:31338',
      'the other tab on eip155:31338',
    )
    await settle()
    assert.deepEqual(named(b.events, 'network-change'), [
      { chainId: 'eip155:31338', namespace: 'eip155', supported: true },
    ])
    assert.equal(a.wallet.controls.pending(), 0, 'no prompt')
    assert.deepEqual(sharedWrites(b), [], 'the following tab wrote nothing back')
    assert.equal(b.posts, 0)
    assert.equal(a.config.$network.get()?.caipNetworkId, 'eip155:31338', 'the first tab stays where it went')
  })

  test('behavior: a network this tab’s wallet does not know is not added from here (that would ask the person)', async () => {
    const { a, b } = await twoConnectedTabs({ knows: [31337] })
    await switchNetwork(a.config, { caipNetworkId: 'eip155:31338' })
    // The other tab looked (its sync is running), asked for a switch, was told the wallet does not know it.
    await until(() => b.calls.includes('wallet_switchEthereumChain 4902'), 'the other tab asked for a switch')
    await settle()
    assert.equal(b.config.$network.get()?.caipNetworkId, 'eip155:31337', 'it stays where its wallet is')
    assert.ok(!b.calls.some((call) => call.startsWith('wallet_addEthereumChain')), 'no network added')
    assert.deepEqual(named(b.events, 'error'), [])
  })

  test('behavior: another tab’s change of account reaches this one over the channel, and the answer does not echo', async () => {
    const { a, b } = await twoConnectedTabs()
    // Both tabs have their sync running (each was shown again once).
    showAgain(a)
    showAgain(b)
    await settle()
    const [postsA, postsB] = [a.posts, b.posts]

    a.wallet.controls.switchAccount(1)
    await until(() => b.config.$account.get()?.address === BOB, 'the other tab on the new account')
    await settle()
    assert.deepEqual(
      named(b.events, 'account-change').map((detail) => detail.address),
      [BOB],
    )
    assert.equal(a.posts - postsA, 1, 'the tab where it happened told the others once')
    assert.equal(b.posts - postsB, 0, 'the tab that followed told nobody: no echo')
    assert.equal(a.channels, 1)
  })

  test('behavior: a sign-in kept by the site’s verifier reaches the other tab, and the disconnect signs it out', async () => {
    const signedIn = new Map<string, SiwxSession>()
    const verifier: SiwxVerifier = {
      addSession: async (session) => void signedIn.set(String(session.data.accountAddress), session),
      getSessions: async (_chainId, address) =>
        [...signedIn.values()].filter((s) => s.data.accountAddress === address),
      revokeSession: async (_chainId, address) => void signedIn.delete(address),
    }
    const { a, b } = await twoConnectedTabs({ siwx: verifier })
    showAgain(a)
    showAgain(b)
    await settle()
    assert.equal(b.config.$session.get(), undefined)
    // The first tab signs in: the site keeps the session (nothing in this storage).
    const session = {
      data: {
        accountAddress: ALICE,
        chainId: 'eip155:31337',
        domain: '127.0.0.1',
        expirationTime: undefined,
      },
      message: 'signed in',
      signature: '0x00',
    } as unknown as SiwxSession
    await verifier.addSession(session)
    const caipAddress = a.config.$account.get()?.caipAddress
    assert.ok(caipAddress)
    a.config.$session.set({ caipAddress, session })

    await until(() => b.config.$session.get() !== undefined, 'the other tab signed in')
    await settle()
    assert.deepEqual(named(b.events, 'sign-in'), [session])
    // The sign-in view the restored connection asked for (as after a reload) closed with the session.
    assert.equal(b.config.$modal.get().open, false)
    await disconnect(a.config)
    await until(() => b.config.$session.get() === undefined, 'the other tab signed out')
    await settle()
    assert.deepEqual(named(b.events, 'sign-out'), [{ address: ALICE }])
    assert.equal(b.config.$status.get(), 'disconnected')
  })

  test('behavior: a sign-in through the service in one tab (its stored token) signs the other in, and its sign-out signs it out', async () => {
    const { a, b } = await twoConnectedTabs({ siwx: 'optional' })
    const caipAddress = a.config.$account.get()?.caipAddress
    assert.ok(caipAddress)
    // The restored connection asks for sign-in there, as after a reload.
    await until(() => b.config.$modal.get().router.view === 'SIWXSignMessage', 'the sign-in view')
    await settle()
    const data = {
      domain: '127.0.0.1',
      accountAddress: ALICE,
      uri: 'http://127.0.0.1/',
      version: '1' as const,
      chainId: 'eip155:31337' as const,
      nonce: '32891756',
      issuedAt: '2026-12-07T00:00:00Z',
    }
    const session = {
      data,
      message: 'signed in',
      signature: '0x00',
      cacao: createCacao(data, { t: 'eip191', s: '0x00' }),
    }
    storeSession(a.config, caipAddress, 'service-token', session)
    await until(() => b.config.$session.get()?.caipAddress === caipAddress, 'the other tab signed in')
    await settle()
    assert.deepEqual(named(b.events, 'sign-in'), [session])
    assert.equal(b.config.$modal.get().open, false, 'its sign-in view closed')
    clearSession(a.config)
    await until(() => b.config.$session.get() === undefined, 'the other tab signed out')
    await settle()
    assert.deepEqual(named(b.events, 'sign-out'), [{ address: ALICE }])
    assert.equal(b.config.$status.get(), 'connected', 'still connected: only the session went')
    assert.equal(b.posts, 0)
  })

  test('behavior: shown again after the wallet forgot the site (a suspended tab), the tab disconnects and its open modal closes', async () => {
    const page = origin()
    const a = page.tab()
    const b = page.tab({ wallet: deaf(a.wallet) })
    await connected(a)
    await until(() => b.config.$status.get() === 'connected', 'the second tab restored')
    await open(b.config)
    assert.equal(b.config.$modal.get().router.view, 'Account')
    // While the second tab slept, the wallet forgot the site; the first tab is gone (no storage write).
    a.config.internal.unsubscribe.get('eip155')?.()
    a.wallet.controls.disconnect()

    b.window.document.visibilityState = 'hidden'
    b.window.dispatchEvent(new Event('visibilitychange'))
    await settle()
    assert.equal(b.config.$status.get(), 'connected', 'nothing checked while hidden')
    b.window.document.visibilityState = 'visible'
    b.window.dispatchEvent(new Event('visibilitychange'))
    await until(() => b.config.$status.get() === 'disconnected', 'disconnected once shown again')
    await until(() => !b.config.$modal.get().open, 'the modal closed, not left on a stale Account')
    assert.deepEqual(named(b.events, 'disconnect'), [{ namespace: 'eip155' }])
    assert.equal(b.stored(StorageKey.connectionStatus), 'disconnected', 'remembered: its own finding')
  })

  test('behavior: back from the back-forward cache (pageshow, persisted), the tab reads its wallet and balance again', async () => {
    const page = origin()
    const a = page.tab()
    await connected(a)
    const fetched = a.fetches.length
    // Past the balance cache (SPEC 9: 30 s) while the page was in the cache.
    a.advance(31_000)
    a.window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }))
    await until(() => a.fetches.length > fetched, 'the balance read again')
    assert.ok(a.calls.filter((call) => call === 'eth_accounts ok').length >= 1, 'the wallet asked again')
    assert.equal(a.config.$status.get(), 'connected')
  })

  test('error: the sync stays unloaded for another library’s keys and a page’s first show', async () => {
    const page = origin()
    const a = page.tab()
    a.window.dispatchEvent(
      Object.assign(new Event('storage'), { key: 'another-library/state', newValue: '1' }),
    )
    a.window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }))
    await settle()
    assert.equal(a.channels, 0, 'nothing started')
    a.window.dispatchEvent(
      Object.assign(new Event('storage'), { key: STORAGE_PREFIX + StorageKey.recentWallets, newValue: '[]' }),
    )
    await until(() => a.channels === 1, 'started on a key of ours')
    assert.equal(TAB_CHANNEL, `${STORAGE_PREFIX}tabs`)
  })
})
