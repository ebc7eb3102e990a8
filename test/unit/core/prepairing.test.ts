// A phone's pairing made ahead: while Connect or All wallets is open the URI exists before any tap, so a
// wallet's row is a link that opens the app inside the tap; the tap uses that one pairing for whichever
// wallet it is, and the pairing ends with the modal.
import assert from 'node:assert/strict'
import { afterEach, beforeEach, describe, it, mock } from 'node:test'
import type { WalletConnectConnector } from '../../../src/connectors/walletconnect/connector.ts'
import { close } from '../../../src/core/actions/close.ts'
import { navigate } from '../../../src/core/actions/navigate.ts'
import { openWalletApp } from '../../../src/core/actions/openWalletApp.ts'
import { preparePairing } from '../../../src/core/actions/preparePairing.ts'
import { startPairing } from '../../../src/core/actions/startPairing.ts'
import type { Config } from '../../../src/core/createConfig.ts'
import { createConfig } from '../../../src/core/createConfig.ts'
import { startAt, type View } from '../../../src/core/modal/router.ts'
import { appLink, mobileOs, opensOnPhone, storeLink } from '../../../src/core/pairing/links.ts'
import {
  APP_OPEN_CHECK_MS,
  keepsPairing,
  linkableUri,
  preparesPairing,
  walletConnectConfigured,
} from '../../../src/core/pairing/rules.ts'
import type { Platform } from '../../../src/core/platform.ts'
import { recentWallets } from '../../../src/core/recentWallets.ts'
import { RequestAbortedError, UserRejectedRequestError } from '../../../src/errors/index.ts'
import type { CatalogueEntry } from '../../../src/protocol/api/catalogue.ts'
import { PAIRING_LIFETIME_MS } from '../../../src/protocol/constants.ts'

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const PIXEL =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'

const entry = (id: string, name: string, links: Partial<CatalogueEntry> = {}): CatalogueEntry => ({
  id,
  name,
  image_id: id,
  chains: ['eip155:1'],
  mobile_link: null,
  desktop_link: null,
  webapp_link: null,
  app_store: null,
  play_store: null,
  rdns: null,
  ...links,
})
const rainbow = entry('rainbow-id', 'Rainbow', {
  mobile_link: 'rainbow:',
  app_store: 'https://apps.apple.com/us/app/rainbow-ethereum-wallet/id1457119021',
})
const trust = entry('trust-id', 'Trust Wallet', {
  mobile_link: 'trust:',
  app_store: 'https://apps.apple.com/app/apple-store/id1288339409',
  play_store: 'https://play.google.com/store/apps/details?id=com.wallet.crypto.trustapp',
})

/**
 * A WalletConnect connector without a relay: each `pair()` makes a new URI, `connect()` waits for the
 * wallet (`approve`, `reject`), `cancel()` aborts it, as the real connector does.
 */
function fakeWalletConnect() {
  const uris: string[] = []
  let cancels = 0
  let waiter: { resolve(value: unknown): void; reject(error: unknown): void } | undefined
  let pending: Promise<unknown> | undefined
  const wait = () => {
    pending ??= new Promise((resolve, reject) => {
      waiter = { resolve, reject }
    })
    pending.catch(() => {})
    return pending
  }
  const settle = (outcome: { value: unknown } | { error: unknown }) => {
    const current = waiter
    waiter = undefined
    pending = undefined
    if ('value' in outcome) current?.resolve(outcome.value)
    else current?.reject(outcome.error)
  }
  const connector = {
    id: 'walletConnect',
    name: 'WalletConnect',
    type: 'walletConnect',
    namespaces: ['eip155'],
    async pair() {
      const uri = `wc:${String(uris.length + 1).padStart(64, '0')}@2?relay-protocol=irn&symKey=${'ab'.repeat(32)}`
      uris.push(uri)
      wait()
      return { uri }
    },
    cancel() {
      cancels++
      settle({ error: new RequestAbortedError() })
    },
    async resume() {},
    connect: () => wait(),
    reconnect: async () => undefined,
    disconnect: async () => {},
    switchNetwork: async () => {},
    getProvider: () => ({ request: async () => null }),
    subscribe: () => () => {},
  } as unknown as WalletConnectConnector
  return {
    connector,
    uris,
    cancels: () => cancels,
    approve: () => settle({ value: { namespace: 'eip155', accounts: [ALICE], chainId: 'eip155:31337' } }),
    reject: () => settle({ error: new UserRejectedRequestError() }),
  }
}

