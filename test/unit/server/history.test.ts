// The history indexer and GET /blockchain/v1/transactions.
/**
 * Transaction history: the service's indexer of a real Hardhat chain with the local market (native
 * transfers, ERC-20 Transfer logs, swaps marked, unlisted tokens as spam), stored in the real database,
 * served by `GET /blockchain/v1/transactions` with cursor pages; two instances on one database with
 * exactly one indexing, taken over when it dies; resumed after a restart; re-indexed after a chain
 * reset; and the requests a curl user would try.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { erc20Abi, getAddress, parseEther, parseUnits } from 'viem'
import { createDatabase } from '../../../server/db/database.ts'
import { historyNetworks, historyTransfers } from '../../../server/db/schema.ts'
import { startChain } from '../../../server/dev/chain/index.ts'
import {
  apiErrorBody,
  type TransactionsResponse,
  transactionsResponse,
} from '../../../src/protocol/api/index.ts'
import { testLogger, usingPostgres } from './helpers.ts'
import {
  alice,
  aliceCount,
  apps,
  bob,
  bobCount,
  carol,
  chain,
  chainPort,
  clients,
  config,
  dave,
  holder,
  indexed,
  local,
  market,
  onrampHash,
  page,
  routerAbi,
  sendHash,
  setAliceCount,
  setBobCount,
  setChain,
  site,
  spamToken,
  startHistoryService,
  startService,
  stopService,
  storedTransfers,
  swapHash,
  testDb,
  transactions,
  usdcHash,
} from './history-helpers.ts'

startHistoryService()

describe('the history indexer and GET /blockchain/v1/transactions', () => {
  test('default: sends, token transfers and swaps show for both sides, newest first, with amounts and counterparties', async () => {
    const app = await startService()
    await indexed()
    const { data, next } = await page(app, { account: alice.address })
    assert.equal(next, null)
    // Before these, the market's deployer funded every dev account with USDC and DEV.
    assert.deepEqual(
      data.slice(0, 3).map((transaction) => transaction.metadata.hash),
      [swapHash, usdcHash, sendHash],
    )
    setAliceCount(data.length)
    assert.ok(data.slice(3).every((transaction) => transaction.metadata.operationType === 'receive'))
    const [swap, usdc, send] = data as [
      TransactionsResponse['data'][number],
      TransactionsResponse['data'][number],
      TransactionsResponse['data'][number],
    ]
    assert.equal(send.metadata.operationType, 'send')
    assert.equal(send.metadata.chain, local)
    assert.ok(!Number.isNaN(Date.parse(send.metadata.minedAt)))
    assert.deepEqual(send.transfers, [
      {
        direction: 'out',
        quantity: { numeric: '1.5', decimals: 18 },
        token: 'native',
        counterparty: bob.address,
        fungible_info: { name: 'Ether', symbol: 'ETH' },
        nft_info: { flags: { is_spam: false } },
      },
    ])
    assert.equal(usdc.transfers[0]?.quantity.numeric, '12.5')
    assert.equal(usdc.transfers[0]?.fungible_info.symbol, 'USDC')
    assert.equal(swap.metadata.operationType, 'trade')
    assert.deepEqual(
      swap.transfers.map((transfer) => [transfer.direction, transfer.fungible_info.symbol]),
      [
        ['out', 'ETH'],
        ['in', 'USDC'],
      ],
    )

    const received = await page(app, { account: bob.address })
    setBobCount(received.data.length)
    assert.deepEqual(
      received.data
        .slice(0, 2)
        .map((transaction) => [transaction.metadata.hash, transaction.metadata.operationType]),
      [
        [usdcHash, 'receive'],
        [sendHash, 'receive'],
      ],
      'the spam token transfer is hidden',
    )
    assert.equal(received.data[1]?.transfers[0]?.counterparty, alice.address)
  })

  test('default: tokens not on the list are flagged spam and shown when asked for', async () => {
    const app = apps[0] as FastifyInstance
    const { data } = await page(app, { account: bob.address, includeSpam: 'true' })
    assert.equal(data.length, bobCount + 1)
    const spam = data[0]?.transfers[0]
    assert.equal(spam?.token, spamToken.toLowerCase())
    assert.equal(spam?.nft_info.flags.is_spam, true)
  })

  test('default: pages by cursor without overlap until next is null', async () => {
    const app = apps[0] as FastifyInstance
    const all = await page(app, { account: alice.address })
    const pages: TransactionsResponse[] = [await page(app, { account: alice.address, limit: '2' })]
    for (let last = pages[0]; last?.next; last = pages[pages.length - 1]) {
      assert.equal(last.data.length, 2)
      pages.push(await page(app, { account: alice.address, limit: '2', cursor: last.next }))
    }
    assert.equal(pages.length, Math.ceil(aliceCount / 2))
    assert.deepEqual(
      pages.flatMap((one) => one.data),
      all.data,
    )
    const onramp = await page(app, { account: alice.address, onramp: 'true' })
    assert.deepEqual(onramp, { data: [], next: null })
  })

  test('default: a transfer from a configured on-ramp sender is an on-ramp delivery (onramp=true keeps only those)', async () => {
    const app = apps[0] as FastifyInstance
    const all = await page(app, { account: dave.address })
    assert.equal(all.data[0]?.metadata.hash, onrampHash)
    const { data, next } = await page(app, { account: dave.address, onramp: 'true' })
    assert.equal(next, null)
    assert.deepEqual(
      data.map((transaction) => [transaction.metadata.hash, transaction.metadata.operationType]),
      [[onrampHash, 'onramp']],
    )
    assert.deepEqual(
      data[0]?.transfers.map((transfer) => [
        transfer.direction,
        transfer.quantity.numeric,
        transfer.fungible_info.symbol,
        transfer.counterparty,
      ]),
      [['in', '50', 'USDC', carol.address]],
    )
  })

  test('default: ETH a contract sends is read from the trace: a swap to ETH shows the ETH the router paid out', async () => {
    const app = apps[0] as FastifyInstance
    const { publicClient, wallet } = clients(chain.url)
    const amount = parseUnits('10', 6)
    await wallet(alice).writeContract({
      address: market.tokens.USDC.address,
      abi: erc20Abi,
      functionName: 'approve',
      args: [market.uniswapV2.router, amount],
    })
    const before = await publicClient.getBalance({ address: alice.address })
    const hash = await wallet(alice).writeContract({
      address: market.uniswapV2.router,
      abi: routerAbi,
      functionName: 'swapExactTokensForETH',
      args: [amount, 0n, [market.tokens.USDC.address, market.tokens.WETH.address], alice.address, 2n ** 40n],
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    const received =
      (await publicClient.getBalance({ address: alice.address })) -
      before +
      receipt.gasUsed * receipt.effectiveGasPrice
    await indexed()
    const { data } = await page(app, { account: alice.address })
    // The approval moved nothing: only the swap is new.
    setAliceCount(aliceCount + 1)
    assert.equal(data.length, aliceCount)
    const [swap] = data
    assert.equal(swap?.metadata.hash, hash)
    assert.equal(swap?.metadata.operationType, 'trade')
    assert.deepEqual(
      swap?.transfers.map((transfer) => [
        transfer.direction,
        transfer.fungible_info.symbol,
        transfer.counterparty,
      ]),
      [
        ['in', 'ETH', market.uniswapV2.router],
        ['out', 'USDC', getAddress(market.pairs['WETH/USDC'])],
      ],
    )
    assert.equal(
      parseUnits(swap?.transfers[0]?.quantity.numeric ?? '0', 18),
      received,
      'the ETH that arrived, to the wei',
    )
  })

  test('default: two instances on one database: one holds the lease; the other takes over when it dies, nothing twice', async () => {
    const [first] = apps as [FastifyInstance]
    const second = await startService()
    const holding = await holder()
    assert.equal(holding, first.historyIndexer.id)
    const before = await storedTransfers()
    // The holder dies without giving the lease back.
    await first.historyIndexer.halt()
    const { wallet } = clients(chain.url)
    const late = await wallet(alice).sendTransaction({ to: carol.address, value: parseEther('0.25') })
    await indexed()
    assert.equal(await holder(), second.historyIndexer.id)
    assert.equal(await storedTransfers(), before + 1)
    const { data } = await page(second, { account: carol.address })
    assert.equal(data[0]?.metadata.hash, late)
    await stopService(first)
  })

  test('default: a restarted service resumes where the last one stopped, without duplicates', async () => {
    const [running] = apps as [FastifyInstance]
    await stopService(running)
    assert.equal(await holder(), null, 'a stopped service gives its lease back')
    const before = await storedTransfers()
    const { wallet } = clients(chain.url)
    await wallet(bob).sendTransaction({ to: carol.address, value: parseEther('0.5') })
    const restarted = await startService()
    await indexed()
    assert.equal(await storedTransfers(), before + 1)
    const { data } = await page(restarted, { account: alice.address })
    assert.equal(data.length, aliceCount + 1)
  })

  test('default: a chain reset is detected by block hash and the history is indexed again; pages read meanwhile stay whole', async () => {
    const app = apps[0] as FastifyInstance
    const before = (await page(app, { account: alice.address })).data.map((one) => one.metadata.hash)
    // Readers keep asking while the indexer deletes the old chain's history and indexes the new one:
    // each answer must be one state or the other, never a page read half before and half after.
    let reading = true
    let read = 0
    const states = new Set([JSON.stringify(before), '[]'])
    const torn: { status: number; body: string }[] = []
    const reader = async () => {
      while (reading) {
        const response = await transactions(app, { account: alice.address })
        read++
        const hashes =
          response.statusCode === 200
            ? transactionsResponse.parse(response.json()).data.map((one) => one.metadata.hash)
            : undefined
        // Before the new chain's first transaction is indexed, the old history or none; then that one.
        if (hashes === undefined || (!states.has(JSON.stringify(hashes)) && hashes.length !== 1))
          torn.push({ status: response.statusCode, body: response.body.slice(0, 300) })
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
    }
    const readers = [reader(), reader(), reader()]
    await chain.stop()
    setChain(await startChain({ port: chainPort, chainId: 31337 }))
    const { wallet } = clients(chain.url)
    const fresh = await wallet(alice).sendTransaction({ to: bob.address, value: parseEther('2') })
    const deadline = Date.now() + 20_000
    let hashes: string[] = []
    while (Date.now() < deadline) {
      hashes = (await page(app, { account: alice.address })).data.map(
        (transaction) => transaction.metadata.hash,
      )
      if (hashes.length === 1) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    reading = false
    await Promise.all(readers)
    assert.deepEqual(hashes, [fresh], "only the new chain's transaction is left")
    assert.equal(await storedTransfers(), 1, "the old chain's transfers are deleted")
    assert.deepEqual(torn, [], `${read} pages read during the reset`)
  })

  test('default: two instances, each with its own database connections, index each block exactly once, also after the holder dies', async () => {
    for (const app of [...apps]) await stopService(app)
    // A network new to both: 120 blocks, 3 rounds and more.
    await testDb.database.db.delete(historyTransfers).where(eq(historyTransfers.chainId, local))
    await testDb.database.db.delete(historyNetworks).where(eq(historyNetworks.chainId, local))
    const { wallet } = clients(chain.url)
    const send = async (count: number) => {
      for (let index = 0; index < count; index++)
        await wallet(alice).sendTransaction({ to: bob.address, value: 1_000n + BigInt(index) })
    }
    await send(120)
    // On PostgreSQL the second instance has a pool of its own, as a second process would.
    const second = usingPostgres ? await createDatabase(config, { logger: testLogger }) : testDb.database
    const instances = await Promise.all([startService(), startService(second)])
    try {
      // Both start at once: one indexes, the other waits for the lease.
      await indexed()
      // The holder dies without giving the lease back; 60 more blocks come, which the other indexes.
      const first = await holder()
      const dying = instances.find((app) => app.historyIndexer.id === first) as FastifyInstance
      await dying.historyIndexer.halt()
      await send(60)
      await indexed()
      const head = Number(await clients(chain.url).publicClient.getBlockNumber())
      const [a, b] = instances.map((app) => app.historyIndexer.indexed) as [
        FastifyInstance['historyIndexer']['indexed'],
        FastifyInstance['historyIndexer']['indexed'],
      ]
      assert.equal(a.blocks + b.blocks, head + 1, 'every block once (0 to the head)')
      assert.ok(a.blocks > 0 && b.blocks > 0, 'each instance indexed a part')
      assert.equal(a.transfers + b.transfers, await storedTransfers(), 'every transfer once')
      assert.equal(await storedTransfers(), 181)
    } finally {
      for (const app of instances) await stopService(app)
      if (second !== testDb.database) await second.close()
      // For the requests below.
      await startService()
    }
  })
})

describe('GET /blockchain/v1/transactions: bad requests', () => {
  const bad: [string, Record<string, string>][] = [
    ['an account that is not an address', { account: 'alice.eth' }],
    ['a cursor not from the API', { account: alice.address, cursor: "1' OR 1=1 --" }],
    ['a page larger than 50', { account: alice.address, limit: '51' }],
    ['a page of 0', { account: alice.address, limit: '0' }],
    ['onramp that is not true or false', { account: alice.address, onramp: 'yes' }],
  ]
  for (const [what, query] of bad) {
    test(`error: ${what} answers 400`, async () => {
      const response = await transactions(apps[0] as FastifyInstance, query)
      assert.equal(response.statusCode, 400, response.body)
      assert.equal(apiErrorBody.parse(response.json()).error.code, 'BAD_REQUEST')
    })
  }

  test('error: an invalid network id answers 400 with the SPEC message', async () => {
    const response = await transactions(apps[0] as FastifyInstance, {
      chainId: 'eip155',
      account: alice.address,
    })
    assert.equal(response.statusCode, 400)
    assert.match(response.body, /Invalid CAIP-2 network id/)
  })

  test('error: without the project the request is refused', async () => {
    const response = await (apps[0] as FastifyInstance).inject({
      url: `/blockchain/v1/transactions?chainId=${local}&account=${alice.address}`,
      headers: { origin: site },
    })
    assert.equal(response.statusCode, 400)
  })
})
