import type {
  HistoryTransaction,
  HistoryTransfer,
  TransactionsQuery,
  TransactionsResponse,
} from '../../src/protocol/api/index.ts'
import { defaultTransactionsPageSize } from '../../src/protocol/api/index.ts'
import type { ChainReader } from '../blockchain/chainReader.ts'
import type { ConfiguredToken, TokenLists } from '../blockchain/tokenLists.ts'
import { UpstreamError } from '../rpc/forward.ts'
import { formatBaseUnits } from './transactions.ts'

const nativeToken = { name: 'Solana', symbol: 'SOL', decimals: 9 } as const

interface SignatureInfo {
  signature: string
  slot: number
  err: unknown
  blockTime: number | null
}

interface TokenBalance {
  accountIndex: number
  mint: string
  owner?: string
  uiTokenAmount: { amount: string; decimals: number }
}

interface ParsedTransaction {
  slot: number
  blockTime: number | null
  transaction: { signatures: string[]; message: { accountKeys: { pubkey: string }[] } }
  meta: {
    err: unknown
    fee: number
    preBalances: number[]
    postBalances: number[]
    preTokenBalances?: TokenBalance[]
    postTokenBalances?: TokenBalance[]
  } | null
}

/** Base units as a string, and the other side: the account whose balance moved the other way the most. */
interface Movement {
  token: string
  delta: bigint
  decimals: number
  counterparty: string
}

/**
 * What the account gained or lost in one transaction: SOL from the balances before and after (the fee
 * the account paid is not a transfer), each SPL token from the token balances of the accounts it owns.
 */
function movements(account: string, tx: ParsedTransaction): Movement[] {
  const meta = tx.meta
  if (!meta) return []
  const keys = tx.transaction.message.accountKeys.map((key) => key.pubkey)
  const found: Movement[] = []
  const index = keys.indexOf(account)
  if (index >= 0) {
    const deltas = keys.map((_key, i) => BigInt(meta.postBalances[i] ?? 0) - BigInt(meta.preBalances[i] ?? 0))
    // The fee payer is the first account.
    const delta = (deltas[index] ?? 0n) + (index === 0 ? BigInt(meta.fee) : 0n)
    if (delta !== 0n) {
      let other = -1
      deltas.forEach((value, i) => {
        if (i !== index && (delta > 0n ? value < 0n : value > 0n)) {
          const best = deltas[other] ?? 0n
          if (other < 0 || (delta > 0n ? value < best : value > best)) other = i
        }
      })
      found.push({ token: 'native', delta, decimals: 9, counterparty: keys[other] ?? account })
    }
  }
  const byMint = new Map<string, { decimals: number; owners: Map<string, bigint> }>()
  const add = (balance: TokenBalance, sign: 1n | -1n) => {
    if (!balance.owner) return
    const mint = byMint.get(balance.mint) ?? { decimals: balance.uiTokenAmount.decimals, owners: new Map() }
    mint.owners.set(
      balance.owner,
      (mint.owners.get(balance.owner) ?? 0n) + sign * BigInt(balance.uiTokenAmount.amount),
    )
    byMint.set(balance.mint, mint)
  }
  for (const balance of meta.postTokenBalances ?? []) add(balance, 1n)
  for (const balance of meta.preTokenBalances ?? []) add(balance, -1n)
  for (const [mint, { decimals, owners }] of byMint) {
    const delta = owners.get(account) ?? 0n
    if (delta === 0n) continue
    const other = [...owners].find(
      ([owner, value]) => owner !== account && (delta > 0n ? value < 0n : value > 0n),
    )
    found.push({ token: mint, delta, decimals, counterparty: other?.[0] ?? account })
  }
  return found
}

