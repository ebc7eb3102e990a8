// The embedded wallet's Bitcoin account as the page sees it (GET_USER on a bip122 network): the frame's own keys.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import * as btc from '@scure/btc-signer'
import { requestChangedMessage } from '../../../src/frame/pageRequest.ts'
import type { ApprovalResponse } from '../../../src/protocol/embedded/index.ts'
import { codeIn, type EmbeddedTestApp, frameWallet, startEmbeddedTestApp } from './embedded-helpers.ts'
import { openTestDatabase, type TestDatabase } from './helpers.ts'

const REGTEST = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const MAINNET = 'bip122:000000000019d6689c085ae165831e93'

let testDb: TestDatabase
let t: EmbeddedTestApp
let base: string
before(async () => {
  testDb = await openTestDatabase('embedded_frame_bitcoin')
  t = await startEmbeddedTestApp(testDb, 'frame-bitcoin', {
    rpcUpstreams: { 'eip155:31337': 'http://127.0.0.1:9' },
    // Known networks; getAccountAddresses reads no node.
    bitcoinNodes: { [REGTEST]: 'http://127.0.0.1:9', [MAINNET]: 'http://127.0.0.1:9' },
  })
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
after(async () => {
  await t?.close()
  await testDb?.close()
})

let counter = 0
const freshEmail = () => `btc-frame${++counter}.${Date.now()}@example.com`

/** A frame signed in by e-mail against this file's service (the service's answers through `fetch`). */
async function signedIn(options: Parameters<typeof frameWallet>[2] = {}) {
  const email = freshEmail()
  const frame = frameWallet(t, base, options)
  await frame.ask('CONNECT_EMAIL', { email })
  const answer = await frame.ask('CONNECT_OTP', { otp: codeIn(t.mailTo(email)[0]) })
  assert.equal(answer.type, 'CONNECT_OTP_SUCCESS')
  return frame
}

type User = { address: string; accounts: { namespace: string; address: string; type: string }[] }

describe('the embedded wallet’s Bitcoin account, as the frame tells the page', () => {
  test('behavior: GET_USER on a Bitcoin network names its native segwit address, the one the service signs for', async () => {
    const frame = await signedIn()
    const evm = (await frame.ask('GET_USER', { chainId: 'eip155:31337' })).payload as User
    assert.deepEqual(
      evm.accounts.map((account) => account.namespace),
      ['eip155', 'solana'],
      'an EVM network does not name a Bitcoin address',
    )

    const regtest = (await frame.ask('GET_USER', { chainId: REGTEST })).payload as User
    const bitcoin = regtest.accounts.find((account) => account.namespace === 'bip122')
    assert.match(bitcoin?.address ?? '', /^bcrt1q[02-9ac-hj-np-z]{38}$/)
    assert.equal(regtest.address, bitcoin?.address)
    assert.equal(bitcoin?.type, 'eoa')
    // The same person's EVM and Solana accounts beside it.
    assert.deepEqual(regtest.accounts.slice(0, 2), evm.accounts)

    // The service learnt the same keys: the account it answers (and signs for) is the one shown.
    const listed = await frame.ask('RPC_REQUEST', { chainId: REGTEST, method: 'getAccountAddresses' })
    assert.equal(listed.type, 'RPC_REQUEST_SUCCESS', JSON.stringify(listed.payload))
    const [entry] = (listed.payload as { result: { address: string; path: string }[] }).result
    assert.equal(entry?.address, bitcoin?.address)
    assert.equal(entry?.path, "m/84'/1'/0'/0/0")

    // Mainnet: BIP-84 coin type 0, another key and a bc1 address.
    const mainnet = (await frame.ask('GET_USER', { chainId: MAINNET })).payload as User
    assert.match(mainnet.address, /^bc1q[02-9ac-hj-np-z]{38}$/)
    assert.notEqual(mainnet.address.slice(4), bitcoin?.address.slice(6))
  })

  test('attack: a service that answers other Bitcoin keys (its own) does not get its address shown: the frame refuses', async () => {
    // The service (or someone between it and the frame) names keys it holds, so that the page would show
    // its address to receive the person's payments.
    const attackerKey = Buffer.from(
      secp256k1.getPublicKey(secp256k1.utils.randomPrivateKey(), true),
    ).toString('hex')
    let swapped = false
    const frame = await signedIn({
      fetch: async (url, init) => {
        const response = await fetch(url, init)
        if (!new URL(String(url)).pathname.endsWith('/keys/bitcoin') || (init?.method ?? 'GET') !== 'GET')
          return response
        swapped = true
        return new Response(
          JSON.stringify({ publicKeys: { bitcoin: attackerKey, bitcoinTest: attackerKey } }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        )
      },
    })
    const answer = await frame.ask('GET_USER', { chainId: REGTEST })
    assert.ok(swapped, 'the frame asked the service for its Bitcoin keys')
    assert.equal(answer.type, 'GET_USER_ERROR')
    assert.deepEqual(answer.payload, {
      message: 'The keys the service sent do not open your accounts: nothing was changed.',
      code: 'KEYS_MISMATCH',
    })
    // Nor does a request on the network go through.
    const request = await frame.ask('RPC_REQUEST', { chainId: REGTEST, method: 'getAccountAddresses' })
    assert.equal(request.type, 'RPC_REQUEST_ERROR')
  })

  test('attack: the service plans another Bitcoin message, or another PSBT, than the page asked: nothing is signed', async () => {
    const regtestNetwork = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef }
    /** A PSBT paying `amount` satoshis from `from`'s coin (a made-up previous output) to `to`. */
    const psbtOf = (from: string, to: string, amount: bigint) => {
      const tx = new btc.Transaction()
      tx.addInput({
        txid: new Uint8Array(32).fill(7),
        index: 0,
        witnessUtxo: {
          script: btc.OutScript.encode(btc.Address(regtestNetwork).decode(from)),
          amount: 100_000n,
        },
      })
      tx.addOutputAddress(to, amount, regtestNetwork)
      return Buffer.from(tx.toPSBT()).toString('base64')
    }
    const stranger = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'
    let plan: ((created: ApprovalResponse, own: string) => void) | undefined
    let own = ''
    const asked: string[] = []
    const frame = await signedIn({
      fetch: async (url, init) => {
        asked.push(String(url))
        const response = await fetch(url, init)
        if (!plan || !/\/embedded\/v1\/requests\?/.test(String(url)) || response.status !== 200)
          return response
        const body = (await response.json()) as ApprovalResponse
        plan(body, own)
        return new Response(JSON.stringify(body), { status: 200, headers: response.headers })
      },
    })
    own = ((await frame.ask('GET_USER', { chainId: REGTEST })).payload as User).address
    const attacks: [string, string, unknown, (created: ApprovalResponse, own: string) => void][] = [
      [
        'another message',
        'signMessage',
        { address: own, message: 'Sign in to example.com' },
        (created) => {
          ;(created.signing.plan[0] as { message: string }).message =
            Buffer.from('Pay the attacker').toString('base64')
        },
      ],
      [
        'another PSBT',
        'signPsbt',
        { psbt: psbtOf(own, own, 90_000n), signInputs: [{ address: own, index: 0 }] },
        (created, mine) => {
          ;(created.signing.plan[0] as { psbt: string }).psbt = psbtOf(mine, stranger, 90_000n)
        },
      ],
    ]
    for (const [what, method, params, tamper] of attacks) {
      plan = tamper
      asked.length = 0
      const answer = await frame.ask('RPC_REQUEST', { chainId: REGTEST, method, params })
      assert.equal(answer.type, 'RPC_REQUEST_ERROR', what)
      assert.equal((answer.payload as { message: string }).message, requestChangedMessage, what)
      assert.ok(!asked.some((url) => /\/approve\?/.test(url)), `${what}: nothing was sent to approve`)
      assert.ok(
        asked.some((url) => /\/reject\?/.test(url)),
        `${what}: the request is rejected on the service`,
      )
    }
  })
})
