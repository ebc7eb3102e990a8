import { BaseError, type ErrorParameters } from './base.ts'

/**
 * Input failed one of the protocol's validation rules; `shortMessage` is the rule's message.
 *
 * @example
 * throw new ValidationError('Invalid CAIP-2 network id', { path: ['networks', 2] })
 */
export class ValidationError extends BaseError {
  override name = 'ValidationError' as const
  /** Where in the input the rule failed; empty for the input itself. */
  readonly path: PropertyKey[]
  constructor(message: string, { path = [], ...rest }: ErrorParameters & { path?: PropertyKey[] } = {}) {
    super(message, rest)
    this.path = path
  }
}
