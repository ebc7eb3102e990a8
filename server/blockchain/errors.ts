import {
  type ApiErrorCode,
  type BlockchainErrorCode,
  blockchainErrorMessages,
} from '../../src/protocol/api/index.ts'
import { ServiceError } from '../errors.ts'

/**
 * An error of the data API: a code of `blockchainErrorMessages` with its fixed message, or another API
 * code with the message given.
 *
 * @example
 * throw dataError('SWAPS_NETWORK_NOT_SUPPORTED', 400)
 */
export function dataError(code: BlockchainErrorCode, status: number): ServiceError
export function dataError(code: ApiErrorCode, status: number, message: string): ServiceError
export function dataError(code: ApiErrorCode, status: number, message?: string): ServiceError {
  return new ServiceError(
    status,
    code,
    message ?? blockchainErrorMessages[code as BlockchainErrorCode] ?? 'Request failed',
  )
}
