import type { FastifyInstance } from 'fastify'
import type { TransactionsResponse } from '../../src/protocol/api/index.ts'
import { transactionsQuery, transactionsResponse } from '../../src/protocol/api/index.ts'
import type { ChainReader } from '../blockchain/chainReader.ts'
import { type DataLimits, dataRoutes } from '../blockchain/dataRoute.ts'
import type { TokenLists } from '../blockchain/tokenLists.ts'
import type { Db } from '../db/database.ts'
import { bitcoinTransactionsPage } from './bitcoin.ts'
import { solanaTransactionsPage } from './solana.ts'
import { transactionsPage } from './transactions.ts'
import type { HistorySource } from './upstream.ts'

export interface HistoryRouteOptions {
  limits: DataLimits
  /** Where the history indexer stores transfers, and the token lists that say which tokens are not spam. */
  db: Db
  tokenLists: TokenLists
  /** Solana history is read from the network itself (`getSignaturesForAddress`, `getTransaction`). */
  reader: ChainReader
  /** Networks whose history comes from an upstream data source (`HISTORY_UPSTREAMS`), not the tables. */
  historySources?: Readonly<Record<string, HistorySource>>
  /** Bitcoin history is read from each bip122 network's node (Esplora's API; bcoin's on regtest). */
  bitcoin?: { nodes: Readonly<Record<string, string>>; timeoutMs: number }
}

/**
 * `GET /blockchain/v1/transactions`: an account's transactions, from the history indexer's tables, the
 * network's upstream data source, or (Solana, Bitcoin) the network itself. A route of the data API: same
 * project access, rate limit and upstream failures as the rest of `/blockchain/v1/*`.
 *
 * @example
 * await app.register(async (scope) => registerHistoryRoutes(scope, { limits, db, tokenLists, reader }))
 */
export function registerHistoryRoutes(app: FastifyInstance, options: HistoryRouteOptions): void {
  const { limits, db, tokenLists, reader, historySources = {}, bitcoin } = options
  const route = dataRoutes(app, limits)
  route(
    {
      path: 'transactions',
      summary: "An account's transactions, newest first",
      description: 'One page; pass `next` back as `cursor` for the following one.',
      query: transactionsQuery,
      response: transactionsResponse,
    },
    (query): Promise<TransactionsResponse> => {
      if (query.chainId.startsWith('solana:')) return solanaTransactionsPage(reader, tokenLists, query)
      if (query.chainId.startsWith('bip122:'))
        return bitcoinTransactionsPage(bitcoin?.nodes[query.chainId], query, bitcoin?.timeoutMs ?? 10_000)
      return historySources[query.chainId]?.page(query) ?? transactionsPage(db, tokenLists, query)
    },
  )
}