/**
 * A page of a Solana account's history, read from the network itself: `getSignaturesForAddress`
 * (newest first, `before` the cursor, which is the last signature of the previous page) and one
 * `getTransaction` (jsonParsed) per signature, in one JSON-RPC batch. Failed transactions and those
 * that moved nothing for the account are left out; SPL tokens not on the network's token list are
 * spam, hidden unless `includeSpam=true`. `onramp=true` answers an empty page (deliveries are marked
 * on EVM networks only).
 *
 * @example
 * const { data, next } = await solanaTransactionsPage(reader, tokenLists, { chainId: 'solana:…', account })
 */
export async function solanaTransactionsPage(
  reader: ChainReader,
  tokenLists: TokenLists,
  query: TransactionsQuery,
): Promise<TransactionsResponse> {
  if (query.onramp === 'true' || !reader.has(query.chainId)) return { data: [], next: null }
  const limit = query.limit === undefined ? defaultTransactionsPageSize : Number(query.limit)
  const [listed] = await reader.batch(query.chainId, [
    {
      method: 'getSignaturesForAddress',
      params: [query.account, { limit, ...(query.cursor ? { before: query.cursor } : {}) }],
    },
  ])
  if (!listed?.ok)
    throw new UpstreamError(
      'bad-response',
      `getSignaturesForAddress on ${query.chainId} failed: ${listed?.ok === false ? listed.message : 'no answer'}`,
    )
  const signatures = listed.result as SignatureInfo[]
  const answers = await reader.batch(
    query.chainId,
    signatures.map((info) => ({
      method: 'getTransaction',
      params: [
        info.signature,
        { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0, commitment: 'confirmed' },
      ],
    })),
  )
  const tokens = new Map<string, ConfiguredToken>(
    (tokenLists[query.chainId]?.tokens ?? []).map((token) => [token.address, token]),
  )
  const data: HistoryTransaction[] = []
  signatures.forEach((info, i) => {
    const answer = answers[i]
    if (info.err !== null || !answer?.ok || answer.result === null) return
    const tx = answer.result as ParsedTransaction
    if (tx.meta?.err) return
    const transfers = movements(query.account, tx).flatMap((movement): HistoryTransfer[] => {
      const token = movement.token === 'native' ? nativeToken : tokens.get(movement.token)
      const spam = token === undefined
      if (spam && query.includeSpam !== 'true') return []
      const amount = movement.delta < 0n ? -movement.delta : movement.delta
      return [
        {
          direction: movement.counterparty === query.account ? 'self' : movement.delta < 0n ? 'out' : 'in',
          quantity: {
            numeric: formatBaseUnits(amount.toString(), movement.decimals),
            decimals: movement.decimals,
          },
          token: movement.token,
          counterparty: movement.counterparty,
          fungible_info: {
            name: token?.name ?? movement.token,
            symbol: token?.symbol ?? '',
            ...(token && token !== nativeToken
              ? { imageId: (token as ConfiguredToken).imageId ?? token.symbol }
              : {}),
          },
          nft_info: { flags: { is_spam: spam } },
        },
      ]
    })
    if (transfers.length === 0) return
    const directions = new Set(transfers.map((transfer) => transfer.direction))
    const first = transfers[0] as HistoryTransfer
    data.push({
      id: `${query.chainId}:${info.signature}`,
      metadata: {
        minedAt: new Date((tx.blockTime ?? info.blockTime ?? 0) * 1000).toISOString(),
        chain: query.chainId,
        hash: info.signature,
        blockNumber: tx.slot,
        status: 'confirmed',
        operationType:
          directions.has('in') && directions.has('out')
            ? 'trade'
            : directions.size === 1 && directions.has('out')
              ? 'send'
              : directions.size === 1 && directions.has('in')
                ? 'receive'
                : 'self',
        sentFrom: first.direction === 'in' ? first.counterparty : query.account,
        sentTo: first.direction === 'in' ? query.account : first.counterparty,
      },
      transfers,
    })
  })
  const last = signatures[signatures.length - 1]
  return { data, next: signatures.length === limit && last ? last.signature : null }
}
