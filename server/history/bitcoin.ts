/**
 * Bitcoin history (bip122), read from the network's node: an Esplora API (mempool.space and the like)
 * for the public networks, the local regtest node's own REST API (bcoin, server/dev/bitcoin) for regtest.
 * Each transaction is seen from the account: what its outputs paid the account less what its inputs spent
 * of the account's coins. Confirmed transactions only (the mempool's show as the wallet's own pending).
 */
import * as z from 'zod'
import type { TransactionsQuery, TransactionsResponse } from '../../src/protocol/api/index.ts'
import { defaultTransactionsPageSize } from '../../src/protocol/api/index.ts'
import { bitcoinNetworkKind } from '../../src/protocol/bitcoinNetworks.ts'
import { bcoinApi, esploraApi } from '../../src/protocol/bitcoinNode.ts'
import { UpstreamError } from '../rpc/forward.ts'
import { formatBaseUnits } from './transactions.ts'

/** Bitcoin Core's regtest chain: its node is the local bcoin one, whose API is not Esplora's. */
const isRegtest = (chainId: string) => bitcoinNetworkKind(chainId) === 'regtest'
const BTC = { name: 'Bitcoin', symbol: 'BTC', decimals: 8 } as const

/** A confirmed transaction as both APIs give it, reduced to what the history shows. */
interface NodeTransaction {
  txid: string
  height: number
  time: number
  inputs: { address?: string | undefined; value: number }[]
  outputs: { address?: string | undefined; value: number }[]
}

const bcoinTransactions = z.array(
  z.object({
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    height: z.number().int(),
    time: z.number().int(),
    inputs: z.array(
      z.object({
        coin: z.nullish(z.object({ address: z.nullish(z.string()), value: z.number().int() })),
      }),
    ),
    outputs: z.array(z.object({ address: z.nullish(z.string()), value: z.number().int() })),
  }),
)

const esploraTransactions = z.array(
  z.object({
    txid: z.string().regex(/^[0-9a-f]{64}$/),
    status: z.object({
      confirmed: z.boolean(),
      block_height: z.optional(z.number().int()),
      block_time: z.optional(z.number().int()),
    }),
    vin: z.array(
      z.object({
        prevout: z.nullish(
          z.object({ scriptpubkey_address: z.optional(z.string()), value: z.number().int() }),
        ),
      }),
    ),
    vout: z.array(z.object({ scriptpubkey_address: z.optional(z.string()), value: z.number().int() })),
  }),
)

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError'
    throw new UpstreamError(timedOut ? 'timeout' : 'unreachable', 'The Bitcoin node could not be reached')
  }
  if (!response.ok)
    throw new UpstreamError('bad-response', `The Bitcoin node answered HTTP ${response.status}`)
  return response.json().catch(() => {
    throw new UpstreamError('bad-response', 'The Bitcoin node answered something other than JSON')
  })
}

