import type { Address } from 'viem'
import type { GasPriceResponse, TokenPriceResponse, TokensResponse } from '../../src/protocol/api/index.ts'
import { NATIVE_TOKEN_ADDRESS } from '../../src/protocol/api/index.ts'
import { PORTFOLIO_CACHE_MS } from '../../src/protocol/constants.ts'
import { createTtlCache } from '../cache.ts'
import type { ChainReader } from './chainReader.ts'
import { dataError } from './errors.ts'
import type { PriceSource } from './priceSource.ts'
import { MULTICALL3_ADDRESS, type NetworkTokenList, type TokenLists } from './tokenLists.ts'
import { type UniswapV2Market, uniswapV2Market } from './uniswapV2.ts'

/** Prices of one network, by {@link priceKey} (`native` for the native currency). */
type PriceMap = ReadonlyMap<string, number>

/** EVM addresses are compared in lower case; Solana's base58 is case-sensitive. */
const priceKey = (chainId: string, address: string) =>
  chainId.startsWith('eip155:') ? address.toLowerCase() : address

export interface BlockchainData {
  /** The network's token list with prices (an empty list for a network the service knows nothing of). */
  tokens(chainId: string): Promise<TokensResponse>
  /** Prices of the given tokens, in order; null where there is none. */
  tokenPrices(chainId: string, addresses: readonly string[]): Promise<TokenPriceResponse>
  /** The gas price of an EVM network the service has an upstream for. */
  gasPrice(chainId: string): Promise<GasPriceResponse>
  /** The network's swap market; throws `Network not supported for Swaps` when it has none. */
  market(chainId: string): UniswapV2Market
  /** Networks with swaps. */
  readonly swapNetworks: readonly string[]
}

export interface BlockchainDataOptions {
  tokenLists: TokenLists
  reader: ChainReader
  /** The operator's price source for networks without a market; none: no prices there. */
  priceSource: PriceSource | undefined
  /** How long prices are reused, in ms; 30 s (SPEC: portfolio cache) by default. */
  cacheMs?: number
  now?: () => number
}

/**
 * A USD price from a pool's reserves: `stable` (in the stablecoin's units) per `token` (in its units),
 * per whole token.
 */
function poolPrice(
  token: bigint,
  tokenDecimals: number,
  stable: bigint,
  stableDecimals: number,
): number | undefined {
  if (token === 0n || stable === 0n) return undefined
  const scale = 10n ** 12n
  return (
    Number((stable * 10n ** BigInt(tokenDecimals) * scale) / (token * 10n ** BigInt(stableDecimals))) / 1e12
  )
}

/**
 * The blockchain data API's logic: token lists, prices (from the pools of networks with a market,
 * against the stablecoin; elsewhere from the operator's price source, or none), gas prices and the
 * swap markets.
 *
 * @example
 * const data = createBlockchainData({ tokenLists: config.tokenLists, reader, priceSource: undefined })
 * const { tokens } = await data.tokens('eip155:31337')
 */
