import type { FastifyInstance } from 'fastify'
import type { TransactionsResponse } from '../../src/protocol/api/index.ts'
import { transactionsQuery } from '../../src/protocol/api/index.ts'
import type { ChainReader } from '../blockchain/chainReader.ts'
import { type DataLimits, dataRoutes } from '../blockchain/dataRoute.ts'
import type { TokenLists } from '../blockchain/tokenLists.ts'
import type { Db } from '../db/database.ts'
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
}

/**
 * `GET /blockchain/v1/transactions`: an account's transactions, from the history indexer's tables, the
 * network's upstream data source, or (Solana) the network itself. A route of the data API: same
 * project access, rate limit and upstream failures as the rest of `/blockchain/v1/*`.
 *
 * @example
 * await app.register(async (scope) => registerHistoryRoutes(scope, { limits, db, tokenLists, reader }))
 */
export function registerHistoryRoutes(app: FastifyInstance, options: HistoryRouteOptions): void {
  const { limits, db, tokenLists, reader, historySources = {} } = options
  const route = dataRoutes(app, limits)
  route(
    'transactions',
    transactionsQuery,
    (query): Promise<TransactionsResponse> =>
      query.chainId.startsWith('solana:')
        ? solanaTransactionsPage(reader, tokenLists, query)
        : (historySources[query.chainId]?.page(query) ?? transactionsPage(db, tokenLists, query)),
  )
}