/** The account's confirmed transactions, newest first, after the txid `cursor` when there is one. */
async function confirmedTransactions(
  chainId: string,
  nodeUrl: string,
  account: string,
  cursor: string | undefined,
  timeoutMs: number,
): Promise<NodeTransaction[]> {
  const base = nodeUrl.replace(/\/+$/, '')
  let transactions: NodeTransaction[]
  if (isRegtest(chainId)) {
    const parsed = bcoinTransactions.safeParse(
      await getJson(`${base}${bcoinApi.transactions(account)}`, timeoutMs),
    )
    if (!parsed.success)
      throw new UpstreamError('bad-response', 'The Bitcoin node answered an unexpected transaction list')
    transactions = parsed.data
      .filter((tx) => tx.height >= 0)
      .map((tx) => ({
        txid: tx.hash,
        height: tx.height,
        time: tx.time,
        inputs: tx.inputs.map((input) => ({
          address: input.coin?.address ?? undefined,
          value: input.coin?.value ?? 0,
        })),
        outputs: tx.outputs.map((output) => ({ address: output.address ?? undefined, value: output.value })),
      }))
  } else {
    // Esplora pages confirmed transactions 25 at a time after the last one seen.
    const path = `${base}${esploraApi.chainTransactions(account, cursor)}`
    const parsed = esploraTransactions.safeParse(await getJson(path, timeoutMs))
    if (!parsed.success)
      throw new UpstreamError('bad-response', 'The Bitcoin node answered an unexpected transaction list')
    return parsed.data
      .filter((tx) => tx.status.confirmed)
      .map((tx) => ({
        txid: tx.txid,
        height: tx.status.block_height ?? 0,
        time: tx.status.block_time ?? 0,
        inputs: tx.vin.map((input) => ({
          address: input.prevout?.scriptpubkey_address,
          value: input.prevout?.value ?? 0,
        })),
        outputs: tx.vout.map((output) => ({ address: output.scriptpubkey_address, value: output.value })),
      }))
  }
  transactions.sort((a, b) => b.height - a.height || a.txid.localeCompare(b.txid))
  if (cursor === undefined) return transactions
  const at = transactions.findIndex((tx) => tx.txid === cursor)
  return at < 0 ? [] : transactions.slice(at + 1)
}

/**
 * A page of an account's Bitcoin history: one BTC transfer per transaction, `out` when the account's
 * coins paid more than came back to it (the amount is what left, the fee included), `in` otherwise; the
 * other side is the first output not to the account (sending) or the first input's address (receiving).
 * `next` is the last txid when more may follow.
 *
 * @example
 * await bitcoinTransactionsPage('http://127.0.0.1:8794', { chainId: 'bip122:0f91…', account: 'bcrt1q…' }, 10_000)
 */
export async function bitcoinTransactionsPage(
  nodeUrl: string | undefined,
  query: TransactionsQuery,
  timeoutMs: number,
): Promise<TransactionsResponse> {
  if (query.onramp === 'true' || nodeUrl === undefined) return { data: [], next: null }
  const limit = query.limit === undefined ? defaultTransactionsPageSize : Number(query.limit)
  const all = await confirmedTransactions(query.chainId, nodeUrl, query.account, query.cursor, timeoutMs)
  const page = all.slice(0, limit)
  const data = page.map((tx): TransactionsResponse['data'][number] => {
    const mine = (address: string | undefined) => address === query.account
    const spent = tx.inputs
      .filter((input) => mine(input.address))
      .reduce((sum, input) => sum + input.value, 0)
    const received = tx.outputs
      .filter((output) => mine(output.address))
      .reduce((sum, output) => sum + output.value, 0)
    const delta = received - spent
    const direction = delta === 0 ? 'self' : delta < 0 ? 'out' : 'in'
    const counterparty =
      direction === 'in'
        ? (tx.inputs.find((input) => input.address && !mine(input.address))?.address ?? '')
        : (tx.outputs.find((output) => output.address && !mine(output.address))?.address ?? query.account)
    return {
      id: `${query.chainId}:${tx.txid}`,
      metadata: {
        minedAt: new Date(tx.time * 1000).toISOString(),
        chain: query.chainId,
        hash: tx.txid,
        blockNumber: tx.height,
        status: 'confirmed',
        operationType: direction === 'self' ? 'self' : direction === 'out' ? 'send' : 'receive',
        sentFrom: direction === 'in' ? counterparty : query.account,
        sentTo: direction === 'in' ? query.account : counterparty,
      },
      transfers: [
        {
          direction,
          quantity: {
            numeric: formatBaseUnits(String(Math.abs(delta)), BTC.decimals),
            decimals: BTC.decimals,
          },
          token: 'native',
          counterparty,
          fungible_info: { name: BTC.name, symbol: BTC.symbol },
          nft_info: { flags: { is_spam: false } },
        },
      ],
    }
  })
  const last = page.at(-1)
  const more = isRegtest(query.chainId) ? all.length > limit : page.length === limit || all.length === 25
  return { data, next: more && last ? last.txid : null }
}
