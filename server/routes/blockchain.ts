import type { FastifyInstance, FastifyRequest } from 'fastify'
import type * as z from 'zod/mini'
import type {
  AllowanceResponse,
  BuildApproveResponse,
  BuildSwapResponse,
  GasPriceResponse,
  SwapQuoteResponse,
  TokenPriceResponse,
  TokensResponse,
  TransactionsResponse,
} from '../../src/protocol/api/index.ts'
import {
  allowanceQuery,
  buildApproveQuery,
  buildSwapQuery,
  chainQuery,
  swapQuoteQuery,
  tokenPriceQuery,
  transactionsQuery,
} from '../../src/protocol/api/index.ts'
import type { ChainReader } from '../blockchain/chainReader.ts'
import type { BlockchainData } from '../blockchain/data.ts'
import { dataError } from '../blockchain/errors.ts'
import type { TokenLists } from '../blockchain/tokenLists.ts'
import type { Db } from '../db/database.ts'
import { ServiceError } from '../errors.ts'
import { solanaTransactionsPage } from '../history/solana.ts'
import { transactionsPage } from '../history/transactions.ts'
import type { HistorySource } from '../history/upstream.ts'
import type { RateLimiter, RateLimitRules } from '../http/rateLimit.ts'
import { parseInput } from '../http/validation.ts'
import type { Project } from '../projects/store.ts'
import { UpstreamError } from '../rpc/forward.ts'

export interface BlockchainRouteOptions {
  data: BlockchainData
  /** `RATE_LIMIT_DATA` requests per second per client and project. */
  limits: { limiter: RateLimiter; rules: RateLimitRules }
  /** Where the history indexer stores transfers, and the token lists that say which tokens are not spam. */
  db: Db
  tokenLists: TokenLists
  /** Solana history is read from the network itself (`getSignaturesForAddress`, `getTransaction`). */
  reader: ChainReader
  /** Networks whose history comes from an upstream data source (`HISTORY_UPSTREAMS`), not the tables. */
  historySources?: Readonly<Record<string, HistorySource>>
}

/**
 * The blockchain data API (`/blockchain/v1/*`): token lists with prices, token prices, gas price, an
 * account's transactions (from the history indexer's tables, or the network's upstream source), and swaps (quote, allowance, build approve, build transaction). Project routes (project id, origin), each
 * request taken from the client's `data` rate limit. Upstream failures answer 502 or 504 without the
 * upstream's URL.
 *
 * @example
 * await app.register(async (scope) => registerBlockchainRoutes(scope, { data, limits }))
 */
export function registerBlockchainRoutes(app: FastifyInstance, options: BlockchainRouteOptions): void {
  const { data, limits, db, tokenLists, reader, historySources = {} } = options

  /**
   * A GET route: checks the query, takes from the rate limit, answers what `handle` resolves to. Swap
   * routes answer 403 to a project whose `swaps` feature is off.
   */
  function route<Schema extends z.ZodMiniType<{ chainId: string }>, Answer>(
    path: string,
    schema: Schema,
    handle: (query: z.output<Schema>, project: Project) => Promise<Answer>,
  ) {
    app.get(`/blockchain/v1/${path}`, { config: { access: 'project' } }, async (request: FastifyRequest) => {
      const query = parseInput(schema, request.query, 'query')
      const { project } = request
      if (!project) throw new Error('The access hook did not run')
      await limits.limiter.take({ projectId: project.id, address: request.ip }, [[limits.rules.data, 1]])
      if (path.startsWith('swap/') && !project.features.swaps) throw dataError('SWAPS_DISABLED', 403)
      try {
        return await handle(query, project)
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error
        request.log.warn(
          { chainId: query.chainId, failure: error.failure, upstream: error.detail },
          error.message,
        )
        throw new ServiceError(
          error.failure === 'timeout' ? 504 : 502,
          error.failure === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR',
          error.message,
        )
      }
    })
  }

  route('tokens', chainQuery, async (query, project): Promise<TokensResponse> => {
    const answer = await data.tokens(query.chainId)
    return { ...answer, swaps: answer.swaps && project.features.swaps }
  })

  route(
    'token-price',
    tokenPriceQuery,
    (query): Promise<TokenPriceResponse> => data.tokenPrices(query.chainId, query.addresses),
  )

  route(
    'transactions',
    transactionsQuery,
    (query): Promise<TransactionsResponse> =>
      query.chainId.startsWith('solana:')
        ? solanaTransactionsPage(reader, tokenLists, query)
        : (historySources[query.chainId]?.page(query) ?? transactionsPage(db, tokenLists, query)),
  )

  route('gas-price', chainQuery, (query): Promise<GasPriceResponse> => data.gasPrice(query.chainId))

  route(
    'swap/quote',
    swapQuoteQuery,
    async (query): Promise<SwapQuoteResponse> => ({
      quote: await data.market(query.chainId).quote({
        from: query.from,
        to: query.to,
        amountIn: BigInt(query.amount),
        userAddress: query.userAddress,
      }),
    }),
  )

  route('swap/allowance', allowanceQuery, async (query): Promise<AllowanceResponse> => {
    const market = data.market(query.chainId)
    const allowance = await market.allowance(query.token, query.owner)
    return { allowance: allowance.toString(), spender: market.spender }
  })

  route(
    'swap/build-approve',
    buildApproveQuery,
    async (query): Promise<BuildApproveResponse> => ({
      transaction: data.market(query.chainId).buildApprove(query.token, BigInt(query.amount)),
    }),
  )

  route(
    'swap/build-transaction',
    buildSwapQuery,
    (query): Promise<BuildSwapResponse> =>
      data.market(query.chainId).buildSwap({
        from: query.from,
        to: query.to,
        amountIn: BigInt(query.amount),
        userAddress: query.userAddress,
        minimumReceived: BigInt(query.minimumReceived),
      }),
  )
}
