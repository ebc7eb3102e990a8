/**
 * Upstream history sources: for real networks an operator may have the service read an
 * account's history from a data provider instead of indexing the chain itself (`HISTORY_UPSTREAMS`).
 * A source answers a page in the same shape, with the same spam rule and the same cursor as the
 * indexer's tables ({@link transactionsPage}). One protocol is implemented: the Etherscan-compatible
 * account API (Etherscan API V2 and the explorers that copy it): `txlist` (native value of the
 * account's transactions), `tokentx` (ERC-20 transfers) and `txlistinternal` (ETH sent by contracts).
 */
import * as z from 'zod/mini'
import type { TransactionsQuery, TransactionsResponse } from '../../src/protocol/api/index.ts'
import { defaultTransactionsPageSize, NATIVE_TOKEN_ADDRESS } from '../../src/protocol/api/index.ts'
import type { TokenLists } from '../blockchain/tokenLists.ts'
import { UpstreamError } from '../rpc/forward.ts'
import { summarizeUpstreamFailure } from '../rpc/redact.ts'
import type { HistoryNetwork } from './indexer.ts'
import { groupByTransaction, listedTokens, type TransferRow, toTransaction } from './transactions.ts'

/** A page of an account's history on one network, read from somewhere else than the indexer's tables. */
export interface HistorySource {
  /**
   * Newest first; transfers of tokens off the network's token list are spam (left out unless
   * `includeSpam=true`); `cursor` is the `block-index` after which the page starts. Throws
   * {@link UpstreamError} (502/504, never quoting the upstream) when the upstream fails.
   */
  page(query: TransactionsQuery): Promise<TransactionsResponse>
}

/** Rows asked of each list per page (Etherscan's `offset`); a page is cut where every list is complete. */
export const UPSTREAM_ROWS_PER_LIST = 100
/** The most bytes read of one upstream answer (100 rows with their call data fit well under it). */
export const UPSTREAM_MAX_BYTES = 4 * 1024 * 1024

export interface EtherscanSourceOptions {
  /** The EVM network, `eip155:N`; N is sent as `chainid`. */
  chainId: string
  /** The API's URL, e.g. `https://api.etherscan.io/v2/api` (never logged: it may hold a key). */
  url: string
  /** Sent as `apikey` when set (`HISTORY_UPSTREAM_KEY`); never logged. */
  apiKey: string | null
  /** For all three requests of a page together. */
  timeoutMs: number
  tokenLists: TokenLists
  /** Swaps and on-ramp deliveries are marked as the indexer marks them. */
  network?: Omit<HistoryNetwork, 'chainId'>
}

const uint = (digits: number) => z.string().check(z.regex(new RegExp(`^\\d{1,${digits}}$`)))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/))
/** `to` is empty for a contract creation. */
const toAddress = z.string().check(z.regex(/^(0x[0-9a-fA-F]{40})?$/))
const common = {
  blockNumber: uint(15),
  timeStamp: uint(12),
  hash: z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/)),
  from: address,
  value: uint(78),
}
const txRow = z.object({
  ...common,
  transactionIndex: uint(9),
  to: toAddress,
  isError: z.optional(z.string()),
})
const tokenRow = z.object({
  ...common,
  transactionIndex: uint(9),
  to: address,
  contractAddress: address,
  logIndex: z.optional(uint(9)),
})
const internalRow = z.object({ ...common, to: toAddress, isError: z.optional(z.string()) })
const rowSchemas = { txlist: txRow, tokentx: tokenRow, txlistinternal: internalRow }
type Action = keyof typeof rowSchemas
const actions = Object.keys(rowSchemas) as Action[]
type Rows = { [A in Action]: z.output<(typeof rowSchemas)[A]>[] }

/** The envelope of every answer: `status` "1" with rows, or "0" with a message (and rows or a reason). */
const envelope = z.object({ status: z.enum(['0', '1']), message: z.string(), result: z.unknown() })

const bad = (chainId: string, message: string, detail?: { status?: number; message?: string }) =>
  new UpstreamError('bad-response', `The history upstream of ${chainId} ${message}`, {
    type: 'HistoryUpstreamError',
    ...detail,
  })