/** A page whose visibility and focus the test sets, and whose events it fires. */
function fakeWindow(userAgent = IPHONE) {
  const win = new EventTarget() as EventTarget & {
    document: EventTarget & { visibilityState: 'visible' | 'hidden'; hasFocus(): boolean }
    navigator: { userAgent: string; maxTouchPoints: number }
  }
  let focused = true
  const doc = Object.assign(new EventTarget(), {
    visibilityState: 'visible' as 'visible' | 'hidden',
    hasFocus: () => focused,
  })
  win.document = doc
  win.navigator = { userAgent, maxTouchPoints: 5 }
  return {
    window: win as unknown as Window,
    hide() {
      doc.visibilityState = 'hidden'
      doc.dispatchEvent(new Event('visibilitychange'))
    },
    blur() {
      focused = false
      win.dispatchEvent(new Event('blur'))
    },
    focus() {
      focused = true
      win.dispatchEvent(new Event('focus'))
    },
  }
}

function phone(options: { mobile?: boolean; relayUrl?: string | undefined; window?: Window } = {}) {
  const items = new Map<string, string>()
  const platform: Platform = {
    window: options.window,
    storage: {
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void items.set(key, value),
      removeItem: (key) => void items.delete(key),
    },
    fetch: () => Promise.reject(new Error('offline')),
    now: () => Date.now(),
    isMobile: () => options.mobile ?? true,
    prefersDark: () => false,
  }
  const config = createConfig(
    {
      networks: 'eip155:31337',
      rpcUrls: { 'eip155:31337': 'http://127.0.0.1:1' },
      ...('relayUrl' in options
        ? options.relayUrl
          ? { relayUrl: options.relayUrl }
          : {}
        : { relayUrl: 'ws://127.0.0.1:1' }),
    },
    platform,
  )
  const wc = fakeWalletConnect()
  config.internal.walletConnect = Promise.resolve(wc.connector)
  config.internal.connectorsExtra.set([wc.connector])
  return { config, wc }
}

const show = (config: Config, view: View) =>
  config.$modal.set({ ...config.$modal.get(), open: true, router: startAt(view) })

/** Lets the pairing's promise chain (connector, first URI, connection attempt) run. */
const settled = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

/** Waits, off the mocked clock, for the connection's own loads (network definitions) to settle. */
async function until(check: () => boolean, what: string) {
  for (let turn = 0; turn < 2_000 && !check(); turn++) await new Promise((resolve) => setImmediate(resolve))
  assert.ok(check(), what)
}

const rowHref = (config: Config, wallet: CatalogueEntry) => {
  const uri = linkableUri(config.$pairing.get(), config.platform.now())
  return uri ? appLink(wallet, uri, { isMobile: true }) : undefined
}

/** A phone with the modal open on `view` and its pairing made ahead. */
async function prepared(view: View = 'Connect', options: Parameters<typeof phone>[0] = {}) {
  const made = phone(options)
  show(made.config, view)
  preparePairing(made.config)
  await settled()
  return made
}

/** The wallet approves; the connection completes, with `wallet` remembered as the recent one. */
async function approvedAs(made: ReturnType<typeof phone>, wallet: CatalogueEntry) {
  made.wc.approve()
  await until(() => made.config.$status.get() === 'connected', 'connected')
  assert.deepEqual(
    recentWallets(made.config).map((recent) => recent.id),
    [wallet.id],
  )
}

