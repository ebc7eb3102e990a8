/**
 * The service's side of the typed-data preview (src/protocol/embedded/preview/typedData.ts, which the
 * frame runs too): its refusals answered as the service's errors, a reserved domain as 403 (4100), any
 * other as `Invalid params`.
 */
import type { Address } from 'viem'
import {
  refuseReservedDomain as refuseReserved,
  reservedDomainMessage,
  typedDataRows as rowsOf,
  type TypedDataInput,
  TypedDataRefusedError,
  type TypedDataRows,
} from '../../../src/protocol/embedded/preview/typedData.ts'
import { EmbeddedError } from '../errors.ts'

export { reservedDomainMessage }

/** Runs a typed-data rule; its refusal answered as the service's error. */
function asServiceError<T>(run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (!(error instanceof TypedDataRefusedError)) throw error
    throw error.reserved
      ? new EmbeddedError(403, 'FORBIDDEN', error.message, { rpcCode: 4100 })
      : new EmbeddedError(400, 'BAD_REQUEST', error.message, { rpcCode: -32602, field: 'params' })
  }
}

/**
 * Refuses a domain the owner key must never sign for a page.
 *
 * @example
 * refuseReservedDomain(typed.domain, [smartAccountAddress])
 */
export const refuseReservedDomain = (
  domain: Record<string, unknown> | undefined,
  ownAccounts: readonly Address[],
): void => asServiceError(() => refuseReserved(domain, ownAccounts))

/**
 * The rows of a typed-data preview, or the service's error saying why it cannot be shown whole.
 *
 * @example
 * const { domain, primaryType, fields } = typedDataRows(typed, { chainId: 1, ownAccounts: [] })
 */
export const typedDataRows = (
  typed: TypedDataInput,
  options: { chainId: number; ownAccounts: readonly Address[] },
): TypedDataRows => asServiceError(() => rowsOf(typed, options))
