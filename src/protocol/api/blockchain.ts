import * as z from 'zod/mini'
import { caip2NetworkId, commaList, resourceId } from './common.ts'

/**
 * The blockchain data API of the companion service (`/blockchain/v1/*`, SPEC section 7's "blockchain
 * data provider"): token lists with USD prices, token prices, gas price, and swaps (quote, allowance,
 * build approve, build transaction). Amounts are base units as decimal strings; prices are US dollars
 * per whole token, or `null` when the service has no price (it never makes one up).
 */

/** Error codes of the data API besides the common ones, with SPEC section 8's words where it has them. */
export const blockchainErrorCodes = [
  'SWAPS_NETWORK_NOT_SUPPORTED',
  'SWAPS_DISABLED',
  'GAS_PRICE_NETWORK_NOT_SUPPORTED',
  'SWAP_NO_LIQUIDITY',
  'SWAP_QUOTE_EXPIRED',
  'SWAP_INSUFFICIENT_BALANCE',
  'SWAP_ALLOWANCE_TOO_LOW',
] as const

export type BlockchainErrorCode = (typeof blockchainErrorCodes)[number]

/**
 * The fixed messages of the data API's errors.
 *
 * @example
 * if (body.error.code === 'SWAPS_NETWORK_NOT_SUPPORTED') show(blockchainErrorMessages.SWAPS_NETWORK_NOT_SUPPORTED)
 */
export const blockchainErrorMessages = {
  SWAPS_NETWORK_NOT_SUPPORTED: 'Network not supported for Swaps',
  SWAPS_DISABLED: 'Swaps are turned off for this project',
  GAS_PRICE_NETWORK_NOT_SUPPORTED: 'Network not supported for Gas Price',
  SWAP_NO_LIQUIDITY: 'Not enough liquidity for this swap',
  SWAP_QUOTE_EXPIRED: 'The quote has expired: the price moved since',
  SWAP_INSUFFICIENT_BALANCE: 'Insufficient balance',
  SWAP_ALLOWANCE_TOO_LOW: 'Approve the token first',
} as const satisfies Record<BlockchainErrorCode, string>

/** The word that stands for the network's native currency (ETH, SOL) where a token address goes. */
export const NATIVE_TOKEN_ADDRESS = 'native'

