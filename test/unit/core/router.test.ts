import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { Connector } from '../../../src/connectors/types.ts'
import { open } from '../../../src/core/actions/open.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import type { OpeningContext, RouterState } from '../../../src/core/modal/router.ts'
import {
  back,
  canClose,
  canGoBack,
  embeddedHome,
  initialView,
  push,
  replace,
  startAt,
} from '../../../src/core/modal/router.ts'
import type { Platform } from '../../../src/core/platform.ts'

const desktop: OpeningContext = {
  connected: false,
  isMobile: false,
  adapterCount: 1,
  unsupportedChain: false,
}

describe('initialView (SPEC 2)', () => {
  test('default: Connect when nothing is connected', () => {
    assert.equal(initialView(desktop), 'Connect')
    assert.equal(initialView({ ...desktop, adapterCount: 0 }), 'Connect')
  })

  test('behavior: Account when an address is connected', () => {
    assert.equal(initialView({ ...desktop, connected: true }), 'Account')
    assert.equal(initialView({ ...desktop, connected: true, isMobile: true, adapterCount: 0 }), 'Account')
  })

  test('behavior: UnsupportedChain when connected on a network the site does not list', () => {
    assert.equal(initialView({ ...desktop, connected: true, unsupportedChain: true }), 'UnsupportedChain')
  })

  test('behavior: an unsupported chain without a connection still opens Connect', () => {
    assert.equal(initialView({ ...desktop, unsupportedChain: true }), 'Connect')
  })

  test('behavior: AllWallets on mobile with no adapters', () => {
    assert.equal(initialView({ ...desktop, isMobile: true, adapterCount: 0 }), 'AllWallets')
  })

  test('behavior: Connect on mobile when an adapter is present', () => {
    assert.equal(initialView({ ...desktop, isMobile: true, adapterCount: 2 }), 'Connect')
  })

  test('behavior: a forced view wins over every rule', () => {
    assert.equal(initialView(desktop, 'Networks'), 'Networks')
    assert.equal(initialView({ ...desktop, connected: true }, 'Connect'), 'Connect')
    assert.equal(initialView({ ...desktop, connected: true, unsupportedChain: true }, 'Account'), 'Account')
    assert.equal(initialView({ ...desktop, isMobile: true, adapterCount: 0 }, 'Swap'), 'Swap')
  })
})

describe('router history', () => {
  test('default: startAt has no history and carries its data', () => {
    const state = startAt('Connect')
    assert.deepEqual(state, { view: 'Connect', history: [], data: undefined })
    assert.equal(canGoBack(state), false)
    assert.deepEqual(startAt('ConnectingExternal', { id: 'io.metamask' }).data, { id: 'io.metamask' })
  })

  test('behavior: push keeps the previous views, oldest first', () => {
    const state = push(push(startAt('Connect'), 'AllWallets'), 'ConnectingExternal', { id: 'x' })
    assert.deepEqual(state, {
      view: 'ConnectingExternal',
      history: ['Connect', 'AllWallets'],
      data: { id: 'x' },
    })
    assert.equal(canGoBack(state), true)
  })

  test('behavior: pushing the view already shown only replaces its data', () => {
    const first = push(startAt('Connect'), 'ConnectingExternal', { id: 'a' })
    const again = push(first, 'ConnectingExternal', { id: 'b' })
    assert.deepEqual(again, { view: 'ConnectingExternal', history: ['Connect'], data: { id: 'b' } })
  })

  test('behavior: back pops one view at a time and drops the data', () => {
    let state: RouterState = push(push(startAt('Connect'), 'AllWallets'), 'ConnectingExternal', { id: 'x' })
    state = back(state)
    assert.deepEqual(state, { view: 'AllWallets', history: ['Connect'], data: undefined })
    state = back(state)
    assert.deepEqual(state, { view: 'Connect', history: [], data: undefined })
    assert.equal(canGoBack(state), false)
  })

  test('behavior: back with no history keeps the state', () => {
    const state = startAt('Account', { tab: 'activity' })
    assert.equal(back(state), state)
  })

  test('behavior: replace swaps the current view and keeps the history', () => {
    const state = replace(push(startAt('Connect'), 'Account'), 'UnsupportedChain', { chainId: 'eip155:1' })
    assert.deepEqual(state, { view: 'UnsupportedChain', history: ['Connect'], data: { chainId: 'eip155:1' } })
    assert.equal(back(state).view, 'Connect')
  })

  test('behavior: the router functions never mutate their input', () => {
    const state = push(startAt('Connect'), 'AllWallets')
    const snapshot = structuredClone(state)
    push(state, 'Swap')
    replace(state, 'Swap')
    back(state)
    assert.deepEqual(state, snapshot)
  })
})

describe('canClose (SPEC 2)', () => {
  test('default: every view closes', () => {
    assert.equal(canClose({ view: 'Connect', siwxRequired: false, hasSession: false }), true)
    assert.equal(canClose({ view: 'Account', siwxRequired: true, hasSession: false }), true)
    assert.equal(canClose({ view: 'SIWXSignMessage', siwxRequired: false, hasSession: false }), true)
  })

  test('behavior: the sign-in view is blocked while sign-in is required and no session exists', () => {
    assert.equal(canClose({ view: 'SIWXSignMessage', siwxRequired: true, hasSession: false }), false)
  })

  test('behavior: the sign-in view closes once a session exists', () => {
    assert.equal(canClose({ view: 'SIWXSignMessage', siwxRequired: true, hasSession: true }), true)
  })
})

describe('embeddedHome (SPEC 2)', () => {
  test('behavior: Account when connected, otherwise Connect', () => {
    assert.equal(embeddedHome(true), 'Account')
    assert.equal(embeddedHome(false), 'Connect')
  })
})

describe('open on a phone (SPEC 2: "no adapters" means no chain adapter configured)', () => {
  const phone: Platform = {
    window: undefined,
    storage: undefined,
    fetch: () => Promise.reject(new Error('offline')),
    now: () => Date.now(),
    isMobile: () => true,
    prefersDark: () => false,
  }
  const lateWallet = { id: 'io.example', name: 'Late Wallet', type: 'injected', namespaces: ['eip155'] }

  test('behavior: with no browser wallet, a phone opens on Connect, where e-mail, socials and WalletConnect wallets are', async () => {
    const config = createConfig({ networks: ['eip155:1', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'] }, phone)
    await open(config)
    assert.equal(config.$modal.get().router.view, 'Connect')
  })

  test('behavior: the first view is the same whether a browser wallet announced itself before the open or after', async () => {
    const before = createConfig(
      { networks: ['eip155:1'], connectors: [lateWallet as unknown as Connector] },
      phone,
    )
    const after = createConfig({ networks: ['eip155:1'] }, phone)
    await open(before)
    await open(after)
    assert.equal(before.$connectors.get().length, 1)
    assert.equal(after.$connectors.get().length, 0)
    assert.equal(before.$modal.get().router.view, after.$modal.get().router.view)
  })
})
