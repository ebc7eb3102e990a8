import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type HostWalletConnection,
  hostWalletProvider,
  watchHostWalletInfo,
} from '../../../src/core/farcasterHostWallet.ts'

/** A framed page's window: its parent (the host) and another frame, and a way to post as either. */
function framedWindow() {
  const win = new EventTarget() as EventTarget & { parent: object; document: EventTarget }
  win.parent = { name: 'host' }
  win.document = new EventTarget()
  const post = (source: object, data: unknown) =>
    win.dispatchEvent(Object.assign(new Event('message'), { source, data }))
  return { win: win as unknown as Window, post, host: win.parent, stranger: { name: 'another frame' } }
}

const info = {
  uuid: 'c5b5a6a5-1f39-4bb4-9d0a-6d2b6f3c1e01',
  name: 'Warpcast Wallet',
  rdns: 'xyz.farcaster.MiniAppWallet',
  icon: 'data:image/svg+xml,%3Csvg/%3E',
}

/** A host connection whose answers the test sets. */
function connection(answer: unknown, onAsk: () => void = () => {}): HostWalletConnection {
  return {
    ethProviderRequestV2: async () => answer,
    eip6963RequestProvider: async () => onAsk(),
    getCapabilities: async () => ['wallet.getEthereumProvider'],
  }
}

describe('the Farcaster host wallet', () => {
  test("the host's announcement names the wallet; the same message from another frame is ignored", async () => {
    const { win, post, host, stranger } = framedWindow()
    const named: string[] = []
    await watchHostWalletInfo(
      win,
      connection(undefined, () => {
        post(stranger, {
          type: 'frameEvent',
          event: { event: 'eip6963:announceProvider', info: { ...info, name: 'Evil Wallet' } },
        })
        post(host, { type: 'frameEvent', event: { event: 'eip6963:announceProvider', info } })
      }),
      (each) => named.push(each.name),
    )
    assert.deepEqual(named, ['Warpcast Wallet'])
  })

  test('attack: an icon that is not a data URI (a tracker, a script) is dropped; a malformed announcement is ignored', async () => {
    const { win, post, host } = framedWindow()
    const icons: string[] = []
    await watchHostWalletInfo(
      win,
      connection(undefined, () => {
        post(host, {
          type: 'frameEvent',
          event: {
            event: 'eip6963:announceProvider',
            info: { ...info, icon: 'https://tracker.example/p.svg' },
          },
        })
        post(host, {
          type: 'frameEvent',
          event: { event: 'eip6963:announceProvider', info: { name: 'No rdns' } },
        })
      }),
      (each) => icons.push(each.icon),
    )
    assert.deepEqual(icons, [''])
  })

  test("a phone host's announcement comes as a document event", async () => {
    const { win } = framedWindow()
    const named: string[] = []
    await watchHostWalletInfo(
      win,
      connection(undefined, () => {
        win.document.dispatchEvent(
          Object.assign(new Event('FarcasterFrameEvent'), {
            data: { event: 'eip6963:announceProvider', info },
          }),
        )
      }),
      (each) => named.push(each.rdns),
    )
    assert.deepEqual(named, ['xyz.farcaster.MiniAppWallet'])
  })

  test("requests go to the host; its error keeps its code; an answer that is not JSON-RPC's is an internal error", async () => {
    const { win } = framedWindow()
    const accounts = hostWalletProvider(win, connection({ jsonrpc: '2.0', id: 1, result: ['0xabc'] }))
    assert.deepEqual(await accounts.request({ method: 'eth_requestAccounts' }), ['0xabc'])
    const refused = hostWalletProvider(
      win,
      connection({ jsonrpc: '2.0', id: 1, error: { code: 4001, message: 'User rejected the request.' } }),
    )
    await assert.rejects(refused.request({ method: 'personal_sign', params: ['0x00', '0xabc'] }), {
      code: 4001,
      message: 'User rejected the request.',
    })
    const garbled = hostWalletProvider(win, connection({ error: 'nope' }))
    await assert.rejects(garbled.request({ method: 'eth_chainId' }), { code: -32603 })
  })

  test("the host's accountsChanged reaches the provider's listeners, from the parent window only", () => {
    const { win, post, host, stranger } = framedWindow()
    const provider = hostWalletProvider(win, connection(undefined))
    const seen: unknown[] = []
    const listener = (accounts: never) => seen.push(accounts)
    provider.on?.('accountsChanged', listener)
    post(stranger, { type: 'frameEthProviderEvent', event: 'accountsChanged', params: [['0xevil']] })
    post(host, { type: 'frameEthProviderEvent', event: 'accountsChanged', params: [['0xabc']] })
    provider.removeListener?.('accountsChanged', listener)
    post(host, { type: 'frameEthProviderEvent', event: 'accountsChanged', params: [['0xdef']] })
    assert.deepEqual(seen, [['0xabc']])
  })
})