describe('pre-pairing rules', () => {
  it('default: a phone with WalletConnect makes its pairing ahead on Connect and All wallets only', () => {
    for (const view of ['Connect', 'AllWallets']) {
      assert.equal(preparesPairing({ view, isMobile: true, walletConnect: true }), true, view)
      assert.equal(
        preparesPairing({ view, isMobile: false, walletConnect: true }),
        false,
        `${view} on a computer`,
      )
      assert.equal(
        preparesPairing({ view, isMobile: true, walletConnect: false }),
        false,
        `${view} without a relay`,
      )
    }
    for (const view of ['Account', 'ConnectingExternal', 'ConnectingWalletConnect', 'EmailVerifyOtp'])
      assert.equal(preparesPairing({ view, isMobile: true, walletConnect: true }), false, view)
  })

  it('default: the pairing views keep a pairing; Connect and All wallets only where pairings are made ahead', () => {
    for (const view of ['ConnectingWalletConnect', 'ConnectingWalletConnectBasic']) {
      assert.equal(keepsPairing(view, { preparing: false }), true, view)
      assert.equal(keepsPairing(view, { preparing: true }), true, view)
    }
    for (const view of ['Connect', 'AllWallets']) {
      assert.equal(keepsPairing(view, { preparing: true }), true, view)
      assert.equal(keepsPairing(view, { preparing: false }), false, `${view} on a computer`)
    }
    for (const view of ['Account', 'ConnectingExternal', 'SIWXSignMessage'])
      assert.equal(keepsPairing(view, { preparing: true }), false, view)
  })

  it('behavior: a link carries only a waiting, unexpired URI', () => {
    const createdAt = 1_000_000
    const waiting = { status: 'waiting', uri: 'wc:abc@2', createdAt }
    assert.equal(linkableUri(waiting, createdAt + 1), 'wc:abc@2')
    assert.equal(linkableUri(waiting, createdAt + 229_999), 'wc:abc@2')
    assert.equal(linkableUri(waiting, createdAt + 230_000), undefined, 'expired: 10 s or less left')
    assert.equal(linkableUri({ ...waiting, status: 'creating', uri: undefined }, createdAt), undefined)
    assert.equal(linkableUri({ ...waiting, status: 'rejected' }, createdAt), undefined)
  })

  it('args: WalletConnect counts as configured with a relay or a project id', () => {
    assert.equal(walletConnectConfigured({}), false)
    assert.equal(walletConnectConfigured({ relayUrl: 'wss://relay.example' }), true)
    assert.equal(walletConnectConfigured({ projectId: 'shop' }), true)
    assert.equal(walletConnectConfigured({ walletConnectProjectId: '3f2a' }), true)
  })

  it('args: the app link is the mobile link on a phone (else the web app), the desktop link on a computer', () => {
    const uri = 'wc:7f6e@2?relay-protocol=irn&symKey=abc'
    const encoded = encodeURIComponent(uri)
    assert.equal(appLink(rainbow, uri, { isMobile: true }), `rainbow://wc?uri=${encoded}`)
    assert.equal(appLink(rainbow, uri, { isMobile: false }), undefined)
    const web = entry('web', 'Web', { webapp_link: 'https://app.web.example' })
    assert.equal(appLink(web, uri, { isMobile: true }), `https://app.web.example/wc?uri=${encoded}`)
    assert.equal(opensOnPhone(web), true)
    assert.equal(opensOnPhone(entry('desk', 'Desk', { desktop_link: 'desk:' })), false)
    assert.equal(
      appLink(entry('evil', 'Evil', { mobile_link: 'javascript:alert(1)//' }), uri, { isMobile: true }),
      undefined,
    )
  })

  it('args: the store page for the phone: App Store on iOS (iPad as a Mac too), Google Play on Android', () => {
    assert.equal(mobileOs({ userAgent: IPHONE, maxTouchPoints: 5 }), 'ios')
    assert.equal(mobileOs({ userAgent: PIXEL, maxTouchPoints: 5 }), 'android')
    const ipadAsMac =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'
    assert.equal(mobileOs({ userAgent: ipadAsMac, maxTouchPoints: 5 }), 'ios')
    assert.equal(mobileOs({ userAgent: ipadAsMac, maxTouchPoints: 0 }), undefined, 'a Mac')
    assert.equal(storeLink(trust, 'ios'), trust.app_store)
    assert.equal(storeLink(trust, 'android'), trust.play_store)
    assert.equal(storeLink(rainbow, 'android'), undefined, 'Rainbow has no Google Play page in the catalogue')
    assert.equal(storeLink(trust, undefined), undefined)
  })
})

