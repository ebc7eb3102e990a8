// mergeConnectors in node: the Demo Wallet's EVM side and Solana side (prompts answered by a fake `ask`)
// merged into one, plus hand-made minimal Wallet objects for the edge cases (the Wallet Standard
// connector alone is in walletStandard.test.ts). No network: nothing here sends a transaction.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createDemoWallet } from '../../../demo/wallets/demo-wallet.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import { createInjectedConnector } from '../../../src/connectors/injected/index.ts'
import type { ConnectorEvent } from '../../../src/connectors/types.ts'
import {
  createWalletStandardConnector,
  mergeConnectors,
} from '../../../src/connectors/walletStandard/index.ts'
import { decodeBase58, encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import { demoSolana, eip1193, ICON, KEY0, KEY1, minimalWallet, ORIGIN } from './walletStandard-helpers.ts'

describe('mergeConnectors', () => {
  /** The Demo Wallet as a page sees it: its EVM side (EIP-6963) and its Solana side (Wallet Standard). */
  function demoParts() {
    const evm = createDemoWallet({ origin: ORIGIN, autoApprove: true })
    const solana = demoSolana()
    const injected = createInjectedConnector({
      id: 'dev.wallet-elements.demo',
      name: 'Demo Wallet',
      icon: ICON,
      provider: eip1193(evm.provider),
    })
    const standard = createWalletStandardConnector({ wallet: solana.wallet })
    return { evm, solana, injected, standard }
  }

  test('default: the same name becomes one connector with both namespaces and the injected id', async () => {
    const { injected, standard } = demoParts()
    const merged = mergeConnectors([injected], [standard])
    assert.equal(merged.length, 1)
    const [demo] = merged
    assert.equal(demo?.id, 'dev.wallet-elements.demo')
    assert.equal(demo?.name, 'Demo Wallet')
    assert.equal(demo?.type, 'injected')
    assert.equal(demo?.icon, ICON)
    assert.deepEqual(demo?.namespaces, ['eip155', 'solana'])
  })

  test('behavior: calls go to the part serving the namespace', async () => {
    const { injected, standard } = demoParts()
    const [demo] = mergeConnectors([injected], [standard])
    assert.ok(demo)
    const evmAddress = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    assert.deepEqual(await demo.connect({ namespace: 'eip155' }), {
      namespace: 'eip155',
      accounts: [evmAddress],
      chainId: 'eip155:31337',
    })
    assert.deepEqual(await demo.connect({ namespace: 'solana', chainId: LOCAL_SOLANA_NETWORK_ID }), {
      namespace: 'solana',
      accounts: [KEY0],
      chainId: LOCAL_SOLANA_NETWORK_ID,
    })
    assert.equal(await demo.getProvider('eip155').request({ method: 'eth_chainId' }), '0x7a69')
    const signed = (await demo.getProvider('solana').request({
      method: 'solana_signMessage',
      params: { message: encodeBase58(new Uint8Array([1, 2, 3])) },
    })) as { signature: string }
    assert.equal(decodeBase58(signed.signature)?.length, 64)
    assert.deepEqual(await demo.reconnect({ namespace: 'solana' }), {
      namespace: 'solana',
      accounts: [KEY0],
      chainId: LOCAL_SOLANA_NETWORK_ID,
    })
  })

  test('behavior: names match ignoring case and spaces; different names are both kept', () => {
    const { injected } = demoParts()
    const twin = createWalletStandardConnector({ wallet: minimalWallet({ name: ' demo wallet ' }) })
    const other = createWalletStandardConnector({ wallet: minimalWallet({ name: 'Other Wallet' }) })
    const merged = mergeConnectors([injected], [twin, other])
    assert.deepEqual(
      merged.map((connector) => [connector.id, connector.namespaces]),
      [
        ['dev.wallet-elements.demo', ['eip155', 'solana']],
        ['walletStandard:Other Wallet', ['solana']],
      ],
    )
    assert.deepEqual(
      mergeConnectors([injected], [other]).map((connector) => connector.id),
      ['dev.wallet-elements.demo', 'walletStandard:Other Wallet'],
    )
  })

  test('behavior: subscribe listens to both parts and unsubscribe stops both', async () => {
    const { evm, solana, injected, standard } = demoParts()
    const [demo] = mergeConnectors([injected], [standard])
    assert.ok(demo)
    await demo.connect({ namespace: 'eip155' })
    await demo.connect({ namespace: 'solana' })
    const events: ConnectorEvent[] = []
    const stop = demo.subscribe((event) => events.push(event))
    evm.controls.switchAccount(1)
    solana.controls.switchAccount(1)
    assert.deepEqual(
      events.map((event) => [event.type, event.namespace]),
      [
        ['accountsChanged', 'eip155'],
        ['accountsChanged', 'solana'],
      ],
    )
    assert.deepEqual(events[1], { type: 'accountsChanged', namespace: 'solana', accounts: [KEY1] })
    stop()
    evm.controls.switchAccount(2)
    solana.controls.switchAccount(2)
    assert.equal(events.length, 2, 'nothing from either part after unsubscribe')
  })

  test('behavior: subscribing for one namespace hears only that part', async () => {
    const { evm, solana, injected, standard } = demoParts()
    const [demo] = mergeConnectors([injected], [standard])
    assert.ok(demo)
    await demo.connect({ namespace: 'eip155' })
    await demo.connect({ namespace: 'solana' })
    const events: ConnectorEvent[] = []
    const stop = demo.subscribe((event) => events.push(event), 'solana')
    evm.controls.switchAccount(1)
    solana.controls.switchAccount(1)
    stop()
    assert.deepEqual(events, [{ type: 'accountsChanged', namespace: 'solana', accounts: [KEY1] }])
  })
})
