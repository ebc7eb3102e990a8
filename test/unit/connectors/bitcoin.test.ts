// Bitcoin browser wallets in node: the Demo Wallet's Bitcoin side through the Wallet Standard connector and
// through the WBIP004 connector, the `bip122` provider's methods (WalletConnect's names and shapes), and one
// row for a wallet that serves EVM, Solana and Bitcoin. The node is faked where a send needs one.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { Transaction } from '@scure/btc-signer'
import { createBitcoinWallet, registerWbipProvider } from '../../../demo/wallets/bitcoin-wallet.ts'
import { createDemoWallet } from '../../../demo/wallets/demo-wallet.ts'
import type { PromptRequest } from '../../../demo/wallets/prompt.ts'
import { devKey } from '../../../server/dev/bitcoin/keys.ts'
import { BITCOIN_NETWORK_IDS } from '../../../src/chains/bip122/networks.ts'
import { buildPaymentPsbt } from '../../../src/chains/bip122/psbt.ts'
import { wbipEntries } from '../../../src/connectors/bitcoin/index.ts'
import { createBitcoinStandardConnector } from '../../../src/connectors/bitcoin/standard.ts'
import { createWbipConnector } from '../../../src/connectors/bitcoin/wbip.ts'
import { createInjectedConnector } from '../../../src/connectors/injected/index.ts'
import {
  createWalletStandardConnector,
  mergeConnectors,
} from '../../../src/connectors/walletStandard/index.ts'
import { toBase64 } from '../../../src/protocol/base64.ts'
import { bitcoinMessageHash } from '../../../src/protocol/embedded/bitcoinSigner.ts'
import { demoSolana, eip1193, ICON, ORIGIN } from './walletStandard-helpers.ts'

const REGTEST = BITCOIN_NETWORK_IDS.regtest
const DEV0 = devKey(0).address
const TXID = /^[0-9a-f]{64}$/

function demoBitcoin(
  answer: (request: PromptRequest) => boolean = () => true,
  fetch?: typeof globalThis.fetch,
) {
  const prompts: PromptRequest[] = []
  const created = createBitcoinWallet({
    origin: ORIGIN,
    ask: async (request) => {
      prompts.push(request)
      return answer(request)
    },
    ...(fetch ? { fetch } : {}),
  })
  return { ...created, prompts }
}

/** A payment PSBT from dev key 0 over two made-up coins (nothing is broadcast). */
const payment = () =>
  buildPaymentPsbt({
    network: 'regtest',
    from: DEV0,
    to: devKey(3).address,
    amount: 1_000_000n,
    utxos: [{ txid: 'ab'.repeat(32), vout: 0, value: 5_000_000_000n }],
    feeRate: 2n,
  })

/** Whether a BIP-137 signature (base64, header 39 + recovery id) was made by the key of `publicKey`. */
function verifyBip137(message: string, signature: string, publicKey: Uint8Array): boolean {
  const bytes = Uint8Array.from(Buffer.from(signature, 'base64'))
  const recovered = secp256k1.Signature.fromCompact(bytes.slice(1))
    .addRecoveryBit((bytes[0] ?? 0) - 39)
    .recoverPublicKey(bitcoinMessageHash(new TextEncoder().encode(message)))
  return Buffer.from(recovered.toRawBytes(true)).equals(Buffer.from(publicKey))
}

/** A fake regtest node: the coins of dev key 0, the fee estimate, and a broadcast that records the hex. */
function fakeNode() {
  const broadcast: string[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 })
    if (url.includes('/coin/address/'))
      return json([{ hash: 'cd'.repeat(32), index: 1, value: 5_000_000_000, height: 5 }])
    if (url.includes('/fee?blocks=')) return json({ rate: 5000 })
    if (url.endsWith('/broadcast')) {
      broadcast.push(JSON.parse(String(init?.body)).tx)
      return json({ success: true })
    }
    return new Response('not found', { status: 404 })
  }) as typeof globalThis.fetch
  return { fetch, broadcast }
}

