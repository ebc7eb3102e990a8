/**
 * The public Bitcoin networks' node API, Esplora's REST API (mempool.space, blockstream.info), served by
 * a small fake on 127.0.0.1 with the real paths and JSON shapes: the modal's reads (balance, coins, fee
 * rates, broadcast; src/chains/bip122/node.ts) and the service's history (server/history/bitcoin.ts),
 * and what a malformed answer does to each.
 */
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach, describe, test } from 'node:test'
import { bitcoinTransactionsPage } from '../../../server/history/bitcoin.ts'
import {
  broadcastTransaction,
  readBitcoinBalance,
  readFeeRates,
  readUtxos,
} from '../../../src/chains/bip122/node.ts'
import { BITCOIN_NETWORKS } from '../../../src/protocol/bitcoinNetworks.ts'

const MAINNET = BITCOIN_NETWORKS.mainnet.caipNetworkId
const ALICE = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l'
const BOB = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
const CAROL = 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh'
const txid = (digit: string) => digit.repeat(64)

const stats = (funded: number, spent: number, txs: number) => ({
  funded_txo_count: txs,
  funded_txo_sum: funded,
  spent_txo_count: spent > 0 ? 1 : 0,
  spent_txo_sum: spent,
  tx_count: txs,
})
const confirmed = (height: number) => ({
  confirmed: true,
  block_height: height,
  block_hash: '0'.repeat(64),
  block_time: 1_700_000_000 + height * 600,
})
const output = (address: string, value: number) => ({
  scriptpubkey: '0014…',
  scriptpubkey_asm: 'OP_0 OP_PUSHBYTES_20 …',
  scriptpubkey_type: 'v0_p2wpkh',
  scriptpubkey_address: address,
  value,
})
const input = (prevout: ReturnType<typeof output> | null) => ({
  txid: txid('9'),
  vout: 0,
  prevout,
  scriptsig: '',
  scriptsig_asm: '',
  witness: [],
  is_coinbase: prevout === null,
  sequence: 4294967293,
})
const transaction = (id: string, height: number, vin: unknown[], vout: unknown[]) => ({
  txid: id,
  version: 2,
  locktime: 0,
  vin,
  vout,
  size: 222,
  weight: 561,
  fee: 1_000,
  status: confirmed(height),
})

/** Alice's confirmed history, newest first: she pays Bob, Carol paid her, a coinbase paid her. */
const HISTORY = [
  transaction(txid('a'), 300, [input(output(ALICE, 100_000))], [output(BOB, 30_000), output(ALICE, 69_000)]),
  transaction(
    txid('b'),
    200,
    [input(output(CAROL, 250_000))],
    [output(ALICE, 100_000), output(CAROL, 149_000)],
  ),
  transaction(txid('c'), 100, [input(null)], [output(ALICE, 5_000_000_000)]),
]

/** What the fake answers: Esplora's real shapes, or malformed ones. */
let malformed = false
/** Raw transactions POSTed to `/tx`. */
const posted: string[] = []

function answer(
  method: string,
  path: string,
  body: string,
): { status: number; json?: unknown; text?: string } {
  const address = /^\/api\/address\/([^/]+)(\/.*)?$/.exec(path)
  if (method === 'POST' && path === '/api/tx') {
    posted.push(body)
    if (!/^[0-9a-f]+$/.test(body))
      return { status: 400, text: 'sendrawtransaction RPC error: {"code":-22,"message":"TX decode failed"}' }
    return { status: 200, text: txid('d') }
  }
  if (method === 'GET' && path === '/api/fee-estimates')
    return malformed
      ? { status: 200, json: { '1': 'fast' } }
      : { status: 200, json: { '1': 20.5, '2': 15, '3': 12.2, '6': 4.01, '144': 0.5, '1008': 0.3 } }
  if (method === 'GET' && address) {
    const [, who, rest = ''] = address
    if (decodeURIComponent(who ?? '') !== ALICE) return { status: 200, json: [] }
    if (rest === '')
      return malformed
        ? { status: 200, json: { address: ALICE, chain_stats: stats(5_100_100_000, 100_000, 3) } }
        : {
            status: 200,
            json: {
              address: ALICE,
              chain_stats: stats(5_100_169_000, 100_000, 3),
              mempool_stats: stats(0, 69_000, 1),
            },
          }
    if (rest === '/utxo')
      return {
        status: 200,
        json: [
          { txid: txid('a'), vout: 1, status: confirmed(300), value: malformed ? '69000 sats' : 69_000 },
          { txid: txid('c'), vout: 0, status: { confirmed: false }, value: 5_000_000_000 },
        ],
      }
    if (rest === '/txs/chain')
      return malformed ? { status: 200, json: { txs: HISTORY } } : { status: 200, json: HISTORY }
    // Esplora's next page: the confirmed transactions after the last one seen.
    const after = /^\/txs\/chain\/([0-9a-f]{64})$/.exec(rest)?.[1]
    if (after) return { status: 200, json: HISTORY.slice(HISTORY.findIndex((tx) => tx.txid === after) + 1) }
  }
  return { status: 404, text: 'Not Found' }
}

let server: Server
let url: string

