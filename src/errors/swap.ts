import { BaseError, type ErrorParameters } from './base.ts'

/**
 * A swap quote is older than 30 s, or the pools moved past its minimum: the Swap view asks for a new
 * one before anything is sent.
 *
 * @example
 * throw new SwapQuoteExpiredError()
 */
export class SwapQuoteExpiredError extends BaseError {
  override name = 'SwapQuoteExpiredError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('The quote expired: check the new quote, then swap', parameters)
  }
}

/**
 * No pool (direct, or one hop through a hub token) gives anything for this swap.
 *
 * @example
 * throw new SwapNoLiquidityError()
 */
export class SwapNoLiquidityError extends BaseError {
  override name = 'SwapNoLiquidityError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Not enough liquidity for this swap', parameters)
  }
}
