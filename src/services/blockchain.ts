import type * as z from 'zod/mini'
import {
  type AllowanceResponse,
  allowanceResponse,
  type BuildApproveResponse,
  type BuildSwapResponse,
  buildApproveResponse,
  buildSwapResponse,
  type GasPriceResponse,
  gasPriceResponse,
  type SwapQuote,
  swapQuoteResponse,
  type TokenPriceResponse,
  type TokensResponse,
  tokenPriceResponse,
  tokensResponse,
} from '../protocol/api/blockchain.ts'
import { type TransactionsResponse, transactionsResponse } from '../protocol/api/history.ts'
import type { HttpClient } from './http.ts'

/**
 * The companion service's blockchain data API (`/blockchain/v1/*`, docs/API.md): token lists with USD
 * prices, token prices, gas price, an account's transactions (cursor pages) and swaps. Every answer is checked; the service's errors become the
 * catalogue's (`Network not supported for Swaps`, `Network not supported for Gas Price`, …) in
 * `services/http.ts`.
 *
 * @example
 * const data = blockchainApi(http)
 * const { tokens, native } = await data.tokens('eip155:31337')
 */
export function blockchainApi(http: HttpClient) {
  const get = <T>(path: string, query: Record<string, string | undefined>, schema: z.ZodMiniType<T>) =>
    http.getJson(`/blockchain/v1/${path}`, query, schema)
  return {
    tokens: (chainId: string): Promise<TokensResponse> => get('tokens', { chainId }, tokensResponse),
    tokenPrices: (chainId: string, addresses: readonly string[]): Promise<TokenPriceResponse> =>
      get('token-price', { chainId, addresses: addresses.join(',') }, tokenPriceResponse),
    gasPrice: (chainId: string): Promise<GasPriceResponse> => get('gas-price', { chainId }, gasPriceResponse),
    transactions: (query: {
      chainId: string
      account: string
      cursor?: string
    }): Promise<TransactionsResponse> => get('transactions', query, transactionsResponse),
    quote: async (query: {
      chainId: string
      from: string
      to: string
      amount: string
      userAddress?: string
    }): Promise<SwapQuote> => (await get('swap/quote', query, swapQuoteResponse)).quote,
    allowance: (query: { chainId: string; token: string; owner: string }): Promise<AllowanceResponse> =>
      get('swap/allowance', query, allowanceResponse),
    buildApprove: (query: {
      chainId: string
      token: string
      amount: string
    }): Promise<BuildApproveResponse> => get('swap/build-approve', query, buildApproveResponse),
    buildSwap: (query: {
      chainId: string
      from: string
      to: string
      amount: string
      userAddress: string
      minimumReceived: string
    }): Promise<BuildSwapResponse> => get('swap/build-transaction', query, buildSwapResponse),
  }
}

export type BlockchainApi = ReturnType<typeof blockchainApi>