describe('Bitcoin Wallet Standard connector (the Demo Wallet)', () => {
  test('default: connect asks once and gives the bip122 account on regtest', async () => {
    const { wallet, prompts } = demoBitcoin()
    const connector = createBitcoinStandardConnector({ wallet })
    assert.deepEqual(connector.namespaces, ['bip122'])
    const state = await connector.connect({ namespace: 'bip122', chainId: REGTEST })
    assert.deepEqual(state, { namespace: 'bip122', accounts: [DEV0], chainId: REGTEST })
    assert.equal(prompts.length, 1)
    assert.equal(prompts[0]?.title, `Connect to ${ORIGIN}`)
    assert.deepEqual(await connector.reconnect({ namespace: 'bip122', chainId: REGTEST }), state)
  })

  test('behavior: getAccountAddresses, signMessage (BIP-137, verifiable) and signPsbt through the provider', async () => {
    const { wallet, prompts } = demoBitcoin()
    const connector = createBitcoinStandardConnector({ wallet })
    await connector.connect({ namespace: 'bip122', chainId: REGTEST })
    const provider = connector.getProvider('bip122')
    const [address] = (await provider.request({
      method: 'getAccountAddresses',
      params: { account: DEV0 },
    })) as { address: string; publicKey: string }[]
    assert.equal(address?.address, DEV0)
    assert.equal(address?.publicKey, Buffer.from(devKey(0).publicKey).toString('hex'))

    const signed = (await provider.request({
      method: 'signMessage',
      params: { account: DEV0, message: 'Hello Bitcoin' },
    })) as { address: string; signature: string }
    assert.equal(signed.address, DEV0)
    assert.ok(verifyBip137('Hello Bitcoin', signed.signature, devKey(0).publicKey))
    assert.equal(prompts.at(-1)?.title, 'Sign message')

    const built = payment()
    const result = (await provider.request({
      method: 'signPsbt',
      params: { account: DEV0, psbt: toBase64(built.psbt), signInputs: [{ address: DEV0, index: 0 }] },
    })) as { psbt: string; txid?: string }
    assert.equal(result.txid, undefined)
    const tx = Transaction.fromPSBT(Buffer.from(result.psbt, 'base64'))
    tx.finalize() // throws unless input 0 carries a signature
    assert.match(tx.id, TXID)
    assert.match(prompts.at(-1)?.details?.[0] ?? '', /^0\.01 BTC to bcrt1q/)
  })

  test('error: Reject is 4001; another account or a malformed PSBT never reaches the wallet', async () => {
    const { wallet } = demoBitcoin((request) => !request.title.startsWith('Sign'))
    const connector = createBitcoinStandardConnector({ wallet })
    await connector.connect({ namespace: 'bip122', chainId: REGTEST })
    const provider = connector.getProvider('bip122')
    await assert.rejects(
      provider.request({ method: 'signMessage', params: { account: DEV0, message: 'x' } }),
      {
        code: 4001,
      },
    )
    await assert.rejects(
      provider.request({ method: 'signMessage', params: { account: devKey(1).address, message: 'x' } }),
      { code: 4100 },
    )
    await assert.rejects(
      provider.request({
        method: 'signPsbt',
        params: { account: DEV0, psbt: 'not base64!', signInputs: [] },
      }),
      { code: -32602 },
    )
    await assert.rejects(provider.request({ method: 'sendTransfer', params: { account: DEV0 } }), {
      code: -32602,
    })
  })

  test('error: a wallet without an address on the network asked for is refused', async () => {
    const { wallet } = demoBitcoin()
    const connector = createBitcoinStandardConnector({ wallet })
    await assert.rejects(connector.connect({ namespace: 'bip122', chainId: BITCOIN_NETWORK_IDS.mainnet }), {
      code: 4100,
    })
  })
})

