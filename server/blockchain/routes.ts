import type { FastifyInstance } from 'fastify'
import type {
  AllowanceResponse,
  BuildApproveResponse,
  BuildSwapResponse,
  GasPriceResponse,
  SwapQuoteResponse,
  TokenPriceResponse,
  TokensResponse,
} from '../../src/protocol/api/index.ts'
import {
  allowanceQuery,
  buildApproveQuery,
  buildSwapQuery,
  chainQuery,
  swapQuoteQuery,
  tokenPriceQuery,
} from '../../src/protocol/api/index.ts'
import type { BlockchainData } from './data.ts'
import { type DataLimits, dataRoutes } from './dataRoute.ts'

export interface BlockchainRouteOptions {
  data: BlockchainData
  limits: DataLimits
}

/**
 * The blockchain data API (`/blockchain/v1/*`): token lists with prices, token prices, gas price, and
 * swaps (quote, allowance, build approve, build transaction). An account's transactions are the
 * history context's (`server/history/routes.ts`), on the same footing ({@link dataRoutes}).
 *
 * @example
 * await app.register(async (scope) => registerBlockchainRoutes(scope, { data, limits }))
 */
export function registerBlockchainRoutes(app: FastifyInstance, options: BlockchainRouteOptions): void {
  const { data, limits } = options
  const route = dataRoutes(app, limits)

  route('tokens', chainQuery, async (query, project): Promise<TokensResponse> => {
    const answer = await data.tokens(query.chainId)
    return { ...answer, swaps: answer.swaps && project.features.swaps }
  })

  route(
    'token-price',
    tokenPriceQuery,
    (query): Promise<TokenPriceResponse> => data.tokenPrices(query.chainId, query.addresses),
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
