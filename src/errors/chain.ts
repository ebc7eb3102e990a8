import { BaseError, type ErrorParameters } from './base.ts'

type ChainParameters = ErrorParameters & { caipNetworkId?: string | undefined }

const chainDetails = (caipNetworkId: string | undefined) =>
  caipNetworkId ? { details: `Network: ${caipNetworkId}` } : {}

/**
 * Swaps were asked for on a network the swap service does not cover.
 *
 * @example
 * throw new SwapsNetworkNotSupportedError({ caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })
 */
export class SwapsNetworkNotSupportedError extends BaseError {
  override name = 'SwapsNetworkNotSupportedError' as const
  constructor({ caipNetworkId, ...rest }: ChainParameters = {}) {
    super('Network not supported for Swaps', { ...chainDetails(caipNetworkId), ...rest })
  }
}

/**
 * A gas price was asked for on a network the data service does not cover.
 *
 * @example
 * throw new GasPriceNetworkNotSupportedError({ caipNetworkId })
 */
export class GasPriceNetworkNotSupportedError extends BaseError {
  override name = 'GasPriceNetworkNotSupportedError' as const
  constructor({ caipNetworkId, ...rest }: ChainParameters = {}) {
    super('Network not supported for Gas Price', { ...chainDetails(caipNetworkId), ...rest })
  }
}

/**
 * The chain is not among those the application supports.
 *
 * @example
 * throw new ChainNotSupportedError({ caipNetworkId: 'eip155:56' })
 */
export class ChainNotSupportedError extends BaseError {
  override name = 'ChainNotSupportedError' as const
  constructor({ caipNetworkId, ...rest }: ChainParameters = {}) {
    super('Chain is not supported', { ...chainDetails(caipNetworkId), ...rest })
  }
}

/**
 * The wallet is on a chain the application does not offer (the UnsupportedChain view).
 *
 * @example
 * throw new UnsupportedChainError({ caipNetworkId: 'eip155:250' })
 */
export class UnsupportedChainError extends BaseError {
  override name = 'UnsupportedChainError' as const
  constructor({ caipNetworkId, ...rest }: ChainParameters = {}) {
    super('Unsupported chain', { ...chainDetails(caipNetworkId), ...rest })
  }
}

/**
 * Disconnecting failed.
 *
 * @example
 * throw new FailedToDisconnectError({ cause })
 */
export class FailedToDisconnectError extends BaseError {
  override name = 'FailedToDisconnectError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Failed to disconnect', parameters)
  }
}

/**
 * The wallet does not know the chain (EIP-1193 code 4902); add it, then switch again.
 *
 * @example
 * throw new UnrecognizedChainError({ caipNetworkId: 'eip155:31337' })
 */
export class UnrecognizedChainError extends BaseError {
  override name = 'UnrecognizedChainError' as const
  constructor({ caipNetworkId, ...rest }: ChainParameters = {}) {
    super('Unrecognized chain', { ...chainDetails(caipNetworkId), ...rest, code: 4902 })
  }
}

/**
 * The wallet rejected the chain id itself (code 32603); handled like an unrecognized chain.
 *
 * @example
 * throw new InvalidChainIdError({ caipNetworkId: 'eip155:31337' })
 */
export class InvalidChainIdError extends BaseError {
  override name = 'InvalidChainIdError' as const
  constructor({ caipNetworkId, ...rest }: ChainParameters = {}) {
    super('Invalid chain id', { ...chainDetails(caipNetworkId), ...rest, code: 32603 })
  }
}
