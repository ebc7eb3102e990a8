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
  allowanceResponse,
  buildApproveQuery,
  buildApproveResponse,
  buildSwapQuery,
  buildSwapResponse,
  chainQuery,
  gasPriceResponse,
  swapQuoteQuery,
  swapQuoteResponse,
  tokenPriceQuery,
  tokenPriceResponse,
  tokensResponse,
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

  route(
    {
      path: 'tokens',
      summary: "The network's token list, with prices",
      description:
        'The native currency, the listed tokens, whether swaps are on, and the Multicall3 address.',
      query: chainQuery,
      response: tokensResponse,
    },
    async (query, project): Promise<TokensResponse> => {
      const answer = await data.tokens(query.chainId)
      return { ...answer, swaps: answer.swaps && project.features.swaps }
    },
  )

  route(
    {
      path: 'token-price',
      summary: 'Prices of tokens, in USD',
      query: tokenPriceQuery,
      response: tokenPriceResponse,
    },
    (query): Promise<TokenPriceResponse> => data.tokenPrices(query.chainId, query.addresses),
  )

  route(
    { path: 'gas-price', summary: "The network's gas price", query: chainQuery, response: gasPriceResponse },
    (query): Promise<GasPriceResponse> => data.gasPrice(query.chainId),
  )

  route(
    {
      path: 'swap/quote',
      summary: 'A swap quote',
      query: swapQuoteQuery,
      response: swapQuoteResponse,
    },
    async (query): Promise<SwapQuoteResponse> => ({
      quote: await data.market(query.chainId).quote({
        from: query.from,
        to: query.to,
        amountIn: BigInt(query.amount),
        userAddress: query.userAddress,
      }),
    }),
  )

  route(
    {
      path: 'swap/allowance',
      summary: "The swap router's allowance of a token",
      query: allowanceQuery,
      response: allowanceResponse,
    },
    async (query): Promise<AllowanceResponse> => {
      const market = data.market(query.chainId)
      const allowance = await market.allowance(query.token, query.owner)
      return { allowance: allowance.toString(), spender: market.spender }
    },
  )

  route(
    {
      path: 'swap/build-approve',
      summary: "The transaction that approves the swap router's spending",
      query: buildApproveQuery,
      response: buildApproveResponse,
    },
    async (query): Promise<BuildApproveResponse> => ({
      transaction: data.market(query.chainId).buildApprove(query.token, BigInt(query.amount)),
    }),
  )

  route(
    {
      path: 'swap/build-transaction',
      summary: 'The swap transaction, with its quote',
      query: buildSwapQuery,
      response: buildSwapResponse,
    },
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
