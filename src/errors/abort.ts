import { BaseError, type ErrorParameters } from './base.ts'

/**
 * The request was aborted on purpose (an `AbortSignal` fired).
 *
 * @example
 * signal.addEventListener('abort', () => reject(new RequestAbortedError()))
 */
export class RequestAbortedError extends BaseError {
  override name = 'RequestAbortedError' as const
  constructor(parameters: ErrorParameters = {}) {
    super('Request was aborted', parameters)
  }
}
