// The Wallet Standard connector in node: the Demo Wallet's Solana side (prompts answered by a fake
// `ask`), plus hand-made minimal Wallet objects for the edge cases (mergeConnectors.test.ts merges it).
// No network: nothing here sends a transaction.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519.js'
import { PublicKey, SystemProgram, Transaction } from '@solana/web3.js'
import { devKeypair } from '../../../server/dev/solana/index.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import type { ConnectorEvent } from '../../../src/connectors/types.ts'
import {
  createWalletStandardConnector,
  isSolanaWallet,
} from '../../../src/connectors/walletStandard/index.ts'
import { decodeBase58, encodeBase58 } from '../../../src/protocol/siwx/base58.ts'
import {
  account,
  BASE58,
  connectFeature,
  DEVNET,
  demoSolana,
  KEY0,
  KEY1,
  MAINNET,
  minimalWallet,
  ORIGIN,
  requestOf,
  signTransactionFeature,
} from './walletStandard-helpers.ts'

describe('createWalletStandardConnector', () => {
  test('behavior: isSolanaWallet accepts the Demo Wallet and refuses EVM-only or connect-less wallets', () => {
    assert.equal(isSolanaWallet(demoSolana().wallet), true)
    const connect = connectFeature(async () => ({ accounts: [] }))
    assert.equal(
      isSolanaWallet(minimalWallet({ features: { ...connect, ...signTransactionFeature } })),
      true,
      'connect + a solana chain + signTransaction is enough',
    )
    assert.equal(
      isSolanaWallet(
        minimalWallet({ chains: ['eip155:1'], features: { ...connect, ...signTransactionFeature } }),
      ),
      false,
      'an EVM-only wallet',
    )
    assert.equal(
      isSolanaWallet(minimalWallet({ features: { ...signTransactionFeature } })),
      false,
      'no standard:connect',
    )
    assert.equal(isSolanaWallet(minimalWallet({ features: { ...connect } })), false, 'cannot sign')
  })

  test('default: connect returns the base58 account and the requested chain', async () => {
    const { wallet, prompts } = demoSolana()
    const connector = createWalletStandardConnector({ wallet })
    assert.equal(connector.id, 'walletStandard:Demo Wallet')
    assert.equal(connector.name, 'Demo Wallet')
    assert.equal(connector.type, 'walletStandard')
    assert.deepEqual(connector.namespaces, ['solana'])
    const state = await connector.connect({ namespace: 'solana', chainId: DEVNET })
    assert.deepEqual(state, { namespace: 'solana', accounts: [KEY0], chainId: DEVNET })
    assert.match(state.accounts[0] ?? '', BASE58)
    assert.equal(prompts.length, 1)
    assert.equal(prompts[0]?.title, `Connect to ${ORIGIN}`)
  })

  test('behavior: connect with an eip155 chain id falls back to the wallet’s first solana chain', async () => {
    const connector = createWalletStandardConnector({ wallet: demoSolana().wallet })
    const state = await connector.connect({ namespace: 'solana', chainId: 'eip155:1' })
    assert.deepEqual(state, { namespace: 'solana', accounts: [KEY0], chainId: MAINNET })

    const wallet = minimalWallet({
      chains: ['eip155:1', DEVNET],
      features: connectFeature(async () => ({
        accounts: [account('0xabc', ['eip155:1']), account(KEY1, [DEVNET])],
      })),
    })
    const other = await createWalletStandardConnector({ wallet }).connect({ namespace: 'solana' })
    assert.deepEqual(
      other,
      { namespace: 'solana', accounts: [KEY1], chainId: DEVNET },
      'EVM accounts left out',
    )
  })

  test('error: accounts that are not base58 Solana addresses are dropped, and none left is an error', async () => {
    const bad = [
      account('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', [MAINNET]),
      account('0OIl'.repeat(9), [MAINNET]),
    ]
    const wallet = minimalWallet({
      accounts: bad,
      features: { ...connectFeature(async () => ({ accounts: bad })), ...signTransactionFeature },
    })
    const connector = createWalletStandardConnector({ wallet })
    await assert.rejects(connector.connect({ namespace: 'solana' }), /returned no accounts/)
    const mixed = [...bad, account(KEY0, [MAINNET])]
    const good = createWalletStandardConnector({
      wallet: minimalWallet({
        accounts: mixed,
        features: { ...connectFeature(async () => ({ accounts: mixed })), ...signTransactionFeature },
      }),
    })
    assert.deepEqual((await good.connect({ namespace: 'solana' })).accounts, [KEY0])
  })

  test('error: connect rejected in the wallet is UserRejectedRequestError 4001', async () => {
    const connector = createWalletStandardConnector({ wallet: demoSolana(() => false).wallet })
    await assert.rejects(connector.connect({ namespace: 'solana', chainId: LOCAL_SOLANA_NETWORK_ID }), {
      name: 'UserRejectedRequestError',
      code: 4001,
    })
  })

  test('error: a connect that never settles times out', async () => {
    const wallet = minimalWallet({
      features: { ...connectFeature(() => new Promise(() => {})), ...signTransactionFeature },
    })
    const connector = createWalletStandardConnector({ wallet, timeoutMs: 50 })
    await assert.rejects(connector.connect({ namespace: 'solana' }), {
      name: 'RequestTimeoutError',
      shortMessage: 'Request timed out',
    })
    await assert.rejects(connector.reconnect({ namespace: 'solana' }), { shortMessage: 'Request timed out' })
  })

  test('behavior: silent reconnect is undefined until authorised, then the state, without a prompt', async () => {
    const { wallet, prompts } = demoSolana()
    const connector = createWalletStandardConnector({ wallet })
    assert.equal(
      await connector.reconnect({ namespace: 'solana', chainId: LOCAL_SOLANA_NETWORK_ID }),
      undefined,
    )
    assert.equal(prompts.length, 0, 'a silent connect shows no prompt')

    await connector.connect({ namespace: 'solana', chainId: LOCAL_SOLANA_NETWORK_ID })
    const again = createWalletStandardConnector({ wallet })
    assert.deepEqual(await again.reconnect({ namespace: 'solana', chainId: LOCAL_SOLANA_NETWORK_ID }), {
      namespace: 'solana',
      accounts: [KEY0],
      chainId: LOCAL_SOLANA_NETWORK_ID,
    })
    assert.equal(prompts.length, 1, 'only the first connect prompted')
  })

  test('behavior: subscribe emits accountsChanged on an account switch and [] on disconnect', async () => {
    const { wallet, controls } = demoSolana()
    const connector = createWalletStandardConnector({ wallet })
    await connector.connect({ namespace: 'solana' })
    const events: ConnectorEvent[] = []
    const stop = connector.subscribe((event) => events.push(event))
    controls.switchAccount(1)
    controls.disconnect()
    assert.deepEqual(events, [
      { type: 'accountsChanged', namespace: 'solana', accounts: [KEY1] },
      { type: 'accountsChanged', namespace: 'solana', accounts: [] },
    ])

    await connector.connect({ namespace: 'solana' })
    events.length = 0
    await connector.disconnect({ namespace: 'solana' })
    assert.equal(controls.authorized, false, 'disconnect reached the wallet')
    assert.deepEqual(events, [{ type: 'accountsChanged', namespace: 'solana', accounts: [] }])

    stop()
    await connector.connect({ namespace: 'solana' })
    controls.switchAccount(0)
    assert.equal(events.length, 1, 'nothing after unsubscribe')
  })

  test('behavior: solana_signMessage returns a base58 ed25519 signature that verifies', async () => {
    const { wallet, prompts } = demoSolana()
    const connector = createWalletStandardConnector({ wallet })
    await connector.connect({ namespace: 'solana' })
    const message = new TextEncoder().encode('Sign in to wallet-elements')
    const answer = (await requestOf(connector)({
      method: 'solana_signMessage',
      params: { message: encodeBase58(message), pubkey: KEY0 },
    })) as { signature: string }
    assert.match(answer.signature, /^[1-9A-HJ-NP-Za-km-z]+$/)
    const signature = decodeBase58(answer.signature)
    assert.equal(signature?.length, 64)
    assert.equal(ed25519.verify(signature!, message, devKeypair(0).publicKey.toBytes()), true)
    assert.equal(prompts.at(-1)?.title, 'Sign message')
    assert.equal(prompts.at(-1)?.details?.[0], 'Sign in to wallet-elements')
  })

  test('behavior: solana_signTransaction returns the transaction signed by the account', async () => {
    const connector = createWalletStandardConnector({ wallet: demoSolana().wallet })
    await connector.connect({ namespace: 'solana', chainId: LOCAL_SOLANA_NETWORK_ID })
    const payer = new PublicKey(KEY0)
    const transaction = new Transaction({ feePayer: payer, recentBlockhash: KEY1 }).add(
      SystemProgram.transfer({ fromPubkey: payer, toPubkey: new PublicKey(KEY1), lamports: 1_000 }),
    )
    const unsigned = transaction.serialize({ requireAllSignatures: false, verifySignatures: false })
    const answer = (await requestOf(connector)({
      method: 'solana_signTransaction',
      params: { transaction: unsigned.toString('base64') },
    })) as { transaction: string }
    const signed = Transaction.from(Buffer.from(answer.transaction, 'base64'))
    assert.equal(signed.feePayer?.toBase58(), KEY0)
    assert.equal(signed.verifySignatures(), true)
  })

  test('error: an unknown method is 4200, bad params are -32602, an unknown account 4100', async () => {
    const connector = createWalletStandardConnector({ wallet: demoSolana().wallet })
    await connector.connect({ namespace: 'solana' })
    const request = requestOf(connector)
    await assert.rejects(request({ method: 'eth_chainId' }), { code: 4200 })
    await assert.rejects(request({ method: 'solana_signMessage', params: { message: 42 } }), { code: -32602 })
    await assert.rejects(request({ method: 'solana_signMessage', params: { message: '0OIl' } }), {
      code: -32602,
    })
    await assert.rejects(request({ method: 'solana_signTransaction', params: {} }), { code: -32602 })
    await assert.rejects(request({ method: 'solana_signAndSendTransaction' }), { code: -32602 })
    await assert.rejects(
      request({
        method: 'solana_signMessage',
        params: { message: encodeBase58(new Uint8Array([1])), pubkey: KEY1 },
      }),
      { code: 4100 },
      'an account the wallet did not authorise',
    )
  })

  test('error: a method the wallet lacks is 4200', async () => {
    const wallet = minimalWallet({
      accounts: [account(KEY0, [MAINNET])],
      features: { ...connectFeature(async () => ({ accounts: [] })), ...signTransactionFeature },
    })
    const request = requestOf(createWalletStandardConnector({ wallet }))
    await assert.rejects(
      request({ method: 'solana_signMessage', params: { message: encodeBase58(new Uint8Array([1])) } }),
      {
        code: 4200,
      },
    )
  })

  test('error: a rejected signature is UserRejectedRequestError 4001', async () => {
    const { wallet } = demoSolana((request) => request.title.startsWith('Connect'))
    const connector = createWalletStandardConnector({ wallet })
    await connector.connect({ namespace: 'solana' })
    await assert.rejects(
      requestOf(connector)({
        method: 'solana_signMessage',
        params: { message: encodeBase58(new TextEncoder().encode('hello')) },
      }),
      { name: 'UserRejectedRequestError', code: 4001 },
    )
  })
})