export function createBlockchainData(options: BlockchainDataOptions): BlockchainData {
  const cacheMs = options.cacheMs ?? PORTFOLIO_CACHE_MS
  const now = options.now ?? Date.now
  const markets = new Map<string, UniswapV2Market>()
  for (const [chainId, list] of Object.entries(options.tokenLists)) {
    const { uniswapV2 } = list
    if (uniswapV2 && options.reader.has(chainId))
      markets.set(chainId, uniswapV2Market(chainId, { ...list, uniswapV2 }, options.reader, now))
  }
  const poolPriceCache = createTtlCache<PriceMap>({ ttlMs: cacheMs, now })
  // One entry per network and token (null: the source has no price), so a request that mixes known
  // tokens with new ones asks the source only for the new ones.
  const sourceCache = createTtlCache<number | null>({ ttlMs: cacheMs, maxEntries: 10_000, now })

  async function pricesFromPools(list: NetworkTokenList, market: UniswapV2Market): Promise<PriceMap> {
    const stablecoin = list.stablecoin as Address
    const weth = list.uniswapV2?.weth as Address
    const decimals = new Map(list.tokens.map((token) => [token.address.toLowerCase(), token.decimals]))
    const decimalsOf = (address: string) => decimals.get(address.toLowerCase()) ?? 18
    const others = list.tokens
      .map((token) => token.address as Address)
      .filter((address) => address.toLowerCase() !== stablecoin.toLowerCase())
    const direct = others.map((address) => [address, stablecoin] as [Address, Address])
    const viaWeth = others
      .filter((address) => address.toLowerCase() !== weth.toLowerCase())
      .map((address) => [address, weth] as [Address, Address])
    const reserves = await market.reserves([...direct, ...viaWeth])
    const prices = new Map<string, number>([[stablecoin.toLowerCase(), 1]])
    direct.forEach(([address], index) => {
      const pool = reserves[index]
      const price =
        pool && poolPrice(pool.reserveIn, decimalsOf(address), pool.reserveOut, decimalsOf(stablecoin))
      if (price !== undefined) prices.set(address.toLowerCase(), price)
    })
    const wethPrice = prices.get(weth.toLowerCase())
    viaWeth.forEach(([address], index) => {
      const pool = reserves[direct.length + index]
      if (prices.has(address.toLowerCase()) || wethPrice === undefined || !pool) return
      const inWeth = poolPrice(pool.reserveIn, decimalsOf(address), pool.reserveOut, 18)
      if (inWeth !== undefined) prices.set(address.toLowerCase(), inWeth * wethPrice)
    })
    if (wethPrice !== undefined) prices.set(NATIVE_TOKEN_ADDRESS, wethPrice)
    return prices
  }

  /**
   * Prices of `addresses` on `chainId`, by {@link priceKey}. The price source is asked only about the
   * networks this service serves (an RPC upstream or a token list), each token at most once per
   * `cacheMs`, in one request for all the tokens not yet known.
   */
  async function pricesOf(chainId: string, addresses: readonly string[]): Promise<PriceMap> {
    const list = options.tokenLists[chainId]
    const market = markets.get(chainId)
    if (list && market) return poolPriceCache.get(chainId, () => pricesFromPools(list, market))
    const source = options.priceSource
    if (!source || addresses.length === 0 || !(list || options.reader.has(chainId))) return new Map()
    const keys = [...new Set(addresses.map((address) => priceKey(chainId, address)))].sort()
    const missing: string[] = []
    let asked: Promise<PriceMap> | undefined
    const prices = await Promise.all(
      keys.map((key) =>
        sourceCache.get(`${chainId} ${key}`, () => {
          missing.push(key)
          // Started after every key has been looked at, so one request asks for all the missing ones.
          asked ??= Promise.resolve().then(async () => {
            const found = await source.prices(chainId, missing)
            return new Map([...found].map(([address, price]) => [priceKey(chainId, address), price]))
          })
          return asked.then((found) => found.get(key) ?? null)
        }),
      ),
    )
    return new Map(
      keys.flatMap((key, index) => {
        const price = prices[index]
        return price === null || price === undefined ? [] : [[key, price] as const]
      }),
    )
  }

  return {
    swapNetworks: [...markets.keys()].sort(),

    async tokens(chainId) {
      const list = options.tokenLists[chainId]
      const tokens = list?.tokens ?? []
      const prices = await pricesOf(chainId, [NATIVE_TOKEN_ADDRESS, ...tokens.map((token) => token.address)])
      const evm = chainId.startsWith('eip155:')
      return {
        chainId,
        native: { price: prices.get(NATIVE_TOKEN_ADDRESS) ?? null },
        tokens: tokens.map((token) => ({
          address: token.address,
          symbol: token.symbol,
          name: token.name,
          decimals: token.decimals,
          imageId: token.imageId ?? token.symbol,
          price: prices.get(priceKey(chainId, token.address)) ?? null,
        })),
        swaps: markets.has(chainId),
        multicall: evm && options.reader.has(chainId) ? (list?.multicall ?? MULTICALL3_ADDRESS) : null,
      }
    },

    async tokenPrices(chainId, addresses) {
      const prices = await pricesOf(chainId, addresses)
      return {
        prices: addresses.map((address) => ({
          address,
          price: prices.get(priceKey(chainId, address)) ?? null,
        })),
      }
    },

    async gasPrice(chainId) {
      if (!chainId.startsWith('eip155:') || !options.reader.has(chainId))
        throw dataError('GAS_PRICE_NETWORK_NOT_SUPPORTED', 400)
      const [answer] = await options.reader.batch(chainId, [{ method: 'eth_gasPrice', params: [] }])
      if (!answer?.ok || typeof answer.result !== 'string' || !/^0x[0-9a-fA-F]+$/.test(answer.result))
        throw dataError('UPSTREAM_ERROR', 502, `The RPC upstream for ${chainId} gave no gas price`)
      return { gasPrice: BigInt(answer.result).toString() }
    },

    market(chainId) {
      const market = markets.get(chainId)
      if (!market) throw dataError('SWAPS_NETWORK_NOT_SUPPORTED', 400)
      return market
    },
  }
}