const tokenAddressPattern = /^(native|0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/

/**
 * A token as the data API names it: `native`, an EVM contract address or a Solana mint.
 *
 * @example
 * tokenAddress.parse('native')
 */
export const tokenAddress = z
  .string()
  .check(z.regex(tokenAddressPattern, 'Expected native, an EVM address or a Solana mint address'))

/** An EVM account or contract address, `0x` and 40 hex digits. */
export const evmAddress = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an EVM address'))

/** A whole amount of base units (wei, token units), a decimal string that fits in 256 bits. */
export const baseUnits = z.string().check(
  z.regex(/^(0|[1-9]\d{0,77})$/, 'Expected a whole number of base units'),
  z.refine((value) => !/^\d+$/.test(value) || BigInt(value) < 2n ** 256n, 'Expected a number below 2^256'),
)

/** A USD price per whole token, or null when the service has none. */
const usdPrice = z.nullable(z.number().check(z.gte(0)))

/** Query of the endpoints that take only a network. */
export const chainQuery = z.object({ chainId: caip2NetworkId })

/**
 * One token of a network's list, with its price.
 *
 * @example
 * const token = listedToken.parse({ address: '0x…', symbol: 'USDC', name: 'USD Coin', decimals: 6, imageId: 'USDC', price: 1 })
 */
export const listedToken = z.object({
  address: z.string(),
  symbol: z.string(),
  name: z.string(),
  decimals: z.int().check(z.gte(0), z.lte(255)),
  /** For `/public/getTokenImage/{imageId}`; absent when the service has no image. */
  imageId: z.optional(resourceId),
  price: usdPrice,
})

export type ListedToken = z.infer<typeof listedToken>

/**
 * Answer of `GET /blockchain/v1/tokens?chainId=`: the network's token list with prices, the native
 * currency's price, whether swaps are available, and where Multicall3 is (null when the service knows
 * of none). A network the service knows nothing about has an empty list and no prices.
 *
 * @example
 * const { tokens, native, swaps } = tokensResponse.parse(await response.json())
 */
export const tokensResponse = z.object({
  chainId: caip2NetworkId,
  native: z.object({ price: usdPrice }),
  tokens: z.array(listedToken),
  swaps: z.boolean(),
  multicall: z.nullable(evmAddress),
})

export type TokensResponse = z.infer<typeof tokensResponse>

/** Most tokens one price request may ask for. */
export const maxPriceAddresses = 100

/**
 * Query of `GET /blockchain/v1/token-price`: a network and up to 100 comma-separated tokens.
 *
 * @example
 * tokenPriceQuery.parse({ chainId: 'eip155:31337', addresses: 'native,0x…' })
 */
export const tokenPriceQuery = z.object({
  chainId: caip2NetworkId,
  addresses: commaList(tokenAddress, maxPriceAddresses),
})

/**
 * Answer of `GET /blockchain/v1/token-price`: one entry per asked token, in order.
 *
 * @example
 * const { prices } = tokenPriceResponse.parse(await response.json())
 */
export const tokenPriceResponse = z.object({
  prices: z.array(z.object({ address: z.string(), price: usdPrice })),
})

export type TokenPriceResponse = z.infer<typeof tokenPriceResponse>

/**
 * Answer of `GET /blockchain/v1/gas-price?chainId=`: the network's gas price in wei.
 *
 * @example
 * const { gasPrice } = gasPriceResponse.parse(await response.json())
 */
export const gasPriceResponse = z.object({ gasPrice: baseUnits })

export type GasPriceResponse = z.infer<typeof gasPriceResponse>

/**
 * Query of `GET /blockchain/v1/swap/quote`: sell `amount` base units of `from` for `to`. With
 * `userAddress`, the gas is estimated for that account (when it could send the swap now).
 *
 * @example
 * swapQuoteQuery.parse({ chainId: 'eip155:31337', from: 'native', to: '0x…', amount: '100000000000000000' })
 */
export const swapQuoteQuery = z.object({
  chainId: caip2NetworkId,
  from: tokenAddress,
  to: tokenAddress,
  amount: baseUnits,
  userAddress: z.optional(evmAddress),
})

/**
 * A swap quote: what selling `amountIn` of `from` gives now through the best route (direct, or one
 * hop through a hub token), the least the swap accepts at the slippage tolerance (SPEC: 1 %), the
 * price impact against the pools' mid price (percent, fees aside), the gas it takes, and when the
 * quote expires (ms since the epoch). `spender` is the contract an ERC-20 `from` must be approved for.
 *
 * @example
 * const { quote } = swapQuoteResponse.parse(await response.json())
 * const fee = BigInt(quote.gas) * BigInt(gasPrice)
 */
export const swapQuote = z.object({
  chainId: caip2NetworkId,
  from: z.string(),
  to: z.string(),
  amountIn: baseUnits,
  amountOut: baseUnits,
  minimumReceived: baseUnits,
  slippagePercent: z.number(),
  priceImpactPercent: z.number(),
  path: z.array(evmAddress),
  gas: baseUnits,
  spender: evmAddress,
  expiresAt: z.number(),
})

export type SwapQuote = z.infer<typeof swapQuote>

export const swapQuoteResponse = z.object({ quote: swapQuote })
export type SwapQuoteResponse = z.infer<typeof swapQuoteResponse>

/**
 * Query of `GET /blockchain/v1/swap/allowance`: how much `owner` lets the swap contract take of `token`.
 *
 * @example
 * allowanceQuery.parse({ chainId: 'eip155:31337', token: '0x…', owner: '0x…' })
 */
export const allowanceQuery = z.object({ chainId: caip2NetworkId, token: evmAddress, owner: evmAddress })

export const allowanceResponse = z.object({ allowance: baseUnits, spender: evmAddress })
export type AllowanceResponse = z.infer<typeof allowanceResponse>

/** A transaction for the wallet's `eth_sendTransaction` (value and gas in wei, as decimal strings). */
export const builtTransaction = z.object({
  from: z.optional(evmAddress),
  to: evmAddress,
  data: z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'Expected hex data')),
  value: baseUnits,
  gas: z.optional(baseUnits),
})

export type BuiltTransaction = z.infer<typeof builtTransaction>

/**
 * Query of `GET /blockchain/v1/swap/build-approve`: an ERC-20 `approve` of `amount` for the swap
 * contract (exactly the amount, never unlimited).
 *
 * @example
 * buildApproveQuery.parse({ chainId: 'eip155:31337', token: '0x…', amount: '10000000' })
 */
export const buildApproveQuery = z.object({ chainId: caip2NetworkId, token: evmAddress, amount: baseUnits })

export const buildApproveResponse = z.object({ transaction: builtTransaction })
export type BuildApproveResponse = z.infer<typeof buildApproveResponse>

/**
 * Query of `GET /blockchain/v1/swap/build-transaction`: the swap of a quote, for `userAddress`, which
 * accepts no less than `minimumReceived` (the quote's).
 *
 * @example
 * buildSwapQuery.parse({ chainId, from: 'native', to: usdc, amount, userAddress, minimumReceived: quote.minimumReceived })
 */
export const buildSwapQuery = z.object({
  chainId: caip2NetworkId,
  from: tokenAddress,
  to: tokenAddress,
  amount: baseUnits,
  userAddress: evmAddress,
  minimumReceived: baseUnits,
})

/**
 * Answer of `GET /blockchain/v1/swap/build-transaction`: the transaction (gas estimated for the user)
 * and the fresh quote it was built from.
 *
 * @example
 * const { transaction } = buildSwapResponse.parse(await response.json())
 */
export const buildSwapResponse = z.object({ transaction: builtTransaction, quote: swapQuote })
export type BuildSwapResponse = z.infer<typeof buildSwapResponse>
