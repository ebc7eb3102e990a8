import { BaseError, type ErrorParameters } from './base.ts'

/**
 * The transaction history could not be fetched; the activity view shows its empty state.
 *
 * @example
 * throw new TransactionsFetchError({ cause })
 */
export class TransactionsFetchError extends BaseError {
  override name = 'TransactionsFetchError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Failed to fetch transactions', parameters)
  }
}

/**
 * Balances could not be fetched; shown as a toast.
 *
 * @example
 * throw new TokenBalanceUnavailableError({ cause })
 */
export class TokenBalanceUnavailableError extends BaseError {
  override name = 'TokenBalanceUnavailableError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Token Balance Unavailable', parameters)
  }
}