before(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      const { status, json, text } = answer(request.method ?? 'GET', request.url ?? '/', body)
      response.writeHead(status, { 'content-type': json === undefined ? 'text/plain' : 'application/json' })
      response.end(json === undefined ? text : JSON.stringify(json))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`
})

after(() => new Promise<void>((resolve) => server.close(() => resolve())))

beforeEach(() => {
  malformed = false
  posted.length = 0
})

describe('the modal reads a public network through Esplora', () => {
  test('the balance is the confirmed sum and the mempool change, which is negative while spending', async () => {
    assert.deepEqual(await readBitcoinBalance(fetch, url, 'mainnet', ALICE), {
      confirmed: 5_100_069_000n,
      pending: -69_000n,
    })
  })

  test('coins are every unspent output, the mempool ones included', async () => {
    assert.deepEqual(await readUtxos(fetch, url, 'mainnet', ALICE), [
      { txid: txid('a'), vout: 1, value: 69_000n },
      { txid: txid('c'), vout: 0, value: 5_000_000_000n },
    ])
    assert.deepEqual(await readUtxos(fetch, url, 'mainnet', CAROL), [])
  })

  test('fee rates read the 6, 3 and 1 block targets, rounded up to whole sats per vbyte', async () => {
    assert.deepEqual(await readFeeRates(fetch, url, 'mainnet'), { slow: 5n, normal: 13n, fast: 21n })
  })

  test('a broadcast POSTs the raw hex to /tx; a refusal carries the node words', async () => {
    assert.equal(await broadcastTransaction(fetch, url, 'mainnet', '0200abcd', txid('d')), txid('d'))
    assert.deepEqual(posted, ['0200abcd'])
    await assert.rejects(broadcastTransaction(fetch, url, 'mainnet', 'not hex', txid('d')), {
      message: /^The node refused the transaction: sendrawtransaction RPC error: .*TX decode failed/,
    })
  })

  test('error: a malformed answer is a clear error naming the request and the field, not a crash', async () => {
    malformed = true
    await assert.rejects(readUtxos(fetch, url, 'mainnet', ALICE), {
      name: 'Error',
      message: `${url.slice(0, -1)}/address/${ALICE}/utxo: malformed answer at 0.value (expected number)`,
    })
    await assert.rejects(readFeeRates(fetch, url, 'mainnet'), {
      name: 'Error',
      message: `${url.slice(0, -1)}/fee-estimates: malformed answer at 1 (expected number)`,
    })
    await assert.rejects(readBitcoinBalance(fetch, url, 'mainnet', ALICE), {
      name: 'Error',
      message: `${url.slice(0, -1)}/address/${ALICE}: malformed answer at mempool_stats (expected object)`,
    })
  })

  test('error: an answer that is not JSON, or an HTTP error, says so', async () => {
    await assert.rejects(readFeeRates(fetch, `${url}nowhere`, 'mainnet'), {
      name: 'Error',
      message: `${url}nowhere/fee-estimates: HTTP 404`,
    })
    const html: typeof fetch = async () => new Response('<html>Bad gateway</html>', { status: 200 })
    await assert.rejects(readUtxos(html, url, 'mainnet', ALICE), {
      name: 'Error',
      message: `${url.slice(0, -1)}/address/${ALICE}/utxo: the node answered something other than JSON`,
    })
  })
})

describe('the service reads a public network history through Esplora', () => {
  const query = (search: { cursor?: string; limit?: string } = {}) => ({
    chainId: MAINNET,
    account: ALICE,
    ...search,
  })

  test('each transaction is one BTC transfer seen from the account, newest first', async () => {
    const { data, next } = await bitcoinTransactionsPage(url, query(), 5_000)
    assert.equal(next, null)
    assert.deepEqual(
      data.map((tx) => [
        tx.metadata.hash,
        tx.metadata.blockNumber,
        tx.metadata.operationType,
        tx.transfers[0]?.quantity.numeric,
        tx.transfers[0]?.counterparty,
      ]),
      [
        // Alice paid 30,000 to Bob and 1,000 in fees: 31,000 left her.
        [txid('a'), 300, 'send', '0.00031', BOB],
        [txid('b'), 200, 'receive', '0.001', CAROL],
        // A coinbase has no sender.
        [txid('c'), 100, 'receive', '50', ''],
      ],
    )
    assert.equal(data[0]?.metadata.minedAt, new Date((1_700_000_000 + 300 * 600) * 1000).toISOString())
    assert.equal(data[0]?.id, `${MAINNET}:${txid('a')}`)
  })

  test('pages follow Esplora: the cursor is the last txid seen', async () => {
    const first = await bitcoinTransactionsPage(url, query({ limit: '1' }), 5_000)
    assert.deepEqual(
      first.data.map((tx) => tx.metadata.hash),
      [txid('a')],
    )
    assert.equal(first.next, txid('a'))
    const second = await bitcoinTransactionsPage(url, query({ limit: '1', cursor: txid('a') }), 5_000)
    assert.deepEqual(
      second.data.map((tx) => tx.metadata.hash),
      [txid('b')],
    )
  })

  test('error: a malformed transaction list is a bad-response upstream error, not a crash', async () => {
    malformed = true
    await assert.rejects(bitcoinTransactionsPage(url, query(), 5_000), {
      name: 'UpstreamError',
      failure: 'bad-response',
      message: 'The Bitcoin node answered an unexpected transaction list',
    })
  })
})
