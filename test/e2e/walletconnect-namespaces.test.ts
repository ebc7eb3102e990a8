import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ed25519 } from '@noble/curves/ed25519'
import { secp256k1 } from '@noble/curves/secp256k1'
import { ripemd160 } from '@noble/hashes/legacy'
import { sha256 } from '@noble/hashes/sha2'
import { concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils'
import { base58, base64, bech32 } from '@scure/base'
import * as btc from '@scure/btc-signer'
import type { Browser, Page } from 'playwright-core'
import { devKey, REGTEST_NETWORK } from '../../server/dev/bitcoin/keys.ts'
import { readFeeRates, readUtxos } from '../../src/chains/bip122/node.ts'
import { buildPaymentPsbt } from '../../src/chains/bip122/psbt.ts'
import {
  launchBrowser,
  newContext,
  openPhoneWallet,
  startGenericPairing,
  startTestStack,
  type TestStack,
} from './harness.ts'
import { REGTEST, regtestNode } from './regtest-node.ts'

/**
 * WalletConnect beyond EVM and Solana: the demo phone wallet approves the
 * polkadot and cosmos namespaces a site lists, Account shows those accounts, and getProvider passes
 * their methods to the wallet, whose signatures verify here with keys read from the answers; a
 * bip122 session answers getAccountAddresses and signMessage (BIP-137) alike, and pays on the local
 * regtest node: a PSBT built here and signed by the wallet, sendTransfer, and a payment it refuses.
 */
const POLKADOT = 'polkadot:91b171bb158e2d3848fa23a9f1c25182'
const COSMOS = 'cosmos:cosmoshub-4'

type Caip10 = `${string}:${string}:${string}`
const addressIn = (accounts: string[], chain: string) =>
  (accounts.find((account) => account.startsWith(`${chain}:`)) as Caip10 | undefined)?.split(':')[2]

describe('WalletConnect sessions with the polkadot, cosmos and bip122 namespaces', {
  timeout: 240_000,
}, () => {
  let stack: TestStack
  let browser: Browser

  before(async () => {
    ;[stack, browser] = await Promise.all([startTestStack({ bitcoin: true }), launchBrowser()])
  })
  after(async () => {
    await browser?.close()
    await stack?.stop()
  })

  /** A site listing `networks`, paired with the phone wallet (approving by itself); the session's accounts. */
  const connect = async (networks: string) => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    await page.evaluate(
      (list) => document.querySelector('wallet-modal')?.setAttribute('networks', list),
      networks,
    )
    const uri = await startGenericPairing(page)
    const phone = await openPhoneWallet(context, stack.urls.demo, uri)
    await phone.waitForFunction(() => window.phoneWallet !== undefined)
    await phone.evaluate(() => window.phoneWallet?.autoApprove(true))
    await phone.waitForFunction(() => (window.phoneWallet?.sessions().length ?? 0) > 0)
    const accounts = await phone.evaluate(() => window.phoneWallet?.sessions()[0]?.accounts ?? [])
    await page.locator('wallet-modal').getByRole('dialog').waitFor({ state: 'hidden' })
    return { context, page, accounts }
  }
  const request = (page: Page, namespace: string, method: string, params: unknown) =>
    page.evaluate(
      ([ns, m, p]) => {
        const modal = document.querySelector('wallet-modal')
        if (!modal) throw new Error('no <wallet-modal>')
        // Typed for polkadot and cosmos; bip122's public typing comes with the Bitcoin providers.
        return modal.getProvider(ns as 'cosmos').request({ method: m, params: p })
      },
      [namespace, method, params] as const,
    )

  it('polkadot + cosmos: Account shows both accounts; cosmos_signDirect and polkadot_signMessage verify', async () => {
    const { context, page, accounts } = await connect(`eip155:31337,${POLKADOT},${COSMOS}`)
    const dot = addressIn(accounts, POLKADOT)
    const atom = addressIn(accounts, COSMOS)
    assert.ok(dot && atom, `the wallet approved both namespaces: ${accounts.join(', ')}`)

    // Account: the EVM account shown, the other two listed with their networks' names.
    await page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .click()
    const modal = page.locator('wallet-modal').getByRole('dialog')
    const others = modal.getByRole('region', { name: 'Other accounts' })
    await others.waitFor()
    const dotRow = others.getByRole('listitem').filter({ hasText: 'Polkadot' })
    const atomRow = others.getByRole('listitem').filter({ hasText: 'Cosmos Hub' })
    assert.equal(await dotRow.locator('[data-address]').getAttribute('data-address'), dot)
    assert.equal(await atomRow.locator('[data-address]').getAttribute('data-address'), atom)
    assert.equal(
      await atomRow.locator('[data-address]').textContent(),
      `${atom.slice(0, 6)}…${atom.slice(-4)}`,
    )

    // cosmos: the account's public key, its address derived from it, and a SignDoc signed with it.
    const [account] = (await request(page, 'cosmos', 'cosmos_getAccounts', {})) as {
      algo: string
      address: string
      pubkey: string
    }[]
    assert.equal(account?.algo, 'secp256k1')
    assert.equal(account?.address, atom)
    const publicKey = base64.decode(account.pubkey)
    assert.equal(bech32.encode('cosmos', bech32.toWords(ripemd160(sha256(publicKey)))), atom)
    const bodyBytes = utf8ToBytes('a transfer body')
    const authInfoBytes = utf8ToBytes('fee and signer info')
    const signed = (await request(page, 'cosmos', 'cosmos_signDirect', {
      signerAddress: atom,
      signDoc: {
        chainId: 'cosmoshub-4',
        accountNumber: '300',
        bodyBytes: base64.encode(bodyBytes),
        authInfoBytes: base64.encode(authInfoBytes),
      },
    })) as { signature: { pub_key: { value: string }; signature: string } }
    assert.equal(signed.signature.pub_key.value, account.pubkey)
    // The SignDoc's protobuf, written out here: fields 1-3 length-delimited, 4 a varint (300 = 0xac 0x02).
    const field = (tag: number, bytes: Uint8Array) => concatBytes(Uint8Array.of(tag, bytes.length), bytes)
    const signDoc = concatBytes(
      field(0x0a, bodyBytes),
      field(0x12, authInfoBytes),
      field(0x1a, utf8ToBytes('cosmoshub-4')),
      Uint8Array.of(0x20, 0xac, 0x02),
    )
    assert.ok(
      secp256k1.verify(base64.decode(signed.signature.signature), sha256(signDoc), publicKey),
      'the cosmos signature verifies over the SignDoc',
    )

    // polkadot: the public key is inside the SS58 address; the signature is MultiSignature (0x00 ed25519).
    const message = 'Sign in to wallet-elements'
    const { signature } = (await request(page, 'polkadot', 'polkadot_signMessage', {
      address: dot,
      message,
    })) as { signature: string }
    assert.match(signature, /^0x00[0-9a-f]{128}$/)
    const dotKey = base58.decode(dot).slice(1, 33)
    const wrapped = utf8ToBytes(`<Bytes>${message}</Bytes>`)
    assert.ok(
      ed25519.verify(hexToBytes(signature.slice(4)), wrapped, dotKey),
      'the polkadot signature verifies',
    )

    // A method the namespace does not have is refused without asking the wallet.
    await assert.rejects(
      request(page, 'cosmos', 'cosmos_sendTokens', {}),
      /does not support cosmos_sendTokens/,
    )
    await context.close()
  })

  it('bip122: getAccountAddresses gives the regtest account; its BIP-137 message signature verifies', async () => {
    const { context, page, accounts } = await connect(`eip155:31337,${REGTEST}`)
    const address = addressIn(accounts, REGTEST)
    assert.ok(address?.startsWith('bcrt1q'), `a regtest native segwit account: ${accounts.join(', ')}`)

    const [entry] = (await request(page, 'bip122', 'getAccountAddresses', { account: address })) as {
      address: string
      publicKey: string
    }[]
    assert.ok(entry, 'one address entry')
    assert.equal(entry.address, address)
    const publicKey = hexToBytes(entry.publicKey)
    assert.equal(
      btc.p2wpkh(publicKey, REGTEST_NETWORK).address,
      address,
      'the address is the public key’s P2WPKH',
    )

    const message = 'Hello from wallet-elements'
    const answer = (await request(page, 'bip122', 'signMessage', { account: address, message })) as {
      address: string
      signature: string
    }
    assert.equal(answer.address, address)
    const bytes = base64.decode(answer.signature)
    assert.ok((bytes[0] ?? 0) >= 39 && (bytes[0] ?? 0) <= 42, `BIP-137 P2WPKH header, got ${bytes[0]}`)
    const prefix = utf8ToBytes('Bitcoin Signed Message:\n')
    const body = utf8ToBytes(message)
    const hash = sha256(
      sha256(concatBytes(Uint8Array.of(prefix.length), prefix, Uint8Array.of(body.length), body)),
    )
    const recovered = secp256k1.Signature.fromCompact(bytes.slice(1))
      .addRecoveryBit((bytes[0] ?? 0) - 39)
      .recoverPublicKey(hash)
      .toRawBytes(true)
    assert.deepEqual(recovered, publicKey, 'the signature recovers the account’s key')
    await context.close()
  })
  const { read: node, balance, mine, freshAddress } = regtestNode(() => stack.urls.bitcoin)

  it('bip122: the wallet signs a PSBT built here from its coins; finalized here, the node takes it', async () => {
    const { context, page, accounts } = await connect(`eip155:31337,${REGTEST}`)
    const address = addressIn(accounts, REGTEST) ?? ''
    // The phone wallet's account is the node's dev address 0, funded at start.
    assert.equal(address, devKey(0).address)
    const [utxos, rates] = await Promise.all([
      readUtxos(fetch, stack.urls.bitcoin, 'regtest', address),
      readFeeRates(fetch, stack.urls.bitcoin, 'regtest'),
    ])
    assert.ok(utxos.length > 0, 'the account has coins on the node')
    const receiver = freshAddress()
    const built = buildPaymentPsbt({
      network: 'regtest',
      from: address,
      to: receiver,
      amount: 250_000n,
      utxos,
      feeRate: rates.normal,
    })

    const answer = (await request(page, 'bip122', 'signPsbt', {
      account: address,
      psbt: base64.encode(built.psbt),
      signInputs: built.inputs.map((index) => ({ address, index })),
    })) as { psbt: string; txid?: string }
    assert.equal(answer.txid, undefined, 'not broadcast when not asked')
    const tx = btc.Transaction.fromPSBT(base64.decode(answer.psbt))
    tx.finalize()
    await node('/broadcast', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: tx.hex }),
    })
    assert.ok((await node<string[]>('/mempool')).includes(tx.id), 'the node keeps it in its mempool')
    assert.equal((await balance(receiver)).pending, 250_000)

    // The same PSBT's input signed for another address is refused, not signed.
    await assert.rejects(
      request(page, 'bip122', 'signPsbt', {
        account: address,
        psbt: base64.encode(built.psbt),
        signInputs: [{ address: receiver, index: 0 }],
      }),
      /is not this wallet's address/,
    )
    await context.close()
  })

  it('bip122: sendTransfer pays 0.01 BTC from the wallet; the node has it in its mempool, then in a block', async () => {
    const { context, page, accounts } = await connect(`eip155:31337,${REGTEST}`)
    const address = addressIn(accounts, REGTEST) ?? ''
    const receiver = freshAddress()
    const { txid } = (await request(page, 'bip122', 'sendTransfer', {
      account: address,
      recipientAddress: receiver,
      amount: '1000000',
    })) as { txid: string }
    assert.match(txid, /^[0-9a-f]{64}$/)
    assert.ok((await node<string[]>('/mempool')).includes(txid), 'the payment waits in the mempool')
    assert.deepEqual(await balance(receiver), {
      address: receiver,
      confirmed: 0,
      pending: 1_000_000,
      total: 1_000_000,
    })

    await mine()
    assert.deepEqual(await balance(receiver), {
      address: receiver,
      confirmed: 1_000_000,
      pending: 0,
      total: 1_000_000,
    })
    assert.ok((await node<{ confirmations: number }>(`/tx/${txid}`)).confirmations >= 1)
    await context.close()
  })

  it('bip122: sendTransfer beyond the balance, to a mainnet address or of a non-numeric amount is refused to the page', async () => {
    const { context, page, accounts } = await connect(`eip155:31337,${REGTEST}`)
    const address = addressIn(accounts, REGTEST) ?? ''
    const before = await balance(address)
    const mempool = await node<string[]>('/mempool')
    const receiver = freshAddress()
    const send = (params: Record<string, unknown>) =>
      request(page, 'bip122', 'sendTransfer', { account: address, recipientAddress: receiver, ...params })

    // 1,000 BTC: far more than the 100 BTC the account was funded with.
    await assert.rejects(send({ amount: '100000000000' }), /Insufficient balance/)
    await assert.rejects(
      send({ recipientAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '1000' }),
      /not a Bitcoin regtest address/,
    )
    await assert.rejects(send({ amount: '0.01' }), /whole number of satoshis/)
    // Nothing was sent, and the session still answers.
    assert.deepEqual(await node<string[]>('/mempool'), mempool)
    assert.deepEqual(await balance(address), before)
    const [entry] = (await request(page, 'bip122', 'getAccountAddresses', { account: address })) as {
      address: string
    }[]
    assert.equal(entry?.address, address)
    await context.close()
  })
  it("bip122: the modal's Send BTC pays over the WalletConnect session (signPsbt with broadcast)", async () => {
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(new URL('/?demoWallet=off', stack.urls.demo).href)
    // The site lists regtest with this run's node; the session's bip122 account comes beside the EVM one.
    await page.evaluate(
      ({ id, url }) => {
        const modal = document.querySelector('wallet-modal')
        if (!modal) throw new Error('no <wallet-modal>')
        modal.config = { networks: ['eip155:31337', id], rpcUrls: { [id]: url } }
      },
      { id: REGTEST, url: stack.urls.bitcoin },
    )
    const uri = await startGenericPairing(page)
    const phone = await openPhoneWallet(context, stack.urls.demo, uri)
    await phone.waitForFunction(() => window.phoneWallet !== undefined)
    await phone.evaluate(() => window.phoneWallet?.autoApprove(true))
    const modal = page.locator('wallet-modal').getByRole('dialog')
    await modal.waitFor({ state: 'hidden' })
    // Local Bitcoin chosen: the Bitcoin account of the same session is shown, with no new pairing.
    await page.evaluate((id) => document.querySelector('wallet-modal')?.switchNetwork(id), REGTEST)
    const address = devKey(0).address
    const account = page
      .locator('wallet-button')
      .getByRole('button', { name: /, Account$/ })
      .filter({ hasText: `${address.slice(0, 6)}…${address.slice(-4)}` })
    await account.waitFor()
    assert.equal(await phone.evaluate(() => window.phoneWallet?.sessions().length), 1)

    const receiver = freshAddress()
    await account.click()
    await modal.getByRole('button', { name: 'Send' }).click()
    await modal.getByLabel('Amount').fill('0.01')
    await modal.getByLabel('Receiver address').fill(receiver)
    await modal.getByRole('button', { name: 'Send' }).click()
    await modal
      .getByRole('status')
      .getByText(`Sent 0.01 BTC to ${receiver.slice(0, 6)}…${receiver.slice(-4)}`)
      .waitFor()
    const txid = await page.evaluate(
      () => document.querySelector('wallet-modal')?.walletConfig.$send.get().hash,
    )
    assert.match(txid ?? '', /^[0-9a-f]{64}$/)
    assert.ok((await node<string[]>('/mempool')).includes(txid ?? ''), 'the payment waits in the mempool')
    assert.equal((await balance(receiver)).pending, 1_000_000)
    await context.close()
  })
})
