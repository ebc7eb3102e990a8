/**
 * Solana history: `GET /blockchain/v1/transactions` on a solana: network reads the local Solana network
 * itself (`getSignaturesForAddress`, `getTransaction`), newest first, with cursor pages; SOL amounts
 * without the fee, SPL tokens not on the token list flagged spam and hidden unless asked for.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token'
import {
  Connection,
  type Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
} from '@solana/web3.js'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../../server/app.ts'
import type { LocalSolana } from '../../../server/dev/solana/index.ts'
import { LOCAL_SOLANA_NETWORK_ID } from '../../../src/chains/solana/networks.ts'
import { type TransactionsResponse, transactionsResponse } from '../../../src/protocol/api/index.ts'
import { startOnFreePorts, stopCleanly } from '../solana-dev/helpers.ts'
import { openTestDatabase, sdk, type TestDatabase, testLogger } from './helpers.ts'

const site = 'http://localhost:5173'

let solana: LocalSolana
let testDb: TestDatabase
let app: FastifyInstance
let connection: Connection
let alice: Keypair
let bob: Keypair
const sent: string[] = []
let splSignature: string

async function page(query: Record<string, string>): Promise<TransactionsResponse> {
  const search = new URLSearchParams({ chainId: LOCAL_SOLANA_NETWORK_ID, ...query })
  const response = await app.inject({
    url: `/blockchain/v1/transactions?${sdk()}&${search}`,
    headers: { origin: site },
  })
  assert.equal(response.statusCode, 200, response.body)
  return transactionsResponse.parse(response.json())
}

before(
  async () => {
    solana = await startOnFreePorts()
    testDb = await openTestDatabase('history_solana')
    app = await buildApp(
      testDb.config({ devOrigins: [site], rpcUpstreams: { [LOCAL_SOLANA_NETWORK_ID]: solana.url } }),
      { database: testDb.database, logger: testLogger },
    )
    connection = new Connection(solana.url, 'confirmed')
    alice = solana.devKeys[2] as Keypair
    bob = solana.devKeys[3] as Keypair
    for (const lamports of [LAMPORTS_PER_SOL / 2, LAMPORTS_PER_SOL / 4, LAMPORTS_PER_SOL / 8]) {
      const tx = new Transaction().add(
        SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports }),
      )
      sent.push(await sendAndConfirmTransaction(connection, tx, [alice]))
    }
    // The test token (on no token list) from dev key 0 to alice: spam.
    const owner = solana.devKeys[0] as Keypair
    const mint = solana.mint.address
    const destination = getAssociatedTokenAddressSync(mint, alice.publicKey)
    const tx = new Transaction().add(
      createAssociatedTokenAccountIdempotentInstruction(owner.publicKey, destination, alice.publicKey, mint),
      createTransferCheckedInstruction(
        getAssociatedTokenAddressSync(mint, owner.publicKey),
        mint,
        destination,
        owner.publicKey,
        2_500_000n,
        6,
      ),
    )
    splSignature = await sendAndConfirmTransaction(connection, tx, [owner])
  },
  { timeout: 60_000 },
)

after(async () => {
  await app?.close()
  await testDb?.close()
  if (solana) await stopCleanly(solana)
})

describe('GET /blockchain/v1/transactions on Solana', () => {
  test('default: SOL sends newest first, the amount without the fee, the other side, the time', async () => {
    const { data, next } = await page({ account: alice.publicKey.toBase58() })
    assert.equal(next, null)
    // Before these, the network's genesis funded the dev key.
    assert.deepEqual(
      data.slice(0, 3).map((transaction) => transaction.metadata.hash),
      [...sent].reverse(),
      'the token delivery is hidden (not on the list)',
    )
    const [latest] = data
    assert.equal(latest?.metadata.operationType, 'send')
    assert.equal(latest?.metadata.chain, LOCAL_SOLANA_NETWORK_ID)
    assert.ok(!Number.isNaN(Date.parse(latest?.metadata.minedAt ?? '')))
    assert.deepEqual(latest?.transfers, [
      {
        direction: 'out',
        quantity: { numeric: '0.125', decimals: 9 },
        token: 'native',
        counterparty: bob.publicKey.toBase58(),
        fungible_info: { name: 'Solana', symbol: 'SOL' },
        nft_info: { flags: { is_spam: false } },
      },
    ])
    const received = await page({ account: bob.publicKey.toBase58() })
    assert.equal(received.data[0]?.metadata.operationType, 'receive')
    assert.equal(received.data[0]?.transfers[0]?.counterparty, alice.publicKey.toBase58())
  })

  test('default: a token not on the list is flagged spam and shown when asked for', async () => {
    const { data } = await page({ account: alice.publicKey.toBase58(), includeSpam: 'true' })
    assert.equal(data[0]?.metadata.hash, splSignature)
    assert.deepEqual(data[0]?.transfers[0], {
      direction: 'in',
      quantity: { numeric: '2.5', decimals: 6 },
      token: solana.mint.address.toBase58(),
      counterparty: (solana.devKeys[0] as Keypair).publicKey.toBase58(),
      fungible_info: { name: solana.mint.address.toBase58(), symbol: '' },
      nft_info: { flags: { is_spam: true } },
    })
  })

  test('default: pages by cursor (the last signature) until next is null', async () => {
    const account = alice.publicKey.toBase58()
    const pages = [await page({ account, limit: '2', includeSpam: 'true' })]
    for (let last = pages[0]; last?.next; last = pages[pages.length - 1])
      pages.push(await page({ account, limit: '2', includeSpam: 'true', cursor: last.next }))
    const all = await page({ account, includeSpam: 'true' })
    assert.ok(pages.length >= 3)
    assert.deepEqual(
      pages.flatMap((one) => one.data.map((transaction) => transaction.metadata.hash)),
      all.data.map((transaction) => transaction.metadata.hash),
    )
  })

  test('error: an EVM cursor or an EVM account on a Solana network answers 400', async () => {
    for (const query of [
      { account: alice.publicKey.toBase58(), cursor: '12-0' },
      { account: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
    ]) {
      const search = new URLSearchParams({ chainId: LOCAL_SOLANA_NETWORK_ID, ...query })
      const response = await app.inject({
        url: `/blockchain/v1/transactions?${sdk()}&${search}`,
        headers: { origin: site },
      })
      assert.equal(response.statusCode, 400, response.body)
    }
  })
})