/** The body, up to `limit` bytes; throws when there is more. */
async function readLimited(response: Response, limit: number, chainId: string): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw bad(chainId, `answered more than ${limit} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * A history source on an Etherscan-compatible account API. Each page asks the three lists for at most
 * {@link UPSTREAM_ROWS_PER_LIST} rows each, newest first, up to the cursor's block; merges them by
 * transaction; and ends the page where every list that came back full is still complete, so a
 * transaction is never cut in two nor skipped. (A block with more than that many rows of one list for
 * one account is read as far as those rows go.) Internal transfers the account did not send have no
 * index in their block in this API; they take index 0.
 *
 * @example
 * const source = etherscanHistorySource({ chainId: 'eip155:1', url: 'https://api.etherscan.io/v2/api', apiKey, timeoutMs: 10_000, tokenLists })
 * const { data, next } = await source.page({ chainId: 'eip155:1', account })
 */
export function etherscanHistorySource(options: EtherscanSourceOptions): HistorySource {
  const { chainId, apiKey, timeoutMs } = options
  const chainNumber = /^eip155:(\d{1,15})$/.exec(chainId)?.[1]
  if (chainNumber === undefined) throw new Error(`etherscanHistorySource: ${chainId} is not an EVM network`)
  const swapRouter = options.network?.swapRouter?.toLowerCase()
  const onrampSenders = new Set((options.network?.onrampSenders ?? []).map((entry) => entry.toLowerCase()))
  /** Upstream text for logs: short, and without the key should an upstream echo it. */
  const loggable = (text: string) => {
    const short = text.slice(0, 200)
    return apiKey ? short.split(apiKey).join('[key]') : short
  }

  async function list<A extends Action>(
    action: A,
    account: string,
    endBlock: number | null,
    signal: AbortSignal,
  ): Promise<Rows[A]> {
    const url = new URL(options.url)
    const parameters: Record<string, string> = {
      chainid: chainNumber as string,
      module: 'account',
      action,
      address: account,
      startblock: '0',
      ...(endBlock === null ? {} : { endblock: String(endBlock) }),
      page: '1',
      offset: String(UPSTREAM_ROWS_PER_LIST),
      sort: 'desc',
      ...(apiKey ? { apikey: apiKey } : {}),
    }
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value)
    let text: string
    try {
      const response = await fetch(url, {
        signal,
        headers: { accept: 'application/json' },
        redirect: 'error',
      })
      if (!response.ok) {
        await response.body?.cancel().catch(() => {})
        throw bad(chainId, `answered HTTP ${response.status}`, { status: response.status })
      }
      text = await readLimited(response, UPSTREAM_MAX_BYTES, chainId)
    } catch (error) {
      if (error instanceof UpstreamError) throw error
      // Aborted while waiting for the headers or the body: the page's time is up.
      if (signal.aborted)
        throw new UpstreamError(
          'timeout',
          `The history upstream of ${chainId} did not answer within ${timeoutMs} ms`,
          { type: 'TimeoutError' },
        )
      throw new UpstreamError(
        'unreachable',
        `The history upstream of ${chainId} could not be reached`,
        summarizeUpstreamFailure(error, [options.url, url.toString()]),
      )
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw bad(chainId, 'answered something that is not JSON')
    }
    const answer = envelope.safeParse(json)
    if (!answer.success) throw bad(chainId, 'answered without its status envelope')
    const { status, message, result } = answer.data
    if (status === '0') {
      // "No transactions found" is Etherscan's way of saying none; anything else is a refusal.
      if (Array.isArray(result) && result.length === 0) return []
      const reason = typeof result === 'string' ? result : message
      if (/rate limit/i.test(reason))
        throw bad(chainId, 'is rate-limiting the service; try again shortly', { message: loggable(reason) })
      throw bad(chainId, 'refused the request', { message: loggable(reason) })
    }
    if (!Array.isArray(result)) throw bad(chainId, 'answered rows that are not a list')
    if (result.length > UPSTREAM_ROWS_PER_LIST)
      throw bad(chainId, `answered more than the ${UPSTREAM_ROWS_PER_LIST} rows asked for`)
    const rows = z.array(rowSchemas[action]).safeParse(result)
    if (!rows.success) throw bad(chainId, `answered ${action} rows of the wrong shape`)
    return rows.data as Rows[A]
  }

  return {
    async page(query) {
      const account = query.account.toLowerCase()
      const limit = query.limit === undefined ? defaultTransactionsPageSize : Number(query.limit)
      const cursor =
        query.cursor === undefined ? null : (query.cursor.split('-').map(Number) as [number, number])
      const controller = new AbortController()
      const timer = setTimeout(() => controller.abort(), timeoutMs)
      let lists: Rows
      try {
        const [txlist, tokentx, txlistinternal] = await Promise.all(
          actions.map((action) => list(action, account, cursor?.[0] ?? null, controller.signal)),
        )
        lists = { txlist, tokentx, txlistinternal } as Rows
      } finally {
        clearTimeout(timer)
        controller.abort()
      }

      // Where every full list is still complete: rows at or below its oldest block may be missing.
      const horizon = Math.max(
        -1,
        ...actions
          .filter((action) => lists[action].length === UPSTREAM_ROWS_PER_LIST)
          .map((action) => Math.min(...lists[action].map((row) => Number(row.blockNumber)))),
      )

      const transactions = new Map(lists.txlist.map((row) => [row.hash.toLowerCase(), row]))
      const kindOf = (hash: string, from: string): TransferRow['kind'] => {
        if (swapRouter !== undefined && transactions.get(hash)?.to.toLowerCase() === swapRouter) return 'swap'
        if (onrampSenders.has(from)) return 'onramp'
        return 'transfer'
      }
      const indexOf = (hash: string, fallback?: string) =>
        Number(transactions.get(hash)?.transactionIndex ?? fallback ?? 0)
      const rows = new Map<string, TransferRow>()
      const add = (row: Omit<TransferRow, 'chainId' | 'kind'>) => {
        const from = row.fromAddress
        if (from !== account && row.toAddress !== account) return
        rows.set(`${row.txHash}:${row.logIndex}`, { ...row, chainId, kind: kindOf(row.txHash, from) })
      }
      const base = (row: z.output<typeof internalRow>) => ({
        blockNumber: Number(row.blockNumber),
        txHash: row.hash.toLowerCase(),
        minedAt: new Date(Number(row.timeStamp) * 1000),
        fromAddress: row.from.toLowerCase(),
        // A contract creation's value goes to the new contract, as the indexer records it.
        toAddress: (row.to || '0x0000000000000000000000000000000000000000').toLowerCase(),
        amount: BigInt(row.value).toString(),
      })
      for (const row of lists.txlist) {
        if (row.isError === '1' || BigInt(row.value) === 0n) continue
        add({
          ...base(row),
          txIndex: Number(row.transactionIndex),
          logIndex: -1,
          token: NATIVE_TOKEN_ADDRESS,
        })
      }
      const internalCount = new Map<string, number>()
      for (const row of lists.txlistinternal) {
        if (row.isError === '1' || BigInt(row.value) === 0n) continue
        const hash = row.hash.toLowerCase()
        const position = internalCount.get(hash) ?? 0
        internalCount.set(hash, position + 1)
        add({ ...base(row), txIndex: indexOf(hash), logIndex: -2 - position, token: NATIVE_TOKEN_ADDRESS })
      }
      lists.tokentx.forEach((row, position) => {
        const hash = row.hash.toLowerCase()
        add({
          ...base(row),
          txIndex: indexOf(hash, row.transactionIndex),
          logIndex: row.logIndex === undefined ? position : Number(row.logIndex),
          token: row.contractAddress.toLowerCase(),
        })
      })

      const listed = listedTokens(options.tokenLists, chainId)
      const before = (row: TransferRow) =>
        cursor === null ||
        row.blockNumber < cursor[0] ||
        (row.blockNumber === cursor[0] && row.txIndex < cursor[1])
      const kept = [...rows.values()]
        .filter(
          (row) =>
            before(row) &&
            (query.includeSpam === 'true' || row.token === NATIVE_TOKEN_ADDRESS || listed.has(row.token)) &&
            (query.onramp !== 'true' || row.kind === 'onramp'),
        )
        .sort(
          (a, b) =>
            b.blockNumber - a.blockNumber ||
            b.txIndex - a.txIndex ||
            a.txHash.localeCompare(b.txHash) ||
            a.logIndex - b.logIndex,
        )
      const groups = groupByTransaction(kept)
      // Complete: newer than the horizon; when one block fills a list, that block is all there is.
      let complete = groups.filter((group) => (group[0] as TransferRow).blockNumber > horizon)
      let rest: string | null = horizon >= 0 ? `${horizon + 1}-0` : null
      if (complete.length === 0 && horizon >= 0) {
        complete = groups.filter((group) => (group[0] as TransferRow).blockNumber === horizon)
        rest = horizon > 0 ? `${horizon}-0` : null
      }
      // A page never ends between two transactions of one position (it is the cursor).
      let end = Math.min(limit, complete.length)
      const position = (group: TransferRow[] | undefined) =>
        group ? `${group[0]?.blockNumber}-${group[0]?.txIndex}` : ''
      while (end < complete.length && position(complete[end]) === position(complete[end - 1])) end++
      const page = complete.slice(0, end)
      return {
        data: page.map((transfers) => toTransaction(chainId, account, transfers, listed)),
        next: end < complete.length ? position(page[page.length - 1]) : rest,
      }
    },
  }
}
