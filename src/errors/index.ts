// The embedded wallet's errors (`email.ts`, `embedded.ts`) are imported from their own modules, as
// Solana's are: re-exported here, every module that imports this one would carry them (wallet
// discovery's idle chunk on every page).
export { RequestAbortedError } from './abort.ts'
export {
  BaseError,
  type BaseErrorParameters,
  type ErrorParameters,
  type ErrorSummary,
  isBaseError,
  summarizeError,
} from './base.ts'
export {
  ChainNotSupportedError,
  FailedToDisconnectError,
  GasPriceNetworkNotSupportedError,
  InvalidChainIdError,
  SwapsNetworkNotSupportedError,
  UnrecognizedChainError,
  UnsupportedChainError,
} from './chain.ts'
export {
  InvalidAppConfigurationError,
  InvalidProjectIdError,
  NetworkNotFoundError,
  ProjectIdNotConfiguredError,
} from './config.ts'
export { TokenBalanceUnavailableError, TransactionsFetchError } from './data.ts'
export {
  ExecutionRevertedError,
  FeeCapTooHighError,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooHighError,
  IntrinsicGasTooLowError,
  InvalidResponseError,
  NonceMaxValueError,
  NonceTooHighError,
  NonceTooLowError,
  type ParseRpcErrorParameters,
  ProviderDisconnectedError,
  parseRpcError,
  RequestTimeoutError,
  type RpcErrorType,
  RpcRequestError,
  TipAboveFeeCapError,
  TransactionTypeNotSupportedError,
  UserRejectedRequestError,
} from './rpc.ts'
export { SessionExpiredError } from './session.ts'
export { AuthenticationInitError, SignatureDeclinedError, SmartAccountNotSupportedError } from './siwx.ts'
export { SwapNoLiquidityError, SwapQuoteExpiredError } from './swap.ts'
export { toBaseError, UnknownError } from './unknown.ts'
export { ValidationError } from './validation.ts'

/**
 * Numeric codes of the error catalogue (SPEC section 8) and of EIP-1193.
 *
 * @example
 * if (error.code === ERROR_CODES.unrecognizedChain) await addChain()
 */
export const ERROR_CODES = {
  unrecognizedChain: 4902,
  default: 5000,
  invalidChainId: 32603,
  userRejected: 4001,
  disconnected: 4900,
} as const
