import { NATIVE_TOKEN_ADDRESS } from '../../../src/protocol/api/blockchain.ts'
import { createChainReader } from '../../blockchain/chainReader.ts'
import { createBlockchainData } from '../../blockchain/data.ts'
import { httpPriceSource } from '../../blockchain/priceSource.ts'
import type { ServiceConfig } from '../../config.ts'
import type { ServiceLogger } from '../../logger.ts'
import type { RpcForwarder } from '../../rpc/forward.ts'

const quiet: ServiceLogger = { info() {}, warn() {}, error() {}, debug() {} }

/** The USD price of one whole unit of a network's native currency; undefined when none is known. */
export type NativeUsdPrice = (chainId: string) => Promise<number | undefined>

export interface NativeUsdPriceOptions {
  forwarder: RpcForwarder
  /** Where a failing price source is reported (without its URL). */
  logger?: ServiceLogger
  now?: () => number
}

/**
 * The native currency's USD price from the same source as the Account view's balances
 * (`/blockchain/v1/tokens`): the network's own market where it has one, else the operator's
 * `PRICE_SOURCE_URL`, else none (never made up). Prices are reused 30 s, as there.
 *
 * @example
 * const price = nativeUsdPrice(config, { forwarder, logger })
 * await price('eip155:31337') // 2987.4
 */
export function nativeUsdPrice(config: ServiceConfig, options: NativeUsdPriceOptions): NativeUsdPrice {
  const data = createBlockchainData({
    tokenLists: config.tokenLists,
    reader: createChainReader({
      upstreams: config.rpcUpstreams,
      forwarder: options.forwarder,
      timeoutMs: config.rpcTimeoutMs,
    }),
    priceSource:
      config.priceSourceUrl === null
        ? undefined
        : httpPriceSource(config.priceSourceUrl, { logger: options.logger ?? quiet }),
    ...(options.now ? { now: options.now } : {}),
  })
  return async (chainId) => {
    try {
      const { prices } = await data.tokenPrices(chainId, [NATIVE_TOKEN_ADDRESS])
      return prices[0]?.price ?? undefined
    } catch {
      // No market reachable now: the approval shows the fee without its value.
      return undefined
    }
  }
}

/**
 * A fee in base units, in USD at `price` per whole unit (`decimals` of them); undefined when the price
 * is unknown.
 *
 * @example
 * feeInUsd(42_000_000_000_000n, 18, 3000) // 0.126
 */
export function feeInUsd(fee: bigint, decimals: number, price: number | undefined): number | undefined {
  if (price === undefined || !Number.isFinite(price) || price < 0) return undefined
  // Whole units as a float is exact enough for a value shown to the cent.
  const whole = Number(fee) / 10 ** decimals
  const usd = whole * price
  return Number.isFinite(usd) ? usd : undefined
}
