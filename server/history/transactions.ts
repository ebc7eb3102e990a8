import { and, desc, eq, inArray, or, sql } from 'drizzle-orm'
import { getAddress } from 'viem'
import {
  defaultTransactionsPageSize,
  type HistoryTransaction,
  type HistoryTransfer,
  NATIVE_TOKEN_ADDRESS,
  type TransactionsQuery,
  type TransactionsResponse,
} from '../../src/protocol/api/index.ts'
import type { ConfiguredToken, TokenLists } from '../blockchain/tokenLists.ts'
import type { Db } from '../db/database.ts'
import { historyTransfers } from '../db/schema.ts'

/** The native currency of the EVM networks the service indexes (local chains and their forks). */
const nativeToken = { name: 'Ether', symbol: 'ETH', decimals: 18 } as const

/**
 * `amount` base units written in whole tokens, without trailing zeros.
 *
 * @example
 * formatBaseUnits('1500000', 6) // '1.5'
 */
export function formatBaseUnits(amount: string, decimals: number): string {
  if (decimals === 0) return amount
  const digits = amount.padStart(decimals + 1, '0')
  const whole = digits.slice(0, -decimals)
  const fraction = digits.slice(-decimals).replace(/0+$/, '')
  return fraction === '' ? whole : `${whole}.${fraction}`
}

/** A stored transfer; the upstream history sources map their answers into the same rows. */
export type TransferRow = typeof historyTransfers.$inferSelect

/** The network's listed tokens by lower-case address: transfers of any other token are spam. */
export function listedTokens(tokenLists: TokenLists, chainId: string): Map<string, ConfiguredToken> {
  return new Map((tokenLists[chainId]?.tokens ?? []).map((token) => [token.address.toLowerCase(), token]))
}

/** Rows ordered newest first, a transaction's rows together, grouped by transaction. */
export function groupByTransaction(rows: readonly TransferRow[]): TransferRow[][] {
  const groups: TransferRow[][] = []
  let lastKey = ''
  for (const row of rows) {
    const key = row.txHash
    if (key === lastKey) groups[groups.length - 1]?.push(row)
    else groups.push([row])
    lastKey = key
  }
  return groups
}

/**
 * A page of an account's history on one network from what the indexer stored: newest first, a
 * transaction with every transfer the account took part in. Transfers of tokens the network's list
 * does not have are spam: flagged, and left out (with transactions that only had those) unless
 * `includeSpam=true`. `onramp=true` keeps on-ramp deliveries only. The cursor is the position
 * (block, index in block) of the page's last transaction.
 *
 * @example
 * const { data, next } = await transactionsPage(db, tokenLists, { chainId: 'eip155:31337', account })
 */
export async function transactionsPage(
  db: Db,
  tokenLists: TokenLists,
  query: TransactionsQuery,
): Promise<TransactionsResponse> {
  const account = query.account.toLowerCase()
  const limit = query.limit === undefined ? defaultTransactionsPageSize : Number(query.limit)
  const listed = listedTokens(tokenLists, query.chainId)
  const t = historyTransfers
  const conditions = [
    eq(t.chainId, query.chainId),
    or(eq(t.fromAddress, account), eq(t.toAddress, account)),
    query.includeSpam === 'true' ? undefined : inArray(t.token, [NATIVE_TOKEN_ADDRESS, ...listed.keys()]),
    query.onramp === 'true' ? eq(t.kind, 'onramp') : undefined,
  ]
  const base = and(...conditions)
  let where = base
  if (query.cursor !== undefined) {
    const [block, index] = query.cursor.split('-').map(Number) as [number, number]
    where = and(base, sql`(${t.blockNumber}, ${t.txIndex}) < (${block}, ${index})`)
  }
  // The page's transactions and their transfers in one statement, so one snapshot: read in two, a
  // re-index (after a chain reset) committed in between would leave keys without their rows.
  const keys = db.$with('keys').as(
    db
      .selectDistinct({
        keyBlock: sql<number>`${t.blockNumber}`.as('key_block'),
        keyIndex: sql<number>`${t.txIndex}`.as('key_index'),
      })
      .from(t)
      .where(where)
      .orderBy(desc(t.blockNumber), desc(t.txIndex))
      .limit(limit + 1),
  )
  const rows = await db
    .with(keys)
    .select({ transfer: t })
    .from(keys)
    .innerJoin(t, and(base, eq(t.blockNumber, keys.keyBlock), eq(t.txIndex, keys.keyIndex)))
    .orderBy(desc(t.blockNumber), desc(t.txIndex), t.logIndex)
  // Rows come grouped by transaction, newest first; the (limit + 1)th transaction only says there is more.
  const groups = groupByTransaction(rows.map(({ transfer }) => transfer))
  const page = groups.slice(0, limit)
  const last = page[page.length - 1]?.[0]
  return {
    data: page.map((transfers) => toTransaction(query.chainId, account, transfers, listed)),
    next: groups.length > limit && last ? `${last.blockNumber}-${last.txIndex}` : null,
  }
}

/** One transaction of the account's history from its transfer rows (SPEC 3's Transaction shape). */
export function toTransaction(
  chainId: string,
  account: string,
  rows: readonly TransferRow[],
  listed: ReadonlyMap<string, ConfiguredToken>,
): HistoryTransaction {
  const first = rows[0] as TransferRow
  const transfers = rows.map((row): HistoryTransfer => {
    const token = row.token === NATIVE_TOKEN_ADDRESS ? nativeToken : listed.get(row.token)
    const direction =
      row.fromAddress === account ? (row.toAddress === account ? 'self' : 'out') : ('in' as const)
    const decimals = token?.decimals ?? 0
    return {
      direction,
      quantity: { numeric: formatBaseUnits(row.amount, decimals), decimals },
      token: row.token,
      counterparty: getAddress(direction === 'in' ? row.fromAddress : row.toAddress),
      fungible_info: {
        name: token?.name ?? row.token,
        symbol: token?.symbol ?? '',
        ...(token && token !== nativeToken
          ? { imageId: (token as ConfiguredToken).imageId ?? token.symbol }
          : {}),
      },
      nft_info: { flags: { is_spam: token === undefined } },
    }
  })
  const directions = new Set(transfers.map((transfer) => transfer.direction))
  const operationType =
    first.kind === 'swap'
      ? 'trade'
      : first.kind === 'onramp'
        ? 'onramp'
        : directions.size === 1 && directions.has('out')
          ? 'send'
          : directions.size === 1 && directions.has('in')
            ? 'receive'
            : 'self'
  return {
    id: `${chainId}:${first.txHash}`,
    metadata: {
      minedAt: first.minedAt.toISOString(),
      chain: chainId,
      hash: first.txHash,
      blockNumber: first.blockNumber,
      status: 'confirmed',
      operationType,
      sentFrom: getAddress(first.fromAddress),
      sentTo: getAddress(first.toAddress),
    },
    transfers,
  }
}
