// The core actions on Solana end to end in node (see solana.test.ts): the connected provider (sign,
// send), wallet-side changes, reconnecting, and one merged wallet for both namespaces.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { devKeypair } from '../../../server/dev/solana/index.ts'
import { disconnect } from '../../../src/core/actions/disconnect.ts'
import { getProvider } from '../../../src/core/actions/getProvider.ts'
import { open } from '../../../src/core/actions/open.ts'
import { reconnect } from '../../../src/core/actions/reconnect.ts'
import { switchNetwork } from '../../../src/core/actions/switchNetwork.ts'
import { STORAGE_PREFIX, StorageKey } from '../../../src/protocol/storage.ts'
import {
  ALICE,
  balanceSettled,
  confirmed,
  connected,
  DEMO_ID,
  DEVNET,
  key,
  LOCAL,
  lamports,
  named,
  ORIGIN,
  STANDARD_ID,
  setup,
  useLocalNetworks,
} from './solana-helpers.ts'

describe('core actions on Solana against the local network and the Demo Wallet: provider, reconnect and the merged wallet', {
  timeout: 120_000,
}, () => {
  useLocalNetworks()

  test('behavior: getProvider signMessage returns 64 bytes that verify', async () => {
    const harness = setup({ accountIndex: 2 })
    await connected(harness)
    const provider = getProvider(harness.config, 'solana')
    assert.equal(provider.address, key(2))
    const message = new TextEncoder().encode('hello from wallet-elements')
    const signature = await provider.signMessage(message)
    assert.ok(signature instanceof Uint8Array)
    assert.equal(signature.length, 64)
    assert.equal(ed25519.verify(signature, message, devKeypair(2).publicKey.toBytes()), true)
  })

  test('behavior: sendTransaction fills fee payer and blockhash of a web3.js Transaction, and it lands', async () => {
    const harness = setup({ accountIndex: 2 })
    await connected(harness)
    const receiver = Keypair.generate().publicKey
    const transaction = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: new PublicKey(key(2)), toPubkey: receiver, lamports: 10_000_000 }),
    )
    assert.equal(transaction.recentBlockhash, undefined)
    assert.equal(transaction.feePayer, undefined)
    const signature = await getProvider(harness.config, 'solana').sendTransaction(transaction)
    await confirmed(signature)
    assert.equal(await lamports(receiver.toBase58()), 10_000_000n)
  })

  test('behavior: signTransaction of a web3.js Transaction returns a Transaction with a valid signature', async () => {
    const harness = setup({ accountIndex: 2 })
    await connected(harness)
    const transaction = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: new PublicKey(key(2)),
        toPubkey: new PublicKey(key(1)),
        lamports: 1_000,
      }),
    )
    const before = await lamports(key(1))
    const signed = await getProvider(harness.config, 'solana').signTransaction(transaction)
    assert.ok(signed instanceof Transaction)
    assert.equal(signed.feePayer?.toBase58(), key(2))
    assert.equal(typeof signed.recentBlockhash, 'string')
    assert.equal(signed.signatures.length, 1)
    assert.equal(signed.verifySignatures(), true)
    assert.equal(await lamports(key(1)), before, 'signing sent nothing')
  })

  test('error: getProvider rejects with 4900 while disconnected', async () => {
    const harness = setup({ accountIndex: 2 })
    const provider = getProvider(harness.config, 'solana')
    assert.equal(provider.address, undefined)
    const disconnected = { name: 'ProviderDisconnectedError', code: 4900 }
    await assert.rejects(provider.signMessage(new Uint8Array([1])), disconnected)
    await assert.rejects(
      provider.request({ method: 'solana_signMessage', params: { message: '2' } }),
      disconnected,
    )
    await assert.rejects(provider.signTransaction(new Transaction()), disconnected)
    assert.equal(harness.asked.length, 0)

    await connected(harness)
    await disconnect(harness.config)
    assert.equal(provider.address, undefined)
    await assert.rejects(provider.signMessage(new Uint8Array([1])), disconnected)
    assert.equal(harness.wallet.controls.authorized, false, 'the wallet forgot the site')
  })

  test('behavior: a wallet-side account switch and disconnect reach $account and the events', async () => {
    const harness = setup({ accountIndex: 2 })
    const { config, events, wallet } = harness
    await connected(harness)
    wallet.controls.switchAccount(3)
    assert.equal(config.$account.get()?.address, key(3))
    assert.deepEqual(named(events, 'account-change'), [
      { address: key(3), caipAddress: `${LOCAL}:${key(3)}`, namespace: 'solana' },
    ])
    wallet.controls.disconnect()
    assert.equal(config.$account.get(), undefined)
    assert.deepEqual(named(events, 'disconnect'), [{ namespace: 'solana' }])
  })

  test('behavior: reconnect on a new config restores the Solana connection without a prompt', async () => {
    const first = setup({ accountIndex: 2 })
    await connected(first)
    const second = setup({ wallet: first.wallet, items: first.items })
    await reconnect(second.config)
    assert.equal(second.config.$status.get(), 'connected')
    assert.equal(second.config.$account.get()?.address, key(2))
    assert.equal(second.config.$network.get()?.caipNetworkId, LOCAL)
    assert.equal(first.asked.length, 1, 'only the first connect prompted')
    assert.deepEqual(JSON.parse(second.items.get(STORAGE_PREFIX + StorageKey.connector) ?? 'null'), {
      solana: STANDARD_ID,
    })
    await balanceSettled(second.config)
  })

  test('behavior: one merged wallet connects Solana on switchNetwork and switches back without a prompt', async () => {
    const harness = setup({ merged: true })
    const { config, events, asked } = harness
    assert.deepEqual(harness.connector.namespaces, ['eip155', 'solana'])
    await connected(harness)
    assert.equal(config.$account.get()?.address, ALICE)
    assert.equal(asked.length, 1)

    await open(config, { view: 'Networks' })
    await switchNetwork(config, { caipNetworkId: LOCAL })
    assert.equal(config.$activeNamespace.get(), 'solana')
    assert.deepEqual(config.$connections.get().solana, {
      status: 'connected',
      connectorId: DEMO_ID,
      accounts: [key(0)],
      chainId: LOCAL,
    })
    assert.equal(config.$connections.get().eip155?.status, 'connected', 'EVM stays connected')
    assert.equal(config.$account.get()?.address, key(0))
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: LOCAL, namespace: 'solana', supported: true },
    ])
    assert.equal(named(events, 'connect').at(-1)?.connector.id, DEMO_ID)
    assert.deepEqual(
      asked.map((prompt) => prompt.title),
      [`Connect to ${ORIGIN}`, `Connect to ${ORIGIN}`],
      'one prompt on each side',
    )
    assert.equal(config.$modal.get().open, true, 'the network switch kept the modal open')
    await balanceSettled(config)

    await switchNetwork(config, { caipNetworkId: 'eip155:31337' })
    assert.equal(config.$activeNamespace.get(), 'eip155')
    assert.equal(config.$account.get()?.address, ALICE)
    assert.deepEqual(named(events, 'network-change').at(-1), {
      chainId: 'eip155:31337',
      namespace: 'eip155',
      supported: true,
    })
    await switchNetwork(config, { caipNetworkId: LOCAL })
    assert.equal(config.$activeNamespace.get(), 'solana')
    assert.equal(asked.length, 2, 'switching between connected namespaces asks nothing')
    await balanceSettled(config)
  })

  test('behavior: switchNetwork to a second Solana network connects the merged wallet on that network', async () => {
    const harness = setup({ merged: true, networks: [DEVNET] })
    const { config, events } = harness
    await connected(harness)
    await switchNetwork(config, { caipNetworkId: DEVNET })
    assert.deepEqual(named(events, 'network-change'), [
      { chainId: DEVNET, namespace: 'solana', supported: true },
    ])
    assert.equal(config.$connections.get().solana?.chainId, DEVNET)
    assert.equal(config.$network.get()?.caipNetworkId, DEVNET, 'the page shows the network it was told')
    await balanceSettled(config)
  })

  test('behavior: a wallet-side change in the inactive namespace is reported for that namespace', async () => {
    const harness = setup({ merged: true })
    const { config, events, wallet } = harness
    await connected(harness)
    await switchNetwork(config, { caipNetworkId: LOCAL })
    await switchNetwork(config, { caipNetworkId: 'eip155:31337' })
    await balanceSettled(config)
    wallet.controls.switchAccount(1)
    assert.deepEqual(config.$connections.get().solana?.accounts, [key(1)])
    assert.equal(config.$account.get()?.address, ALICE, 'the EVM account is still the one shown')
    assert.deepEqual(named(events, 'account-change'), [
      { address: key(1), caipAddress: `${LOCAL}:${key(1)}`, namespace: 'solana' },
    ])
  })
})