describe('Bitcoin WBIP004 connector (the Demo Wallet)', () => {
  test('default: found in window.wbip_providers, connects with getAddresses', async () => {
    const { provider, info, prompts } = demoBitcoin()
    const win = {} as Window
    registerWbipProvider(win, info, provider)
    const [entry, ...rest] = wbipEntries(win)
    assert.equal(rest.length, 0)
    assert.equal(entry?.info.name, 'Demo Wallet')
    assert.ok(entry)
    const connector = createWbipConnector(entry)
    assert.equal(connector.id, 'wbip:DemoWalletBitcoin')
    assert.deepEqual(await connector.connect({ namespace: 'bip122', chainId: REGTEST }), {
      namespace: 'bip122',
      accounts: [DEV0],
      chainId: REGTEST,
    })
    assert.equal(prompts.length, 1)
    assert.deepEqual(await connector.reconnect({ namespace: 'bip122', chainId: REGTEST }), {
      namespace: 'bip122',
      accounts: [DEV0],
      chainId: REGTEST,
    })
  })

  test('behavior: sendTransfer builds, signs and broadcasts a payment; signPsbt with broadcast answers the txid', async () => {
    const node = fakeNode()
    const { provider, info, prompts } = demoBitcoin(() => true, node.fetch)
    const connector = createWbipConnector({ info, provider })
    await connector.connect({ namespace: 'bip122', chainId: REGTEST })
    const bip122 = connector.getProvider('bip122')
    const to = devKey(2).address
    const { txid } = (await bip122.request({
      method: 'sendTransfer',
      params: { account: DEV0, recipientAddress: to, amount: '1000000' },
    })) as { txid: string }
    assert.match(txid, TXID)
    assert.equal(node.broadcast.length, 1)
    const sent = Transaction.fromRaw(Buffer.from(node.broadcast[0] ?? '', 'hex'))
    assert.equal(sent.id, txid)
    assert.equal(sent.getOutput(0).amount ?? sent.getOutput(1).amount, 1_000_000n)
    assert.equal(prompts.at(-1)?.title, 'Sign and send a transaction on Bitcoin Regtest')

    const built = payment()
    const answer = (await bip122.request({
      method: 'signPsbt',
      params: {
        account: DEV0,
        psbt: toBase64(built.psbt),
        signInputs: [{ address: DEV0, index: 0 }],
        broadcast: true,
      },
    })) as { psbt: string; txid: string }
    assert.match(answer.txid, TXID)
    assert.equal(node.broadcast.length, 2)
  })

  test('error: a Reject in the wallet is the 4001 error, a registry entry without its provider is skipped', async () => {
    const { provider, info } = demoBitcoin(() => false)
    const connector = createWbipConnector({ info, provider })
    await assert.rejects(connector.connect({ namespace: 'bip122', chainId: REGTEST }), { code: 4001 })
    const win = { wbip_providers: [{ id: 'Missing', name: 'Gone' }, 'junk'] } as unknown as Window
    assert.deepEqual(wbipEntries(win), [])
  })
})

describe('mergeConnectors with Bitcoin', () => {
  test('default: a wallet announcing EVM, Solana and Bitcoin under one name is one row with three namespaces', async () => {
    const evm = createDemoWallet({ origin: ORIGIN, autoApprove: true })
    const injected = createInjectedConnector({
      id: 'dev.wallet-elements.demo',
      name: 'Demo Wallet',
      icon: ICON,
      provider: eip1193(evm.provider),
    })
    const solana = createWalletStandardConnector({ wallet: demoSolana().wallet })
    const bitcoin = createBitcoinStandardConnector({ wallet: demoBitcoin().wallet })
    const merged = mergeConnectors([injected], [solana, bitcoin])
    assert.equal(merged.length, 1)
    assert.deepEqual(merged[0]?.namespaces, ['eip155', 'solana', 'bip122'])
    const state = await merged[0]?.connect({ namespace: 'bip122', chainId: REGTEST })
    assert.deepEqual(state?.accounts, [DEV0])
  })

  test('behavior: without an EVM side, the Solana and Bitcoin sides of one wallet are still one row', () => {
    const solana = createWalletStandardConnector({ wallet: demoSolana().wallet })
    const bitcoin = createBitcoinStandardConnector({ wallet: demoBitcoin().wallet })
    const merged = mergeConnectors([], [solana, bitcoin])
    assert.equal(merged.length, 1)
    assert.deepEqual(merged[0]?.namespaces, ['solana', 'bip122'])
  })
})
