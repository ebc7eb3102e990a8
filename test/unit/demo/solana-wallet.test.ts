// The Demo Wallet's Solana side (a Wallet Standard wallet) without a browser: prompts are answered by a
// fake `ask`, registration runs on a bare EventTarget standing in for `window`, and transactions go to the
// real local Solana network (litesvm behind JSON-RPC) on a free loopback port. Registration, connecting,
// the controls and messages here; refusals and transactions in solana-wallet-transactions.test.ts.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { getWallets } from '@wallet-standard/app'
import type { WalletAccount } from '@wallet-standard/base'
import { DEMO_WALLET_ICON } from '../../../demo/wallets/identity.ts'
import { registerSolanaWallet, SOLANA_AUTHORIZED_KEY } from '../../../demo/wallets/solana-wallet.ts'
import { devKeypair } from '../../../server/dev/solana/index.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import {
  blockhash,
  connected,
  key0,
  key1,
  MemoryStorage,
  origin,
  rejection,
  solana,
  transfer,
  useLocalSolana,
  wallet,
} from './solana-wallet-helpers.ts'

describe('demo wallet: Solana (Wallet Standard): registration, connect, controls and messages', {
  timeout: 30_000,
}, () => {
  useLocalSolana()

  test('default: dev key 0, the Demo Wallet name and icon, four chains, not connected', () => {
    const { wallet: standard, controls } = wallet()
    assert.equal(controls.address, key0.publicKey.toBase58())
    assert.equal(controls.authorized, false)
    assert.equal(standard.version, '1.0.0')
    assert.equal(standard.name, 'Demo Wallet')
    assert.equal(standard.icon, DEMO_WALLET_ICON)
    assert.deepEqual(standard.chains, [
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'solana:4uhcVJyU9pJkvQyS88uRDiswHXSRhhcw',
      LOCAL_SOLANA_NETWORK_ID,
    ])
    assert.deepEqual(Object.keys(standard.features).sort(), [
      'solana:signAndSendTransaction',
      'solana:signMessage',
      'solana:signTransaction',
      'standard:connect',
      'standard:disconnect',
      'standard:events',
    ])
    assert.deepEqual(standard.features['solana:signTransaction'].supportedTransactionVersions, ['legacy', 0])
    assert.deepEqual(standard.features['solana:signAndSendTransaction'].supportedTransactionVersions, [
      'legacy',
      0,
    ])
    assert.deepEqual(standard.accounts, [])
    assert.equal(wallet({ accountIndex: 2 }).controls.address, devKeypair(2).publicKey.toBase58())
  })

  test('behavior: getWallets() sees the wallet registered before and after the app is ready', () => {
    // @wallet-standard/app reads the global `window` on its first getWallets(); a bare EventTarget will do.
    const target = new EventTarget()
    const global = globalThis as { window?: unknown }
    global.window = target
    try {
      const early = wallet().wallet
      const unregisterEarly = registerSolanaWallet(target, early)
      const wallets = getWallets() // dispatches wallet-standard:app-ready: `early` registers now
      assert.ok(wallets.get().includes(early))

      const late = wallet().wallet
      const unregisterLate = registerSolanaWallet(target, late) // heard through wallet-standard:register-wallet
      assert.ok(wallets.get().includes(late))

      unregisterEarly()
      unregisterLate()
      assert.equal(wallets.get().includes(early), false)
      assert.equal(wallets.get().includes(late), false)
    } finally {
      delete global.window
    }
  })

  test('behavior: connect asks once, silent connect restores from storage, disconnect forgets', async () => {
    const storage = new MemoryStorage()
    const first = wallet({ storage })
    const { connect } = first.wallet.features['standard:connect']

    assert.deepEqual(await connect({ silent: true }), { accounts: [] })
    assert.equal(first.prompts.length, 0)

    const [a, b] = await Promise.all([connect(), connect()])
    assert.equal(first.prompts.length, 1, 'two connects share one prompt')
    assert.equal(first.prompts[0]?.title, `Connect to ${origin}`)
    const account = a.accounts[0] as WalletAccount
    assert.equal(account.address, key0.publicKey.toBase58())
    assert.deepEqual([...account.publicKey], [...key0.publicKey.toBytes()])
    assert.ok(account.chains.includes(LOCAL_SOLANA_NETWORK_ID))
    assert.ok(account.features.includes('solana:signAndSendTransaction'))
    assert.deepEqual(b.accounts, [account])
    assert.deepEqual(first.wallet.accounts, [account])
    assert.equal(first.controls.authorized, true)
    assert.deepEqual(JSON.parse(storage.getItem(SOLANA_AUTHORIZED_KEY) ?? '[]'), [origin])

    // A reload: a new wallet on the same storage restores silently, without a prompt.
    const second = wallet({ storage })
    const restored = await second.wallet.features['standard:connect'].connect({ silent: true })
    assert.deepEqual(
      restored.accounts.map(({ address }) => address),
      [account.address],
    )
    assert.equal(second.prompts.length, 0)
    // Another origin is not connected.
    const other = wallet({ storage, origin: 'http://localhost:9999' })
    assert.deepEqual(await other.wallet.features['standard:connect'].connect({ silent: true }), {
      accounts: [],
    })

    await first.wallet.features['standard:disconnect'].disconnect()
    assert.deepEqual(first.wallet.accounts, [])
    assert.deepEqual(await second.wallet.features['standard:connect'].connect({ silent: true }), {
      accounts: [],
    })
    assert.deepEqual(first.changes, [[account.address], []])
  })

  test('behavior: the controls switch accounts and disconnect, with change events', async () => {
    const { controls, changes, wallet: standard } = await connected()
    controls.switchAccount(1)
    assert.equal(controls.address, key1.publicKey.toBase58())
    assert.deepEqual(
      standard.accounts.map(({ address }) => address),
      [key1.publicKey.toBase58()],
    )
    controls.disconnect()
    assert.equal(controls.authorized, false)
    assert.deepEqual(changes, [[key0.publicKey.toBase58()], [key1.publicKey.toBase58()], []])

    // While disconnected, a switch emits nothing; an unsubscribed listener hears nothing.
    const heard: unknown[] = []
    const off = standard.features['standard:events'].on('change', (properties) => heard.push(properties))
    controls.switchAccount(2)
    off()
    await standard.features['standard:connect'].connect()
    assert.deepEqual(heard, [])
    assert.equal(standard.accounts[0]?.address, devKeypair(2).publicKey.toBase58())
    assert.throws(() => controls.switchAccount(-1), /Bad account index/)
  })

  test('behavior: signMessage signs with ed25519; the prompt shows the text', async () => {
    const { wallet: standard, account, prompts } = await connected({ accountIndex: 3 })
    const message = new TextEncoder().encode('Sign in to example.org\n\nNonce: 1234')
    const [output] = await standard.features['solana:signMessage'].signMessage({ account, message })
    assert.ok(output)
    assert.deepEqual([...output.signedMessage], [...message])
    assert.equal(output.signature.length, 64)
    assert.equal(ed25519.verify(output.signature, message, devKeypair(3).publicKey.toBytes()), true)
    assert.equal(prompts[0]?.title, 'Sign message')
    assert.equal(prompts[0]?.details?.[0], 'Sign in to example.org\n\nNonce: 1234')

    await standard.features['solana:signMessage'].signMessage({ account, message: Uint8Array.of(0, 1, 255) })
    assert.equal(prompts[1]?.details?.[0], '0x0001ff')
  })

  test('error: rejecting a prompt throws code 4001', async () => {
    let approve = false
    const { wallet: standard } = wallet({}, () => approve)
    assert.deepEqual(await rejection(standard.features['standard:connect'].connect()), {
      code: 4001,
      message: 'User rejected the request.',
    })
    assert.deepEqual(standard.accounts, [])

    approve = true
    const { accounts } = await standard.features['standard:connect'].connect()
    const account = accounts[0] as WalletAccount
    approve = false
    const message = new TextEncoder().encode('gm')
    assert.equal(
      (await rejection(standard.features['solana:signMessage'].signMessage({ account, message }))).code,
      4001,
    )
    const transaction = transfer(key0, key1, 1, await blockhash(solana.url))
    assert.equal(
      (
        await rejection(
          standard.features['solana:signAndSendTransaction'].signAndSendTransaction({
            account,
            transaction,
            chain: LOCAL_SOLANA_NETWORK_ID,
          }),
        )
      ).code,
      4001,
    )
  })
})