describe('the pairing made ahead', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }))
  afterEach(() => mock.timers.reset())

  it("default: on a phone's Connect the URI exists before any tap, with no connection attempt yet", async () => {
    const { config, wc } = phone()
    show(config, 'Connect')
    preparePairing(config)
    preparePairing(config)
    await settled()
    assert.equal(wc.uris.length, 1, 'one pairing, however often the view asks')
    const pairing = config.$pairing.get()
    assert.equal(pairing.status, 'waiting')
    assert.equal(pairing.uri, wc.uris[0])
    assert.equal(pairing.connecting, false)
    assert.equal(config.$status.get(), 'disconnected', 'nothing is connecting before a tap')
    assert.equal(rowHref(config, rainbow), `rainbow://wc?uri=${encodeURIComponent(wc.uris[0] ?? '')}`)
  })

  it('behavior: nothing is made ahead on a computer, without WalletConnect, on another view or while closed', async () => {
    for (const [what, made] of [
      ['a computer', phone({ mobile: false })],
      ['no relay or project id', phone({ relayUrl: undefined })],
    ] as const) {
      show(made.config, 'Connect')
      preparePairing(made.config)
      await settled()
      assert.equal(made.wc.uris.length, 0, what)
      assert.equal(made.config.$pairing.get().status, 'idle', what)
    }
    const { config, wc } = phone()
    show(config, 'Account')
    preparePairing(config)
    config.$modal.set({ ...config.$modal.get(), open: false, router: startAt('Connect') })
    preparePairing(config)
    await settled()
    assert.equal(wc.uris.length, 0)
  })

  it('behavior: the tap uses that pairing for the wallet, moves to ConnectingWalletConnect, and connects it as recent', async () => {
    const made = await prepared()
    const { config, wc } = made
    const href = rowHref(config, rainbow)
    assert.deepEqual(openWalletApp(config, rainbow, href), { follow: true })
    assert.equal(config.$modal.get().router.view, 'ConnectingWalletConnect')
    assert.equal(config.$modal.get().router.data?.wallet, rainbow)
    await settled()
    assert.equal(wc.uris.length, 1, 'no second pairing for the tap')
    assert.equal(config.$pairing.get().connecting, true)
    assert.deepEqual(config.$pairing.get().wallet, { id: rainbow.id, name: rainbow.name })
    assert.equal(config.$status.get(), 'connecting')
    // The view that shows next asks for its pairing: it is the same one.
    void startPairing(config, { wallet: { id: rainbow.id, name: rainbow.name } })
    await settled()
    assert.equal(wc.uris.length, 1)
    await approvedAs(made, rainbow)
    assert.equal(config.$pairing.get().status, 'idle', 'connected: the pairing is done')
  })

  it('behavior: back from one wallet and a tap on another: the same pairing, the last wallet is the recent one', async () => {
    const made = await prepared()
    const { config, wc } = made
    openWalletApp(config, rainbow, rowHref(config, rainbow))
    await settled()
    navigate(config, 'back')
    assert.equal(config.$pairing.get().status, 'waiting', 'Connect keeps the pairing on a phone')
    const href = rowHref(config, trust)
    assert.equal(href, `trust://wc?uri=${encodeURIComponent(wc.uris[0] ?? '')}`)
    assert.deepEqual(openWalletApp(config, trust, href), { follow: true })
    await settled()
    assert.equal(wc.uris.length, 1)
    await approvedAs(made, trust)
  })

  it('behavior: the URI is replaced before it expires; a row still carrying the old one is not followed', async () => {
    const { config, wc } = await prepared('AllWallets')
    const old = rowHref(config, rainbow)
    mock.timers.tick(PAIRING_LIFETIME_MS - 10_000)
    await settled()
    assert.equal(wc.uris.length, 2)
    assert.equal(config.$pairing.get().uri, wc.uris[1])
    assert.notEqual(rowHref(config, rainbow), old)
    assert.deepEqual(openWalletApp(config, rainbow, old), { follow: false })
    assert.equal(config.$modal.get().router.view, 'ConnectingWalletConnect', 'the view offers the fresh link')
  })

  it('behavior: a tap before the URI exists is not followed; the view shows the link once it is', async () => {
    const { config, wc } = phone()
    show(config, 'Connect')
    assert.deepEqual(openWalletApp(config, rainbow, undefined), { follow: false })
    assert.equal(config.$modal.get().router.view, 'ConnectingWalletConnect')
    await settled()
    assert.equal(wc.uris.length, 1)
    assert.equal(config.$pairing.get().status, 'waiting')
    assert.equal(config.$pairing.get().connecting, true)
  })

  it('behavior: closing the modal stops the pairing: reset, the attempt cancelled, no refresh after', async () => {
    const { config, wc } = await prepared()
    openWalletApp(config, rainbow, rowHref(config, rainbow))
    await settled()
    assert.equal(await close(config), true)
    await settled()
    assert.equal(config.$pairing.get().status, 'idle')
    assert.equal(config.$pairing.get().uri, undefined)
    assert.equal(wc.cancels(), 1)
    assert.equal(config.internal.pairing, undefined)
    assert.equal(config.$status.get(), 'disconnected')
    mock.timers.tick(PAIRING_LIFETIME_MS)
    await settled()
    assert.equal(wc.uris.length, 1, 'a stopped pairing is never refreshed')
  })

  it('behavior: a view that does not pair stops it (a browser wallet chosen, say)', async () => {
    const { config, wc } = await prepared()
    navigate(config, 'ConnectingExternal', { connectorId: 'io.metamask' })
    assert.equal(config.$pairing.get().status, 'idle')
    assert.equal(wc.cancels(), 1)
  })

  it('behavior: on a computer, going back from the QR code to Connect stops the pairing, as before', async () => {
    const { config, wc } = phone({ mobile: false })
    show(config, 'Connect')
    navigate(config, 'ConnectingWalletConnect', { wallet: rainbow })
    void startPairing(config, { wallet: { id: rainbow.id, name: rainbow.name } })
    await settled()
    assert.equal(config.$pairing.get().status, 'waiting')
    navigate(config, 'back')
    assert.equal(config.$pairing.get().status, 'idle')
    assert.equal(wc.cancels(), 1)
  })

  it('error: a rejection is kept for the retry, which makes a fresh pairing (never two at once)', async () => {
    const { config, wc } = await prepared()
    openWalletApp(config, rainbow, rowHref(config, rainbow))
    await settled()
    wc.reject()
    await settled()
    assert.equal(config.$pairing.get().status, 'rejected')
    void startPairing(config, { wallet: { id: rainbow.id, name: rainbow.name }, fresh: true })
    await settled()
    assert.equal(wc.uris.length, 2)
    assert.equal(wc.cancels(), 1, 'the old pairing was stopped')
    assert.equal(config.$pairing.get().status, 'waiting')
    assert.equal(config.$pairing.get().uri, wc.uris[1])
  })
})

describe('did the app open?', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 }))
  afterEach(() => mock.timers.reset())

  async function tapped() {
    const page = fakeWindow()
    const { config } = await prepared('Connect', { window: page.window })
    openWalletApp(config, rainbow, rowHref(config, rainbow))
    return { config, page, launch: () => config.$pairing.get().launch }
  }

  it('default: the page hid within 2 s: the app opened', async () => {
    const { page, launch } = await tapped()
    assert.deepEqual(launch(), { walletId: rainbow.id, status: 'opening' })
    mock.timers.tick(500)
    page.hide()
    assert.deepEqual(launch(), { walletId: rainbow.id, status: 'left' })
    mock.timers.tick(APP_OPEN_CHECK_MS)
    assert.equal(launch()?.status, 'left')
  })

  it('behavior: still in front with the focus after 2 s: the app did not open', async () => {
    const { launch } = await tapped()
    mock.timers.tick(APP_OPEN_CHECK_MS - 1)
    assert.equal(launch()?.status, 'opening')
    mock.timers.tick(1)
    assert.equal(launch()?.status, 'stayed')
  })

  it('behavior: a prompt holding the focus past 2 s: the verdict waits for the answer', async () => {
    const { page, launch } = await tapped()
    page.blur()
    mock.timers.tick(APP_OPEN_CHECK_MS * 3)
    assert.equal(launch()?.status, 'opening')
    page.focus()
    assert.equal(launch()?.status, 'stayed', 'the prompt was cancelled')
    page.hide()
    assert.equal(launch()?.status, 'left', 'opened after all')
  })

  it('behavior: the notice ends with the pairing', async () => {
    const { config, page, launch } = await tapped()
    mock.timers.tick(APP_OPEN_CHECK_MS)
    assert.equal(launch()?.status, 'stayed')
    await close(config)
    assert.equal(launch(), undefined)
    page.hide()
    assert.equal(launch(), undefined)
  })
})
